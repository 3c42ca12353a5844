"""One word of an entry counts for one of the prompt's terms. Two terms that a word of the entry both
match (synonyms on one line of ``terms.GROUPS``: "loading spinner"; two forms of a word: "load",
"loading") were both counted matched, as two distinctive words, which the bar takes for evidence (ADR
0034): "Add a loading spinner to the wishlist screen" brought a decision about database connections
opened "under load". Found by trying the issue's prompts on a small memory, as a new user would. Two
words of the entry that match two terms of one line ("alerts" and "metrics") still count twice."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.recall.index import lookup
from tests.cli.lhrun import invoke
from tests.recall.prompt.test_rank import _ask
from tests.support import memory_samples as ms

NOW = time.time()
POOL = "Database connections go through pgbouncer in transaction mode"
ALERTS = "Alerts fire on the payment failure rate, not on CPU"


@pytest.fixture
def shop(tmp_path):
    root = ms.make_project(tmp_path, "shop")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - 3 * ms.DAY, "Keep the invoice queue in Redis streams", "consumer groups give us replay",
                    tags=["redis", "queue"]),
        ms.decision(NOW - 2 * ms.DAY, "Use pytest-xdist with --dist loadscope for the API suite",
                    "fixtures per module", tags=["pytest", "ci"]),
        ms.decision(NOW - ms.DAY, POOL, "the app opened 400 connections under load", tags=["postgres", "pool"]),
        ms.decision(NOW - ms.DAY, ALERTS, "CPU pages woke on-call for nothing", tags=["prometheus", "metrics"])])
    return root


def test_the_wishlist_spinner_prompt_gets_no_note_about_connections_under_load(shop):
    prompt = "Add a loading spinner to the wishlist screen"
    assert _ask(shop, prompt) == ""
    out = invoke("memory", "show", "--project", shop, "--prompt", prompt)
    assert out.code == 0, out.err
    assert "This prompt receives nothing: " in out.out and "\npass " not in out.out, out.out
    line = next(ln for ln in out.out.splitlines() if POOL in ln)
    assert line.rstrip().endswith("[loading]") or line.rstrip().endswith("[spinner]"), line


def test_two_words_of_the_entry_on_one_line_of_groups_still_count_twice(shop):
    out = invoke("memory", "show", "--project", shop, "--prompt", "what metrics do we alert on")
    line = next(ln for ln in out.out.splitlines() if ALERTS in ln)
    assert line.rstrip().endswith("[metrics, alert]"), out.out


def test_an_entry_about_the_prompt_still_comes_back(shop):
    got = _ask(shop, "the app runs out of database connections under load, do we pool them")
    assert POOL in got, got


def test_the_count_is_a_matching_of_words_to_terms():
    """Each matched pattern (an entry word or phrase) stands for one term at most, as many terms as can
    be told apart: {a, b} and {a} give two; {a, b} alone gives one; {a, b}, {b, c}, {a} give three."""
    assert len(lookup.told_apart([{0, 1}])) == 1
    assert lookup.told_apart([{0, 1}, {0}]) == {0, 1}
    assert lookup.told_apart([{0}, {0, 1}]) == {0, 1}
    assert lookup.told_apart([{0, 1}, {1, 2}, {0}]) == {0, 1, 2}
    assert lookup.told_apart([{2}, {2}, {2}]) == {2}
    assert lookup.told_apart([]) == set()
