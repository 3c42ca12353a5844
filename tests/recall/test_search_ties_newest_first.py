"""``lh memory search``: entries that match the words equally well (the same words, as many of them)
are listed newest first, whatever their order in the file and whichever of them is older; the same
with and without click."""

import json
import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from tests.cli.lhrun import invoke
from tests.cli.test_memory import DAY, NOW, project  # noqa: F401
from tests.recall.test_search import quick
from tests.support import memory_samples as ms

TITLES = ("Retry webhook deliveries twice", "Twice retry webhook deliveries")  # the same words, as long


@pytest.mark.parametrize("older_title", TITLES)
@pytest.mark.parametrize("file_order", ["older first", "newer first"])
def test_equal_matches_are_listed_newest_first(project, older_title, file_order):  # noqa: F811
    newer_title = next(t for t in TITLES if t != older_title)
    older = ms.decision(NOW - 90 * DAY, older_title, "x")
    newer = ms.decision(NOW - 1 * DAY, newer_title, "x")
    ms.write_jsonl(os.path.join(paths.memory_dir(project), files.DECISIONS),
                   [older, newer] if file_order == "older first" else [newer, older])
    out = invoke("memory", "search", "webhook", "deliveries", "--json", "--project", project)
    assert out.code == 0, out.err
    hits = [json.loads(ln) for ln in out.out.splitlines()]
    assert [h["score"] for h in hits] == [hits[0]["score"]] * 2  # a tie
    assert [h["summary"] for h in hits] == [newer_title, older_title]
    fast = quick("memory", "search", "webhook", "deliveries", "--project", project)
    assert fast.returncode == 0, fast.stderr
    assert [newer_title in ln for ln in fast.stdout.splitlines()] == [True, False]
