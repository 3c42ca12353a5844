"""A persist SIGKILLed after it created a session's learning and before its commit, the learning then fixed
by hand (its text, or its title), then the task run again with the same answer: the person's file is the
learning (kept by the rollback, tests/memory/test_killedit_rollback.py), no second copy of it appears, and
the session's decisions are in memory once. Guards the re-run, which no other test covered after a kill."""

import glob
import json
import os

import pytest

from lazy_harness.memory import files, intent, store
from tests.memory.test_killedit_rollback import META_B, _killed_when, _save_as_editors_do
from tests.memory.test_store import NOW, answer

TITLE = "title: Rename is the enqueue B"


@pytest.mark.parametrize("edit", [("## Learning\n\n", "## Learning\n\nChecked by hand: holds on NFS too.\n"),
                                  (TITLE, "title: Renaming is the enqueue B (fixed)")])
def test_a_learning_fixed_by_hand_after_the_kill_stays_the_one_copy_when_the_task_runs_again(tmp_path, edit):
    def mine(ldir):
        return [p for p in glob.glob(os.path.join(ldir, "*", "*.md")) if "-b" in os.path.basename(p)[11:]]

    mdir, ldir = _killed_when(tmp_path, lambda _, ldir: bool(mine(ldir)))
    (path,) = mine(ldir)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    assert TITLE in text
    fixed = text.replace(*edit)
    _save_as_editors_do(path, fixed)
    intent.recover_all()
    report = store.persist(answer(" B", handoff=("Follow up on B",)), mdir, ldir, META_B, NOW + 120)
    assert report.created == [] and report.existing == [path]
    assert mine(ldir) == [path]
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == fixed
    with open(os.path.join(mdir, files.DECISIONS), encoding="utf-8") as fh:
        summaries = [json.loads(line)["summary"] for line in fh if line.strip()]
    assert sorted(summaries) == sorted(["Use a Maildir queue A", "Spawn the worker detached A",
                                        "Use a Maildir queue B", "Spawn the worker detached B"])
