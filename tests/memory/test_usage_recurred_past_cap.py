"""The recurrences the worker keeps (``<state>/recurred``) and those SessionStart told
(``<state>/recurred-told``) grow past what one read takes (``usage.MAX_SEEN``). Both are appended to,
so what is new is at their end: each is read from its newest end (``usage.newest_text``); a recurrence
appended past the cap is still told once, and one told stays told."""

import os

from lazy_harness import paths
from lazy_harness.memory import usage

KEY = "demo-1234abcd"


def _history(n: int, told: bool) -> None:
    """``n`` recurrences of another project, each told when ``told``: both files past the cap."""
    state = paths.state_dir()
    os.makedirs(state, mode=0o700, exist_ok=True)
    lines = "".join(f"other-99999999 f-{i:08x}\n" for i in range(n))
    for name in (usage.RECURRED, usage.RECURRED_TOLD) if told else (usage.RECURRED,):
        with open(os.path.join(state, name), "w", encoding="utf-8") as fh:
            fh.write(lines)


def test_a_recurrence_kept_past_the_cap_is_told_once(isolated_home):
    _history(45_000, told=True)
    state = paths.state_dir()
    assert os.path.getsize(os.path.join(state, usage.RECURRED)) > usage.MAX_SEEN
    assert os.path.getsize(os.path.join(state, usage.RECURRED_TOLD)) > usage.MAX_SEEN
    usage.keep_recurred(None, KEY, ["f-deadbeef"])
    assert usage.untold_recurred(None, KEY) == ["f-deadbeef"]
    usage.told_recurred(None, KEY, ["f-deadbeef"])
    assert usage.untold_recurred(None, KEY) == []  # told past the cap: not told again
    assert usage.untold_recurred(None, "other-99999999") == []  # the told history in the window stays told


def test_told_and_untold_recurrences_past_the_cap_of_both_files(isolated_home):
    _history(45_000, told=True)
    usage.keep_recurred(None, KEY, ["f-00000001", "f-00000002"])
    usage.told_recurred(None, KEY, ["f-00000001"])
    more = [f"f-{i:08x}" for i in range(45_000, 45_010)]  # new ones of the other project
    usage.keep_recurred(None, "other-99999999", more)
    assert usage.untold_recurred(None, KEY) == ["f-00000002"]
    assert usage.untold_recurred(None, "other-99999999") == more
    usage.told_recurred(None, "other-99999999", more)
    assert usage.untold_recurred(None, "other-99999999") == []
    assert usage.untold_recurred(None, KEY) == ["f-00000002"]


def test_the_line_the_window_starts_inside_is_not_read_as_a_recurrence(isolated_home):
    state = paths.state_dir()
    os.makedirs(state, mode=0o700, exist_ok=True)
    line, last = f"{KEY} f-{0:08x}\n", f"{KEY} f-1\n"
    # why a shorter last line: it puts the window's start inside a line ("demo-1234abcd f-0|0000000"),
    # whose rest read as a line would be a recurrence of no project
    with open(os.path.join(state, usage.RECURRED), "w", encoding="utf-8") as fh:
        fh.write(line * (usage.MAX_SEEN // len(line) + 2) + last)
    start = os.path.getsize(os.path.join(state, usage.RECURRED)) - usage.MAX_SEEN
    assert start % len(line) not in (0, len(line) - 1)  # inside a line, not at its start
    assert usage.untold_recurred(None, KEY) == ["f-00000000", "f-1"]
    read = usage._lines(os.path.join(state, usage.RECURRED))
    assert not [ln for ln in read if ln not in (line.strip(), last.strip())], [ln for ln in read if ln[:4] != "demo"]
