"""A learning file emptied or stripped of its frontmatter by hand (``state.DAMAGED``), and one renamed
without the date its name began with: every reader says of it what SessionStart does."""

import os

import pytest

from lazy_harness.memory import fence, files, frontmatter
from lazy_harness.recall.index import sources
from tests.cli.lhrun import invoke
from tests.hooks.test_trust import ask, cross_projects, start
from tests.memory.test_frontmatter_duplicates import PHRASE, TITLE
from tests.memory.test_handfx_learning_files import _write, alpha_gamma  # noqa: F401 (a fixture)
from tests.support import memory_samples as ms

BODY = f"# {TITLE}\n\nQueries on invoices must name the month partition.\n"
NAMED = "the invoices table partitioned by month"  # the words of the file's name


def test_show_prompt_gives_the_damaged_state_not_an_approval(alpha_gamma):  # noqa: F811
    _, gamma, path = alpha_gamma
    _write(path, BODY)
    out = invoke("memory", "show", "--project", gamma, "--prompt", NAMED).out
    assert "waits for your approval" not in out and "lh memory approve" not in out, out
    assert "no frontmatter: shown to no session, lh memory check" in out, out


@pytest.mark.parametrize("text", ["", "\n  \n", "\ufeff"])
def test_an_empty_learning_file_is_no_candidate(alpha_gamma, text):  # noqa: F811
    alpha, gamma, path = alpha_gamma
    _write(path, text)
    cross_projects("auto")  # why: there a learning of no project crosses unasked, and none waits
    for root in (alpha, gamma):
        assert PHRASE not in start(root)[0]
        assert PHRASE not in ask(root, NAMED)
    out = invoke("memory", "show", "--project", gamma, "--prompt", NAMED).out
    assert "partitioned by month" not in out, out
    assert sources.read_learning(path) is None


def test_a_learning_without_frontmatter_is_shown_by_prompts_where_sessionstart_shows_it(alpha_gamma):  # noqa: F811
    _, gamma, path = alpha_gamma
    _write(path, BODY)
    # why the branch: another project's learning takes a place at the start only when it is about this one
    ms.make_project(os.path.dirname(gamma), "gamma", branch="monthly-invoices")
    assert PHRASE not in start(gamma)[0] and PHRASE not in ask(gamma, NAMED)
    cross_projects("auto")
    assert PHRASE in start(gamma)[0] and PHRASE in ask(gamma, NAMED)


def test_a_renamed_learning_is_dated_by_its_created(alpha_gamma):  # noqa: F811
    alpha, _, path = alpha_gamma
    with open(path, encoding="utf-8") as fh:
        created = str(frontmatter.parse_frontmatter(fh.read())[0]["created"])
    day = fence.date_of(created, files.iso_epoch(created))
    assert day
    os.rename(path, os.path.join(os.path.dirname(path), "invoices-notes.md"))
    [line] = [ln for ln in start(alpha)[0].splitlines() if PHRASE in ln]
    assert f", {day}, " in line and "undated" not in line, line


def test_show_and_the_page_date_a_renamed_learning_as_sessionstart_does(alpha_gamma):  # noqa: F811
    from lazy_harness import config
    from lazy_harness.ui import memory_lists, reading

    alpha, _, path = alpha_gamma
    os.rename(path, os.path.join(os.path.dirname(path), "invoices-notes.md"))
    [line] = [ln for ln in start(alpha)[0].splitlines() if PHRASE in ln]
    day = line.split(", ")[1]
    assert day != "undated", line
    shown = invoke("memory", "show", "--project", alpha, "--all").out
    listed = [ln for ln in shown.splitlines() if ln.startswith("  l-") and TITLE in ln]
    assert listed and all(f"  {day}  " in ln for ln in listed), shown
    cfg = config.load()
    p = reading.projects(alpha, cfg, os.environ)[0]
    own, general = memory_lists.learnings(p)
    assert [m["day"] for m in own + general if m.get("title") == TITLE] == [day]


def test_a_date_in_the_name_still_comes_first(alpha_gamma):  # noqa: F811
    alpha, _, path = alpha_gamma
    os.rename(path, os.path.join(os.path.dirname(path), "2020-01-02-invoices-notes.md"))
    [line] = [ln for ln in start(alpha)[0].splitlines() if PHRASE in ln]
    assert ", 2020-01-02, " in line, line
