"""A person editing memory by hand (review r4, defects 2 to 7): what every reader and command makes of it."""

import os
import shutil
from pathlib import Path

import pytest

from lazy_harness import paths
from lazy_harness.errors import LhError
from lazy_harness.memory import files, handoff, handoff_answer, handoff_markdown, ids
from lazy_harness.recall.readback import learnings as heads
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.worker.test_consolidate import _learning, _write_entries

NOW = 1_760_000_000.0
A = {"project": "proj", "session_id": "sess-a", "task_id": "t-a"}
B = {"project": "proj", "session_id": "sess-b", "task_id": "t-b"}


@pytest.fixture
def mdir(tmp_path) -> str:
    folder = str(tmp_path / "memory")
    os.makedirs(folder)
    return folder


def _project(tmp_path: Path) -> tuple[Path, str]:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".git").mkdir()
    return proj, paths.memory_dir(str(proj))


def _own_learning(proj: Path, title: str) -> tuple[Path, str]:
    """A learning of ``proj`` as the store writes it (its key recorded), so SessionStart shows it there."""
    path = ms.write_learning(paths.learnings_dir(), title, "proj", NOW - 3600, learning=f"{title} body.",
                             scope="project", project_folder=paths.project_key(str(proj)))
    return Path(path), ids.learning_id("proj", title)


def answer(mdir: str, opened=(), closed=(), meta=A, when=NOW):
    return handoff_answer.apply_answer(mdir, list(opened), list(closed), meta, when, when)


def open_items(mdir: str) -> list[tuple[str, str]]:
    return [(i["id"], i["text"]) for i in handoff.open_items(handoff.load(mdir)[0])]


def md_path(mdir: str) -> str:
    return os.path.join(mdir, files.HANDOFF)


def hand_write(mdir: str, text: str, mtime: float) -> None:
    with open(md_path(mdir), "w", encoding="utf-8") as fh:
        fh.write(text)
    os.utime(md_path(mdir), (mtime, mtime))


# --- 2: a learning whose frontmatter does not close ---------------------------------------------------

def test_a_learning_whose_frontmatter_does_not_close_has_one_id_in_session_start_show_search_and_forget(tmp_path):
    proj, _ = _project(tmp_path)
    path, lid = _own_learning(proj, "Secret build trick")
    path.write_text(path.read_text().replace("\n---\n\n## Learning", "\n\n## Learning", 1))
    head = heads.read_head(str(path))
    assert head is not None and heads.learning_id(head) == lid  # what SessionStart shows
    shown = invoke("memory", "show", "--project", str(proj))
    assert shown.code == 0, shown.err
    everything = shown.out.split("==== everything")[1]
    assert f"learning {lid}" in shown.out.split("==== everything")[0] and lid in everything
    found = invoke("memory", "search", "secret", "--project", str(proj))
    assert found.code == 0 and lid in found.out, found.err
    before = path.read_text()
    forget = invoke("memory", "forget", lid, "--project", str(proj))
    assert forget.code == 1 and f"{path}: frontmatter not closed" in forget.err
    assert path.read_text() == before
    check = invoke("memory", "check", "--project", str(proj))
    assert f"{path}: frontmatter not closed" in check.out


def test_a_forgotten_learning_whose_frontmatter_lost_its_closing_line_stays_out_of_session_start(tmp_path):
    path, _ = _learning(tmp_path / "learnings", "Forgotten trick", origin="proj")
    text = path.read_text().replace("status: active", "status: forgotten")
    text = text.replace("\n---\n\n## Learning", "\n\n## Learning")
    path.write_text(text)
    head = heads.read_head(str(path))
    assert head is not None and head["status"] == "forgotten" and "Forgotten trick body." in head["learning"]


# --- 3 and 6: handoff.md's notes, with and without its header comment -----------------------------

def test_handoff_md_without_its_header_comment_keeps_every_item_and_its_text(mdir):
    answer(mdir, ["finish the retry command", "document the queue"])
    before = open_items(mdir)
    text = open(md_path(mdir), encoding="utf-8").read()
    hand_write(mdir, "\n".join(ln for ln in text.split("\n") if not ln.startswith("<!--")), NOW + 100)
    assert open_items(mdir) == before
    answer(mdir, ["next thing"], meta=B, when=NOW + 200)
    assert open_items(mdir)[:2] == before
    assert all(i.get("closed_by") != handoff_markdown.HAND_EDIT for i in handoff.load(mdir)[0].values())


def test_a_detail_line_indented_under_an_item_joins_its_text(mdir):
    answer(mdir, ["write the docs"])
    text = open(md_path(mdir), encoding="utf-8").read()
    at = text.index("\n  opened ")
    at = text.index("\n", at + 1)
    hand_write(mdir, text[:at] + "\n  with examples" + text[at:], NOW + 100)
    assert [t for _, t in open_items(mdir)] == ["write the docs with examples"]
    answer(mdir, ["next"], meta=B, when=NOW + 200)
    assert "with examples" in open(md_path(mdir), encoding="utf-8").read()


# --- 4: a folder in place of decisions.jsonl ---------------------------------------------------------

def test_a_folder_in_place_of_decisions_jsonl_is_refused_naming_it(mdir):
    path = os.path.join(mdir, files.DECISIONS)
    os.mkdir(path)
    with pytest.raises(LhError) as exc:
        files.tail_bytes(path, 5)
    assert path in str(exc.value)


# --- 5: an empty handoff.md (an editor's save in place) ----------------------------------------------

def test_an_empty_handoff_md_closes_nothing(mdir):
    answer(mdir, ["item one", "item two", "item three"])
    before = open_items(mdir)
    saved = open(md_path(mdir), encoding="utf-8").read()
    hand_write(mdir, "", NOW + 100)  # truncated: the editor's write has not landed yet
    assert open_items(mdir) == before
    answer(mdir, ["from a worker"], meta=B, when=NOW + 150)  # a writer in that window
    hand_write(mdir, saved, NOW + 200)
    assert [t for _, t in open_items(mdir)] == ["item one", "item two", "item three", "from a worker"]


def test_a_handoff_md_emptied_to_a_blank_line_still_closes_what_it_listed(mdir):
    answer(mdir, ["item one", "item two"])
    hand_write(mdir, "\n", NOW + 100)
    assert open_items(mdir) == []


# --- 7: a line or a learning duplicated by hand ------------------------------------------------------

def test_a_decision_line_duplicated_by_hand_is_one_entry(tmp_path):
    proj, mdir = _project(tmp_path)
    did = _write_entries(Path(mdir), "decision", ["Use a file queue"])[0]
    path = os.path.join(mdir, files.DECISIONS)
    line = open(path, encoding="utf-8").read()
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line)
    assert len(files.tail_records(path, 10)) == 1
    shown = invoke("memory", "show", "--project", str(proj))
    assert shown.out.split("==== everything")[1].count(did) == 1
    forget = invoke("memory", "forget", did, "--project", str(proj))
    assert forget.code == 0, forget.err
    assert invoke("memory", "forget", did, "--project", str(proj)).out.strip().endswith("already forgotten")


def test_a_learning_copied_by_hand_is_one_learning(tmp_path):
    proj, _ = _project(tmp_path)
    path, lid = _own_learning(proj, "Rename is atomic")
    copy = path.parent / "2025-10-08-copy-of-rename.md"
    shutil.copy(path, copy)
    shown = invoke("memory", "show", "--project", str(proj))
    assert shown.out.split("==== everything")[0].count(f"learning {lid}") == 1
    assert shown.out.split("==== everything")[1].count(lid) == 1
    forget = invoke("memory", "forget", lid, "--project", str(proj))
    assert forget.code == 0, forget.err
    assert "status: forgotten" in path.read_text() and "status: forgotten" in copy.read_text()


def test_two_learnings_with_one_id_and_different_texts_are_still_refused(tmp_path):
    proj, _ = _project(tmp_path)
    path, lid = _learning(Path(paths.learnings_dir()), "Rename is atomic", origin="proj")
    other = path.parent / "2026-10-02-copy-of-rename.md"
    other.write_text(path.read_text().replace("body.", "body, edited."))
    forget = invoke("memory", "forget", lid, "--project", str(proj))
    assert forget.code == 1 and "names 2 entries" in forget.err
    assert ids.one_of("d-1", ["a", "a"], same=str) == "a"
