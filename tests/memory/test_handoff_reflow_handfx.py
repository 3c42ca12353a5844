"""handoff.md reflowed in an editor (vim ``gqip``, VS Code Rewrap): each item line joined with the note the
render writes under it, or wrapped onto continuation lines. The items are the same items: nothing is
appended to handoff.jsonl, their ids and texts stay, and the note never becomes item text."""

import json
import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, handoff, handoff_answer, handoff_markdown
from tests.hooks.hookrun import SID, run_hook
from tests.support import memory_samples as ms

NOW = 1_760_000_000.0
DAY = 86400.0
A = {"project": "proj", "session_id": "sess-a", "task_id": "t-a"}
B = {"project": "proj", "session_id": "5e6f7a8b-1c2d-4e5f-8a9b-0c1d2e3f4a5b", "task_id": "t-b"}
LONG = ("rewrite the retry loop of the sync round so that a remote which refuses the push is retried "
        "with backoff instead of at once")


@pytest.fixture
def mdir(tmp_path) -> str:
    folder = str(tmp_path / "memory")
    os.makedirs(folder)
    return folder


def md_path(mdir: str) -> str:
    return os.path.join(mdir, files.HANDOFF)


def read_md(mdir: str) -> str:
    with open(md_path(mdir), encoding="utf-8") as fh:
        return fh.read()


def hand_write(mdir: str, text: str, mtime: float) -> None:
    with open(md_path(mdir), "w", encoding="utf-8") as fh:
        fh.write(text)
    os.utime(md_path(mdir), (mtime, mtime))


def log_bytes(mdir: str) -> bytes:
    with open(os.path.join(mdir, handoff.STATE), "rb") as fh:
        return fh.read()


def open_items(mdir: str) -> list[tuple[str, str]]:
    return [(i["id"], i["text"]) for i in handoff.open_items(handoff.load(mdir)[0])]


def several_items(mdir: str) -> None:
    """Open items whose notes take each form a render writes: a session, a stale one, a session name with
    spaces (a migrated file's path), an item a person added by hand."""
    handoff_answer.apply_answer(mdir, ["update read-back.md."], [], A, NOW - 30 * DAY, NOW - 30 * DAY)
    handoff_answer.apply_answer(mdir, ["finish the read-back docs.", LONG], [], B, NOW - 3600, NOW - 3600)
    handoff.merge_markdown(mdir, "- carry over the old list\n", NOW - 1800, "/home/me/My Notes/old handoff.md")
    hand_write(mdir, read_md(mdir) + "- added in the editor\n", NOW - 900)
    handoff.import_hand_edits(mdir, A, NOW - 600)
    handoff.import_hand_edits(mdir, A, NOW, render=True)  # a render at NOW: the first item's note says stale
    text = read_md(mdir)
    assert "; stale: open 30 days" in text and "by session /home/me/My Notes/old handoff.md" in text
    assert "by a hand edit of handoff.md" in text


def reflow(text: str, width: int | None = None, joinspaces: bool = False) -> str:
    """What vim's ``gqip`` over the list (markdown: ``comments=fb:-``, ``formatoptions+=n``) or VS Code
    Rewrap makes of it: each ``- `` item and the indented lines under it joined into one paragraph, then
    wrapped at ``width`` columns (None: one line) with continuation lines indented under the text.
    ``joinspaces``: two spaces after a sentence's end where lines are joined (vim's 'joinspaces')."""
    out: list[str] = []
    para: list[str] = []

    def flush() -> None:
        if not para:
            return
        joined = para[0]
        for part in para[1:]:
            joined += ("  " if joinspaces and joined.endswith((".", "!", "?")) else " ") + part
        if width is None:
            out.append("- " + joined)
        else:
            line = "-"
            for word in joined.split():
                if len(line) + 1 + len(word) > width and line.strip() not in ("", "-"):
                    out.append(line)
                    line = " "
                line += " " + word
            out.append(line)
        para.clear()

    for line in text.split("\n"):
        if line.startswith("- "):
            flush()
            para.append(line[2:].strip())
        elif para and line.startswith("  ") and line.strip():
            para.append(line.strip())
        else:
            flush()
            out.append(line)
    flush()
    return "\n".join(out)


STYLES = {"gqip joined": {}, "joinspaces": {"joinspaces": True}, "wrapped at 79": {"width": 79},
          "wrapped at 40": {"width": 40}}


@pytest.mark.parametrize("style", list(STYLES))
def test_a_reflowed_handoff_md_is_the_same_items_for_readers_and_writers(mdir, style):
    several_items(mdir)
    before, log = open_items(mdir), log_bytes(mdir)
    reflowed = reflow(read_md(mdir), **STYLES[style])
    assert not any(line.startswith("  opened ") for line in reflowed.split("\n")) or style == "wrapped at 40"
    hand_write(mdir, reflowed, NOW + 100)
    # the SessionStart read-back
    state, pending = handoff.load(mdir)
    assert pending == []
    assert [(i["id"], i["text"]) for i in handoff.open_for_reading(mdir)] == before
    # a writer (the worker's answer): only its own record is appended
    appended, _, _ = handoff_answer.apply_answer(mdir, ["a new item"], [], B, NOW + 200, NOW + 200)
    assert [(r["op"], r["text"]) for r in appended] == [("open", "a new item")]
    assert log_bytes(mdir).startswith(log)
    after = open_items(mdir)
    assert after[:-1] == before and after[-1][1] == "a new item"
    assert all(i.get("opened_by") != handoff_markdown.HAND_EDIT or i["text"] == "added in the editor"
               for i in handoff.load(mdir)[0].values())


@pytest.mark.parametrize("style", ["gqip joined", "wrapped at 79"])
def test_lh_memory_close_of_an_old_id_works_after_a_reflow(mdir, style):
    several_items(mdir)
    before = open_items(mdir)
    hand_write(mdir, reflow(read_md(mdir), **STYLES[style]), NOW + 100)
    assert handoff.import_hand_edits(mdir, A, NOW + 150) == []
    closed = handoff.close_items(mdir, [(before[1][0], "")], {"session_id": "by hand", "task_id": ""}, NOW + 200)
    assert [(r["op"], r["id"]) for r in closed] == [("close", before[1][0])]
    assert open_items(mdir) == before[:1] + before[2:]


def test_an_edit_before_the_joined_note_is_the_persons_edit(mdir):
    several_items(mdir)
    before = open_items(mdir)
    edited = reflow(read_md(mdir)).replace("finish the read-back docs. opened",
                                           "finish the read-back docs and the ADR. opened")
    assert edited != reflow(read_md(mdir))
    hand_write(mdir, edited, NOW + 100)
    _, pending = handoff.load(mdir)
    old = next(hid for hid, text in before if text == "finish the read-back docs.")
    assert [(r["op"], r["id"], r["session_id"]) for r in pending if r["op"] == "close"] == \
        [("close", old, handoff_markdown.HAND_EDIT)]
    assert [(r["op"], r["text"], r["session_id"]) for r in pending if r["op"] == "open"] == \
        [("open", "finish the read-back docs and the ADR.", handoff_markdown.HAND_EDIT)]
    assert [t for _, t in open_items(mdir)] == [t for _, t in before if t != "finish the read-back docs."] + \
        ["finish the read-back docs and the ADR."]


def test_a_detail_line_under_the_note_joined_by_a_reflow_stays_the_persons_detail(mdir):
    handoff_answer.apply_answer(mdir, ["write the docs"], [], A, NOW, NOW)
    text = read_md(mdir)
    at = text.index("\n", text.index("\n  opened ") + 1)
    hand_write(mdir, reflow(text[:at] + "\n  with examples" + text[at:]), NOW + 100)
    assert [t for _, t in open_items(mdir)] == ["write the docs with examples"]


def test_a_reflow_of_a_file_written_before_its_log_imports_the_texts_without_the_notes(mdir, tmp_path):
    other = str(tmp_path / "other")
    os.makedirs(other)
    several_items(other)
    want = [t for _, t in open_items(other)]
    hand_write(mdir, reflow(read_md(other), width=79), NOW + 100)  # no handoff.jsonl beside it
    assert [t for _, t in open_items(mdir)] == want


# --- the reverse: an editor wrapping a long item's text onto continuation lines ---------------------

@pytest.mark.parametrize("width", [79, 60, 40])
def test_a_long_item_wrapped_above_its_own_note_line_is_the_same_item(mdir, width):
    handoff_answer.apply_answer(mdir, [LONG, "short one"], [], A, NOW, NOW)
    before, log = open_items(mdir), log_bytes(mdir)
    lines = []
    for line in read_md(mdir).split("\n"):
        if LONG in line:
            lines += reflow(line, width=width).split("\n")  # the item's text wrapped, its note line kept
        else:
            lines.append(line)
    wrapped = "\n".join(lines)
    assert wrapped.count("\n") > read_md(mdir).count("\n")
    hand_write(mdir, wrapped, NOW + 100)
    assert handoff.load(mdir)[1] == [] and open_items(mdir) == before
    assert handoff.import_hand_edits(mdir, A, NOW + 150) == [] and log_bytes(mdir) == log


# --- SessionStart run as Claude Code runs it --------------------------------------------------------

def test_session_start_after_a_reflow_shows_the_items_without_the_notes_and_writes_nothing(tmp_path):
    project = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(project)
    os.makedirs(mdir, exist_ok=True)
    several_items(mdir)
    before, log = open_items(mdir), log_bytes(mdir)
    hand_write(mdir, reflow(read_md(mdir), width=79), NOW + 100)
    result = run_hook("SessionStart", {"session_id": SID, "transcript_path": f"/nowhere/{SID}.jsonl",
                                       "cwd": project, "hook_event_name": "SessionStart", "source": "startup"})
    assert result.returncode == 0, result.stderr
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    shown = [line for line in context.split("\n") if "open item h-" in line]
    assert len(shown) == len(before)
    for (hid, text), line in zip(before, shown, strict=True):
        assert hid in line and f": {text}" in line and " opened 20" not in line
    assert log_bytes(mdir) == log
