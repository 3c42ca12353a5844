"""``lh memory show`` prints at most 50 entries per section unless told otherwise (``--limit N``,
``--all``), each cut section ending with one line saying how many more there are and how to see
them; ``--section NAME`` picks sections; a memory under the limit prints as it always did."""

import os
import re
import time

import pytest

from lazy_harness import config, paths
from lazy_harness.memory import files
from lazy_harness.recall.readback import digest
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
DAY = ms.DAY
ENTRY = re.compile(r"^  [dflh]-[0-9a-f]{8}  ")


@pytest.fixture
def project(tmp_path):
    return ms.make_project(tmp_path, "proj", branch="main")


def fill(project, decisions: int = 120, failures: int = 7, items: int = 4, learnings: int = 2) -> str:
    mem = paths.memory_dir(project)
    ms.write_handoff(mem, [f"handoff item {i:03d}" for i in range(items)], "sess-show", NOW - DAY)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS),
                   [ms.decision(NOW - 400 * DAY + i * DAY, f"decision {i:03d}", f"because {i}")
                    for i in range(decisions)])
    ms.write_jsonl(os.path.join(mem, files.FAILURES),
                   [ms.failure(NOW - 300 * DAY + i * DAY, f"failure {i:03d}", f"prevent {i}") for i in range(failures)])
    L = paths.learnings_dir()
    for i in range(learnings):
        ms.write_learning(L, f"own learning {i:03d}", "proj", NOW - (i + 1) * DAY, slug=f"own-{i:03d}")
    return mem


def show(*args: str):
    out = invoke("memory", "show", *args)
    assert out.code == 0, out.err
    return out.out


def section(out: str, heading: str) -> list[str]:
    """The lines under the heading that starts with ``heading``, up to the next heading."""
    lines = out.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(heading))
    body = []
    for ln in lines[start + 1:]:
        if not ln.startswith("  "):
            break
        body.append(ln)
    return body


def more(n: int, name: str, total: int) -> str:
    return f"  ... and {n} more (lh memory show --all, or --section {name} --limit {total})"


def test_a_long_section_prints_the_newest_fifty_then_says_how_many_more(project):
    fill(project, decisions=120)
    body = section(show("--project", project), "Decisions (120,")
    entries = [ln for ln in body if ENTRY.match(ln)]
    assert len(entries) == 50
    assert "decision 070" in entries[0] and "decision 119" in entries[-1]  # the newest, oldest first as before
    assert not any("decision 069" in ln for ln in body)
    assert body[-1] == more(70, "decisions", 120)
    assert len(body) == 51


def test_every_section_is_cut_the_same_way_keeping_its_newest(project):
    fill(project, decisions=3, failures=60, items=55, learnings=53)
    out = show("--project", project)
    fails = section(out, "Failures (60,")
    assert fails[-1] == more(10, "failures", 60) and "failure 010" in fails[0] and "failure 059" in fails[-2]
    opened = section(out, "Open handoff items (55,")
    assert opened[-1] == more(5, "handoff", 55) and "handoff item 005" in opened[0]
    assert "handoff item 054" in opened[-2]
    own = section(out, "Learnings from proj (53,")
    assert own[-1] == more(3, "learnings", 53)
    assert "own learning 000" in own[0] and "own learning 049" in own[-2]  # newest first, as listed before
    assert len(section(out, "Decisions (3,")) == 3  # a short section has no "more" line


def test_limit_sets_how_many_and_zero_or_all_prints_everything(project):
    fill(project, decisions=120)
    body = section(show("--project", project, "--limit", "5"), "Decisions (120,")
    assert len(body) == 6 and body[-1] == more(115, "decisions", 120) and "decision 115" in body[0]
    for args in (("--limit", "0"), ("--all",)):
        body = section(show("--project", project, *args), "Decisions (120,")
        assert len(body) == 120 and "decision 000" in body[0] and "... and" not in "\n".join(body)


def test_a_memory_under_the_limit_prints_the_same_with_or_without_it(project):
    fill(project, decisions=50, failures=50, items=50, learnings=50)
    default = show("--project", project)
    assert default == show("--project", project, "--all")
    assert default == show("--project", project, "--limit", "50")
    assert " more (lh memory show --all" not in default
    assert len(section(default, "Decisions (50,")) == 50


def test_section_picks_which_sections_are_printed(project):
    fill(project, decisions=60)
    out = show("--project", project, "--section", "failures", "--section", "decisions")
    assert out.splitlines()[0].startswith("Decisions (60,")  # the order stays the usual one
    assert "Failures (7," in out
    for absent in ("Open handoff items", "Learnings from", "==== everything", "Notes from earlier sessions"):
        assert absent not in out
    whole = show("--project", project)
    assert out == "\n".join(whole.splitlines()[whole.splitlines().index(out.splitlines()[0]):][:len(
        out.splitlines())]) + "\n"


def test_section_context_is_the_session_start_text_alone(project):
    fill(project)
    whole = show("--project", project)
    out = show("--project", project, "--section", "context")
    assert out + "\n==== " in whole and whole.startswith(out)
    assert "Decisions (" not in out


def test_section_handoff_with_history_lists_closed_items(project):
    fill(project, items=2)
    closed = invoke("memory", "close", "--project", project, "handoff item 000")
    assert closed.code == 0, closed.err
    out = show("--project", project, "--section", "handoff", "--history")
    assert "Closed handoff items (1," in out and "handoff item 000" in out
    assert "Decisions (" not in out


@pytest.mark.parametrize("args, option", [
    (("--limit", "-1"), "'--limit'"),
    (("--limit", "many"), "'--limit'"),
    (("--section", "notes"), "'--section'"),
])
def test_bad_values_get_one_error_line_naming_the_option(project, args, option):
    fill(project, decisions=3)
    out = invoke("memory", "show", "--project", project, *args)
    assert out.code == 2
    errors = [ln for ln in out.err.splitlines() if ln.startswith("Error:")]
    assert len(errors) == 1 and f"Invalid value for {option}" in errors[0], out.err
    assert out.out == ""


@pytest.mark.parametrize("args", [("--all", "--limit", "5"), ("--prompt", "why", "--limit", "5"),
                                  ("--prompt", "why", "--section", "decisions")])
def test_options_that_do_not_go_together_are_refused(project, args):
    fill(project, decisions=3)
    out = invoke("memory", "show", "--project", project, *args)
    assert out.code == 2 and out.out == ""
    errors = [ln for ln in out.err.splitlines() if ln.startswith("Error:")]
    assert len(errors) == 1 and args[-2] in errors[0] and "No such option" not in errors[0], out.err


def test_the_session_start_footer_names_the_command_that_prints_everything(project):
    fill(project, decisions=120, items=60)
    text, stats = digest.build_context(project, config.load(), os.environ, NOW, "startup")
    footer = text.splitlines()[-1]
    assert footer.startswith("Left out for space: ") and sum(stats["left_out"].values()) > 0
    assert "`lh memory show --all`" in footer


def test_a_decision_line_a_hand_edit_broke_is_named_not_silently_left_out(project, monkeypatch):
    """A lost quote makes the line no JSON: every view leaves it out, and show says so on stderr
    (the count and the listing are of what can be read), as lh memory check would."""
    mem = fill(project, decisions=3, failures=1)
    path = os.path.join(mem, files.DECISIONS)
    with open(path, encoding="utf-8") as fh:
        rows = fh.read().split("\n")
    rows[1] = rows[1].replace('"summary": "', '"summary": ', 1)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(rows))
    monkeypatch.chdir(project)
    out = invoke("memory", "show", "--section", "decisions")
    assert out.code == 0 and "Decisions (2," in out.out
    assert f"lh: {path}: 1 line(s) skipped (2: " in out.err and "lh memory check" in out.err, out.err
    clean = invoke("memory", "show", "--section", "failures")
    assert "skipped" not in clean.err
