"""A person's words that look like a note, against the note a render writes.

A render writes ``opened <YYYY-MM-DD HH:MM> by session <id>`` (or ``by a hand edit of handoff.md``...) under
each item, maybe ending ``; stale: open N days``. An editor's reflow joins it onto the item's line, and a
sync may have changed it since (another machine's time zone, another opening session): that joined note
is still no item text. A person's own words at the end of an item (``... opened 2026-04-10 09:00 by
alice``) are not the render's note: they are the item's text, kept whole in handoff.jsonl."""

import json
import os

import pytest

from lazy_harness.memory import handoff, handoff_answer, handoff_markdown
from tests.memory.test_handoff_reflow_handfx import A, B, DAY, NOW, hand_write, log_bytes, read_md


@pytest.fixture
def mdir(tmp_path) -> str:
    folder = str(tmp_path / "memory")
    os.makedirs(folder)
    return folder


def log_records(mdir: str) -> list[dict]:
    with open(os.path.join(mdir, handoff.STATE), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def open_texts(mdir: str) -> list[tuple[str, str]]:
    return [(i["id"], i["text"]) for i in handoff.open_items(handoff.load(mdir)[0])]


def joined(text: str) -> str:
    """Each indented line joined onto the item line above it (vim ``gqip`` without a width)."""
    out: list[str] = []
    for line in text.split("\n"):
        if line.startswith("  ") and line.strip() and out and out[-1].startswith("- "):
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out)


# --- a person's words shaped like a note are kept ------------------------------------------------

PERSON = ["follow up on ticket 42, opened 2026-04-10 09:00 by alice",
          "follow up on ticket 42, opened 2026-04-10 09:00 by alice and bob",
          "follow up on ticket 42, opened 2026-04-10 09:00 by session with bob tomorrow",
          "follow up on ticket 42, opened ? by alice",
          "follow up on ticket 42, opened 2026-04-10 09:00 by alice; stale: open 3 days"]


@pytest.mark.parametrize("words", PERSON)
def test_a_rewording_ending_in_words_shaped_like_a_note_is_kept_whole(mdir, words):
    handoff_answer.apply_answer(mdir, ["follow up on the incident"], [], A, NOW - 3600, NOW - 3600)
    text = read_md(mdir)
    (hid, _), = open_texts(mdir)
    # the person deletes the note line and rewrites the item in their own words
    lines = [line for line in text.split("\n") if not line.startswith("  opened ")]
    edited = "\n".join(line.replace("follow up on the incident", words) if hid in line else line for line in lines)
    assert words in edited
    hand_write(mdir, edited, NOW)
    assert [t for _, t in open_texts(mdir)] == [words]  # the read-back
    handoff.import_hand_edits(mdir, A, NOW + 10)  # a writer
    opens = [r for r in log_records(mdir) if r["op"] == "open" and r["session_id"] == handoff_markdown.HAND_EDIT]
    assert [r["text"] for r in opens] == [words]
    assert [t for _, t in open_texts(mdir)] == [words]
    assert words in read_md(mdir)


def test_a_new_line_naming_an_unknown_id_keeps_a_persons_note_shaped_words(mdir):
    handoff_answer.apply_answer(mdir, ["write the docs"], [], A, NOW - 3600, NOW - 3600)
    words = "ask carol, opened 2026-04-10 09:00 by alice"
    hand_write(mdir, read_md(mdir) + f"- [h-0badc0de] {words}\n", NOW)
    assert words in [t for _, t in open_texts(mdir)]


# --- the render's note, changed by a sync, joined by a reflow, is still cut ------------------------

def several_items(mdir: str) -> None:
    """Open items whose notes take each form a render writes: a session (stale), a session id, a
    migrated file's path with spaces, an item a person added by hand."""
    handoff_answer.apply_answer(mdir, ["update read-back.md."], [], A, NOW - 30 * DAY, NOW - 30 * DAY)
    handoff_answer.apply_answer(mdir, ["finish the read-back docs."], [], B, NOW - 3600, NOW - 3600)
    handoff.merge_markdown(mdir, "- carry over the old list\n", NOW - 1800, "/home/me/My Notes/old handoff.md")
    hand_write(mdir, read_md(mdir) + "- added in the editor\n", NOW - 900)
    handoff.import_hand_edits(mdir, A, NOW - 600)
    handoff.import_hand_edits(mdir, A, NOW, render=True)
    text = read_md(mdir)
    assert "; stale: open 30 days" in text and "by session /home/me/My Notes/old handoff.md" in text
    assert "by a hand edit of handoff.md" in text and f"by session {B['session_id']}" in text


def synced(text: str) -> str:
    """The notes as another machine rendered them: each opening time an hour later (its time zone), and
    the session ids another session's."""
    out = []
    for line in text.split("\n"):
        if line.startswith("  opened 20"):
            hour = int(line[20:22])
            line = f"{line[:20]}{(hour + 1) % 24:02d}{line[22:]}"
            line = line.replace("by session sess-a", "by session 0a1b2c3d-aaaa-4bbb-8ccc-0123456789ab")
        out.append(line)
    return "\n".join(out)


def test_a_reflowed_file_whose_notes_a_sync_changed_is_the_same_items(mdir):
    several_items(mdir)
    before, log = open_texts(mdir), log_bytes(mdir)
    changed = joined(synced(read_md(mdir)))
    assert changed != joined(read_md(mdir)) and "\n  opened " not in changed
    hand_write(mdir, changed, NOW + 100)
    assert handoff.load(mdir)[1] == []
    assert open_texts(mdir) == before
    assert handoff.import_hand_edits(mdir, A, NOW + 150) == [] and log_bytes(mdir) == log


def test_a_reflowed_file_without_its_log_imports_the_texts_without_the_notes(mdir, tmp_path):
    other = str(tmp_path / "other")
    os.makedirs(other)
    several_items(other)
    want = [t for _, t in open_texts(other)]
    hand_write(mdir, joined(synced(read_md(other))), NOW + 100)  # no handoff.jsonl beside it
    assert [t for _, t in open_texts(mdir)] == want
