"""handoff.md: an item struck through by hand (``- ~~[h-...] text~~``, markdown strikethrough) reads as
ticked: its item is closed by its id, and no new item is opened with the struck text."""

import os

import pytest

from lazy_harness.memory import files, handoff, handoff_answer, handoff_markdown

NOW = 1_760_000_000.0
META = {"project": "proj", "session_id": "sess-a", "task_id": "t-a"}


@pytest.fixture
def mdir(tmp_path) -> str:
    folder = str(tmp_path / "memory")
    os.makedirs(folder)
    handoff_answer.apply_answer(folder, ["document the queue format", "rotate the zebra keys"], [], META,
                                NOW - 60, NOW - 60)
    return folder


def _edit(mdir: str, change) -> None:
    path = os.path.join(mdir, files.HANDOFF)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(change(text))
    os.utime(path, (NOW - 30, NOW - 30))


def _open(mdir: str) -> list[str]:
    return [i["text"] for i in handoff.open_items(handoff.load(mdir)[0])]


def _hid(mdir: str, text: str) -> str:
    return next(i["id"] for i in handoff.open_items(handoff.load(mdir)[0]) if i["text"] == text)


@pytest.mark.parametrize("struck", ["~~[{hid}] document the queue format~~",
                                    "[ ] ~~[{hid}] document the queue format~~",
                                    "~~ [{hid}] document the queue format ~~",
                                    "~~document the queue format~~"])
def test_a_struck_item_is_closed_and_nothing_opens(mdir, struck):
    hid = _hid(mdir, "document the queue format")
    _edit(mdir, lambda t: t.replace(f"- [{hid}] document the queue format", "- " + struck.format(hid=hid)))
    assert _open(mdir) == ["rotate the zebra keys"]  # readers apply the edit in memory
    handoff.import_hand_edits(mdir, META, NOW)
    state = handoff.load(mdir)[0]
    assert _open(mdir) == ["rotate the zebra keys"]
    assert not state[hid].is_open
    assert not any("~~" in i["text"] for i in state.values())


def test_the_parser_reads_a_whole_struck_line_as_ticked():
    _, lines = handoff_markdown.parse_markdown("- ~~[h-1330744e] document the queue format~~\n"
                                               "  opened 2026-04-10 09:00 by session abc\n")
    assert [(hid, text, ticked) for _, hid, text, ticked in lines] == [
        ("h-1330744e", "document the queue format", True)]


@pytest.mark.parametrize("line", ["- ~~old plan~~ new plan", "- use ~~foo~~ bar", "- ~~half struck"])
def test_a_partly_struck_line_stays_open_text(line):
    _, lines = handoff_markdown.parse_markdown(line + "\n")
    assert [(text, ticked) for _, _, text, ticked in lines] == [(line[2:], False)]


def test_struck_across_a_continuation_line(mdir):
    hid = _hid(mdir, "document the queue format")
    _edit(mdir, lambda t: t.replace(f"- [{hid}] document the queue format",
                                    f"- ~~[{hid}] document the\n  queue format~~"))
    handoff.import_hand_edits(mdir, META, NOW)
    assert _open(mdir) == ["rotate the zebra keys"]
