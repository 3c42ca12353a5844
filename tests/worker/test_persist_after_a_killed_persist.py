"""A persist killed after it created a learning (tests/support/crashpoint.py), then the task's re-run
persisting into the same folder before any worker's start rolled the killed one back (``lh distill``
in the foreground, or a lingering worker whose own rollback failed): the re-run rolls it back first
and says so in its log, naming a learning it kept (edited by hand since), and then writes the
session's entries and learning once. Planned before that rollback, the re-run took the killed
persist's lines and learning for written, and the rollback then took them out: lost."""

import json
import os

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.worker import persist
from tests.memory.test_killedit_rollback import META_B, _killed_when, _save_as_editors_do, _unfinished
from tests.memory.test_store import NOW, answer

RERUN = dict(META_B, task_id="1760000000000000002-bbbb")


def _created(ldir: str) -> list[str]:
    return [os.path.join(dp, n) for dp, _, names in os.walk(ldir) for n in names
            if n.endswith(".md") and "rename-is-the-enqueue-b" in n]


def _rerun(mdir: str, ldir: str) -> list[str]:
    said: list[str] = []
    persist._persist(answer(" B", handoff=("Follow up on B",)), mdir, ldir, RERUN, NOW + 120, None,
                     paths.memory_root(None, None), said.append)
    return said


def _summaries(mdir: str) -> list[str]:
    with open(os.path.join(mdir, files.DECISIONS), encoding="utf-8") as fh:
        return [json.loads(line)["summary"] for line in fh if line.strip()]


def test_a_learning_kept_by_the_rollback_is_named_in_the_reruns_log(tmp_path):
    mdir, ldir = _killed_when(tmp_path, lambda _, ldir: bool(_created(ldir)))
    (path,) = _created(ldir)
    with open(path, encoding="utf-8") as fh:
        _save_as_editors_do(path, fh.read() + "\nChecked by hand: holds on NFS too.\n")

    said = _rerun(mdir, ldir)

    assert [line for line in said if path in line and "kept" in line], said
    assert _created(ldir) == [path] and "Checked by hand" in open(path, encoding="utf-8").read()
    assert not _unfinished()


def test_the_rerun_writes_what_the_killed_persist_held_once(tmp_path):
    mdir, ldir = _killed_when(tmp_path, lambda _, ldir: bool(_created(ldir)))

    _rerun(mdir, ldir)

    assert len(_created(ldir)) == 1
    assert _summaries(mdir).count("Spawn the worker detached B") == 1
    assert _summaries(mdir).count("Use a Maildir queue B") == 1
    assert not _unfinished()
