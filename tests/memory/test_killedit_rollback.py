"""A persist SIGKILLed part-way (tests/support/crashpoint.py), then a memory file saved by hand before the
next writer rolls it back: the rollback keeps the person's edit and leaves nothing of the killed persist,
and the task's re-run (a second model call: other words) writes the session once.
"""

import json
import os
import sys

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, handoff, intent, store
from tests.memory.test_store import META, NOW, answer
from tests.support import crashpoint

META_A = dict(META, session_id="sess-A", task_id="1760000000000000000-aaaa")
META_B = dict(META, session_id="sess-B", task_id="1760000000000000001-bbbb")

PERSIST_B = """
import sys

import pytest
from lazy_harness.memory import store
from tests.memory.test_store import META, NOW, answer
from tests.support import crashpoint
meta = dict(META, session_id="sess-B", task_id="1760000000000000001-bbbb")
crashpoint.arm(int(sys.argv[3]))
store.persist(answer(" B", handoff=("Follow up on B",)), sys.argv[1], sys.argv[2], meta, NOW + 60)
crashpoint.finished()
"""


def _unfinished() -> bool:
    folder = paths.persist_intents_dir()
    return os.path.isdir(folder) and any(n.endswith(".jsonl") for n in os.listdir(folder))


def _killed_when(tmp_path, ready) -> tuple[str, str]:
    """A project holding session A, with session B's persist killed at the first step where ``ready(mdir,
    ldir)`` holds and the persist is unfinished: (memory folder, learnings folder)."""
    ldir = paths.learnings_dir()
    for k in range(1, 200):
        project = tmp_path / f"p{k}"
        project.mkdir()
        mdir = paths.memory_dir(str(project))
        store.persist(answer(" A", handoff=("Follow up on A",)), mdir, ldir, META_A, NOW)
        said = crashpoint.run_to([sys.executable, "-c", PERSIST_B, mdir, ldir, str(k)])
        assert said != "finished", "never killed where the test needs it"
        if _unfinished() and ready(mdir, ldir):
            return mdir, ldir
        intent.recover_all()
    raise AssertionError("never killed where the test needs it")


def _save_as_editors_do(path: str, text: str) -> None:
    """Write a temp file beside ``path`` and rename it over ``path`` (a new inode)."""
    tmp = path + ".swp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.rename(tmp, path)


def _summaries(path: str) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line)["summary"] for line in fh if line.strip()]


def test_a_decisions_file_saved_by_hand_after_the_kill_loses_the_killed_persists_lines(tmp_path):
    def ready(mdir, _):
        path = os.path.join(mdir, files.DECISIONS)
        return os.path.exists(path) and "Spawn the worker detached B" in open(path, encoding="utf-8").read()

    mdir, ldir = _killed_when(tmp_path, ready)
    path = os.path.join(mdir, files.DECISIONS)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    _save_as_editors_do(path, text.replace("Use a Maildir queue A", "Use a Maildir spool A"))
    said = intent.recover_all()
    assert len(said) == 1, said
    assert _summaries(path) == ["Use a Maildir spool A", "Spawn the worker detached A"]
    assert _summaries(os.path.join(mdir, files.FAILURES)) == ["Worker ran twice A"]
    assert not _unfinished()
    store.persist(answer(" B2", handoff=("Follow up on B",)), mdir, ldir, META_B, NOW + 120)
    assert _summaries(path) == ["Use a Maildir spool A", "Spawn the worker detached A", "Use a Maildir queue B2",
                                "Spawn the worker detached B2"]


def test_an_item_of_the_killed_persist_in_a_handoff_md_edited_after_the_kill_is_not_taken_as_the_persons(tmp_path):
    md = lambda mdir: os.path.join(mdir, files.HANDOFF)  # noqa: E731

    def ready(mdir, _):
        return os.path.exists(md(mdir)) and "Follow up on B" in open(md(mdir), encoding="utf-8").read()

    mdir, ldir = _killed_when(tmp_path, ready)
    with open(md(mdir), encoding="utf-8") as fh:
        text = fh.read()
    _save_as_editors_do(md(mdir), text + "- check the logs by hand\n")
    intent.recover_all()
    with open(md(mdir), encoding="utf-8") as fh:
        kept = fh.read()
    assert "- check the logs by hand" in kept and "Follow up on A" in kept
    assert "Follow up on B" not in kept
    store.persist(answer(" B2", handoff=("Follow up on B",)), mdir, ldir, META_B, NOW + 120)
    state, _ = handoff.load(mdir)
    opened = sorted((i["text"], i["opened_by"]) for i in handoff.open_items(state))
    assert opened == [("Follow up on A", "sess-A"), ("Follow up on B", "sess-B"),
                      ("check the logs by hand", "hand-edit")]


def test_a_learning_of_the_killed_persist_edited_after_the_kill_is_kept_and_named(tmp_path):
    def created(ldir):
        return [os.path.join(dp, n) for dp, _, names in os.walk(ldir) for n in names
                if n.endswith(".md") and "rename-is-the-enqueue-b" in n]

    def ready(_, ldir):
        return bool(created(ldir))

    mdir, ldir = _killed_when(tmp_path, ready)
    (path,) = created(ldir)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    _save_as_editors_do(path, text + "\nChecked by hand: holds on NFS too.\n")
    said = intent.recover_all()
    assert os.path.exists(path)
    assert any(path in line and "edited" in line for line in said), said
    assert not _unfinished()


def test_a_rollback_takes_our_lines_out_of_a_file_shortened_in_place_since(tmp_path):
    """An editor that saves in place (same inode) after deleting an earlier line: the file is now no longer
    than before the persist, and our appended lines still stand in it."""
    mdir = str(tmp_path / "m")
    os.makedirs(mdir)
    path = os.path.join(mdir, files.DECISIONS)
    old = ['{"summary": "one, a long line of the person"}', '{"summary": "two"}']
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("".join(line + "\n" for line in old))
    ours = ['{"summary": "ours"}']
    log = intent.begin(mdir, "t", "s", {path: intent.appended_bytes(path, ours)}, False)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(ours[0] + "\n")
    with open(path, "r+", encoding="utf-8") as fh:  # the person deletes the first line, in place
        fh.write(old[1] + "\n" + ours[0] + "\n")
        fh.truncate()
    assert log.rollback() == []
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == old[1] + "\n"


@pytest.mark.parametrize("new", ["Use a Maildir q A", "Use a Maildir queue A, longer", "Use a Maildir queue A!"])
def test_a_save_in_place_shorter_or_longer_than_our_lines_loses_only_them(tmp_path, new):
    # why: a save in place (nano) that shortens the file by less than the persist appended passed as
    # "not moved": the start of the killed run's first line was glued to the rest and kept
    from lazy_harness.memory import intent

    def ready(mdir, _):
        path = os.path.join(mdir, files.DECISIONS)
        return os.path.exists(path) and "Spawn the worker detached B" in open(path, encoding="utf-8").read()

    mdir, _ = _killed_when(tmp_path, ready)
    path = os.path.join(mdir, files.DECISIONS)
    ino = os.stat(path).st_ino
    with open(path, "r+", encoding="utf-8") as fh:
        text = fh.read()
        fh.seek(0)
        fh.write(text.replace("Use a Maildir queue A", new))
        fh.truncate()
    assert os.stat(path).st_ino == ino
    intent.recover_all()
    assert _summaries(path) == [new, "Spawn the worker detached A"]
    assert not _unfinished()
