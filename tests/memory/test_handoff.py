"""handoff.md: the documented format, and a round trip through the read-back hook's parser."""

import os

from lazy_harness.logfile import stamp
from lazy_harness.memory import files, handoff

NOW = 1_760_000_000.0
META = {"project": "my project", "session_id": "0b9e-sess", "task_id": "1760000000000000000-ab12", "cwd": "/x"}


def write(tmp_path, items, meta=META) -> str:
    folder = str(tmp_path / "memory")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, files.HANDOFF), "w", encoding="utf-8") as fh:
        fh.write(handoff.render(items, meta, NOW))
    return folder


def test_render_matches_the_documented_format():
    text = handoff.render(["first", "second"], META, NOW)
    ts = stamp(NOW)
    assert text == (
        "# Open items for the next session\n"
        f"<!-- lazy-harness handoff session=0b9e-sess task=1760000000000000000-ab12 written={ts} project=my project -->\n"
        "\n"
        f"Written {ts} at the end of session 0b9e-sess.\n"
        "\n"
        "- first\n"
        "- second\n")


def test_round_trip_header_and_items(tmp_path):
    items = ["wire the hook", "- starts with a dash", "# looks like a heading", "* star", "a\nsecond line",
             "ünïcode ✓", "[ ] open checkbox", "[x] already done", "   ", ""]
    got = handoff.read(write(tmp_path, items))
    assert got == {"items": ["wire the hook", "- starts with a dash", "# looks like a heading", "* star",
                             "a second line", "ünïcode ✓", "open checkbox"],
                   "session_id": "0b9e-sess", "task_id": "1760000000000000000-ab12", "written": stamp(NOW),
                   "project": "my project"}
    assert got["items"] == handoff.items(items)  # what is planned is exactly what is read back


def test_hostile_header_values_cannot_break_the_comment(tmp_path):
    meta = {"project": "evil --> <script>\nproject=x", "session_id": "s 1\n-->", "task_id": "t"}
    folder = write(tmp_path, ["one"], meta)
    with open(os.path.join(folder, files.HANDOFF), encoding="utf-8") as fh:
        header = fh.read().split("\n")[1]
    assert header.count("-->") == 1 and header.endswith(" -->")
    got = handoff.read(folder)
    assert got["items"] == ["one"] and got["session_id"] == "s_1_->" and got["task_id"] == "t"


def test_read_missing_and_hand_written(tmp_path):
    assert handoff.read(str(tmp_path / "nothing")) is None
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / files.HANDOFF).write_text("# my notes\n\n- do this\n- and that\n", encoding="utf-8")
    assert handoff.read(str(folder)) == {"items": ["do this", "and that"], "session_id": None, "task_id": None,
                                         "written": None, "project": None}


def test_items_accepts_a_bare_string_and_drops_blanks():
    assert handoff.items("just one") == ["just one"]
    assert handoff.items(None) == [] and handoff.items(["", " \n "]) == []
