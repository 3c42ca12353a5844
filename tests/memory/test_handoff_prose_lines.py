"""A line a person types into handoff.md without a list marker ("ask Dana about the staging key") is an
open item, as a ``- `` line is: before, it was dropped at the next render without a word. Lines a render
writes (the title, the header, the line counting the items, the note under an item) and markdown
structure (a heading, a lead-in ending ``:``) are no items."""

import json
import os

from lazy_harness.memory import files, handoff, handoff_answer, handoff_markdown, ids

NOW = 1_760_000_000.0
META = {"project": "proj", "session_id": "sess-a", "task_id": "t-a"}
LATER = {"project": "proj", "session_id": "sess-b", "task_id": "t-b"}


def _setup(tmp_path) -> str:
    mdir = str(tmp_path / "memory")
    os.makedirs(mdir)
    handoff_answer.apply_answer(mdir, ["Migrate the payments table", "Write the runbook"], [], META, NOW, NOW)
    return mdir


def _md(mdir: str) -> str:
    with open(os.path.join(mdir, files.HANDOFF), encoding="utf-8") as fh:
        return fh.read()


def _hand_write(mdir: str, text: str) -> None:
    path = os.path.join(mdir, files.HANDOFF)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.utime(path, (NOW + 100, NOW + 100))


def _open(mdir: str) -> list[str]:
    return [i["text"] for i in handoff.open_items(handoff.load(mdir)[0])]


def _next_write(mdir: str) -> None:
    handoff_answer.apply_answer(mdir, [], [], LATER, NOW + 200, NOW + 200)


def test_a_line_typed_without_a_dash_opens_an_item_and_is_rendered_as_one(tmp_path):
    mdir = _setup(tmp_path)
    _hand_write(mdir, _md(mdir) + "Ask Dana about the staging key rotation\n")
    assert _open(mdir) == ["Migrate the payments table", "Write the runbook", "Ask Dana about the staging key rotation"]
    _next_write(mdir)
    text = _md(mdir)
    typed = "Ask Dana about the staging key rotation"
    assert f"- [{ids.handoff_id(typed)}] {typed}" in text
    with open(os.path.join(mdir, handoff.STATE), encoding="utf-8") as fh:
        opened_by_hand = [r["text"] for r in map(json.loads, fh) if r["session_id"] == handoff_markdown.HAND_EDIT]
    assert opened_by_hand == ["Ask Dana about the staging key rotation"]  # recorded once, nothing closed
    _next_write(mdir)
    assert _open(mdir).count("Ask Dana about the staging key rotation") == 1


def test_two_typed_lines_are_two_items_and_an_indented_line_continues_one(tmp_path):
    mdir = _setup(tmp_path)
    _hand_write(mdir, _md(mdir) + "\ncheck the nightly build\nrename the flag\n  before the 2.0 release\n")
    assert _open(mdir)[2:] == ["check the nightly build", "rename the flag before the 2.0 release"]


def test_headings_lead_ins_and_lines_a_render_wrote_open_nothing(tmp_path):
    mdir = _setup(tmp_path)
    text = _md(mdir)
    first = ids.handoff_id("Migrate the payments table")
    # the first item's line deleted, its note left behind: that item closes, the note opens nothing
    text = text.replace(f"- [{first}] Migrate the payments table\n", "")
    text += ("\n## Later\nPending for next session:\n```python\n"
             "Written 2025-10-09T08:53:20+00:00 at the end of session old-sess.\n")
    _hand_write(mdir, text)
    assert _open(mdir) == ["Write the runbook"]
    _next_write(mdir)
    assert _open(mdir) == ["Write the runbook"]


def test_a_render_reads_back_as_no_edit_with_any_count_of_items(tmp_path):
    """The line counting the items is ours in each of its forms (none, one, several), not an item."""
    mdir = str(tmp_path / "memory")
    os.makedirs(mdir)
    for opened, closed in ((["only one"], []), (["two", "three"], []), ([], ["only one", "two", "three"])):
        handoff_answer.apply_answer(mdir, opened, closed, META, NOW, NOW)
        assert not handoff_markdown.edited(*handoff_markdown.parse_markdown(_md(mdir)))
        assert handoff_markdown.markdown_records(handoff.load(mdir)[0], _md(mdir), NOW, True, memory_dir=mdir) == []
