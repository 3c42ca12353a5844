"""SessionEnd's ``reason`` in hooks.log: Claude Code sends one of a few words (claude-code-facts.md), but
the hook reads whatever the payload holds. A missing reason reads as SessionStart's missing source does
(``?``), never Python's ``None``; a reason that is no string, or a string with line breaks or control
characters, still makes exactly one readable line, and a huge one does not flood the log."""

import pytest

from lazy_harness import paths
from tests.hooks.hookrun import enable_loop, hook_log, run_hook, worker_lock_held

MISSING = object()


def _end(session, isolated_home, reason) -> str:
    """Run SessionEnd with ``reason`` (MISSING: no such field) and return the one line it logged."""
    enable_loop(isolated_home)
    payload = dict(session, hook_event_name="SessionEnd")
    if reason is not MISSING:
        payload["reason"] = reason
    before = hook_log(paths.claude_dir())
    with worker_lock_held(paths.claude_dir()):
        result = run_hook("SessionEnd", payload)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    after = hook_log(paths.claude_dir())  # why splitlines (hook_log): what an editor or a pager breaks at
    assert after[:len(before)] == before and len(after) == len(before) + 1, after[len(before):]
    line = after[-1]
    assert line.split(" ", 1)[1].startswith("SessionEnd ") and " queued " in line, line
    return line


def test_a_missing_reason_is_logged_as_unknown_not_none(session, isolated_home):
    line = _end(session, isolated_home, MISSING)
    assert "reason=None" not in line
    assert " reason=? (" in line


def test_a_null_or_empty_reason_is_logged_as_unknown(session, isolated_home):
    for reason in (None, ""):
        assert " reason=? (" in _end(session, isolated_home, reason)


def test_a_real_reason_is_logged_as_sent(session, isolated_home):
    assert " reason=prompt_input_exit (" in _end(session, isolated_home, "prompt_input_exit")


@pytest.mark.parametrize("reason", [
    42,
    ["clear", "other\nline"],
    {"why": "x\u2028y"},
    "other\nsecond line",
    "other\u2028second line",  # a line separator: str.splitlines (and editors) break the line there
    "other\x85next",
    "other\x1b[31mred\x1b]0;title\x07",
    "other\r\x0b\x0c\x1c\x1d\x1e",
])
def test_any_reason_stays_on_the_one_line_of_its_run(session, isolated_home, reason):
    line = _end(session, isolated_home, reason)
    assert " reason=" in line and "\x1b" not in line and "\x07" not in line
    assert line.endswith(" ms)")


def test_a_huge_reason_is_cut_short(session, isolated_home):
    line = _end(session, isolated_home, "other " + "x" * 20_000)
    assert " reason=other x" in line and len(line) < 400
