"""A writer killed before its rename leaves its temp file (``.<name>.<pid>.<random>.tmp``) in the folder
it wrote in. Every folder of ours that a writer writes whole files in is swept by the next worker run:
a temp whose writer is dead goes, one whose writer still runs stays; a link is never followed."""

import os
import sys

from lazy_harness import hotload, paths, settings_write
from lazy_harness.memory import approval_key
from lazy_harness.queue import index_task
from tests.support.crashpoint import run_to
from tests.worker.spendrig import configure, run_worker

# why a real writer killed before its rename: the temp is named and placed as atomic_write names it
ATOMIC_WRITER = """
import sys
from tests.support import crashpoint
from lazy_harness.atomic import atomic_write
crashpoint.arm(3)  # write, fsync, then the replace it never makes
atomic_write(sys.argv[1], "half of a record\\n")
crashpoint.finished()
"""
BUNDLE_WRITER = """
from tests.support import crashpoint
from lazy_harness import hotload
crashpoint.arm(2)  # write, then the replace it never makes
hotload.build()
crashpoint.finished()
"""
STATE_WRITER = """
import time
from tests.support import crashpoint
from lazy_harness.worker import drain, loop
crashpoint.arm(3)
loop._save_state(None, time.time(), drain.Stats())
crashpoint.finished()
"""


def _temps(folder: str) -> list[str]:
    try:
        return sorted(n for n in os.listdir(folder) if n.endswith(".tmp"))
    except FileNotFoundError:
        return []


def _killed_writing(target: str) -> str:
    """The temp that a writer of ``target``, killed before its rename, left beside it."""
    os.makedirs(os.path.dirname(target), exist_ok=True)
    before = set(_temps(os.path.dirname(target)))
    said = run_to([sys.executable, "-c", ATOMIC_WRITER, target])
    assert said == "stopped 3 replace", said
    [left] = set(_temps(os.path.dirname(target))) - before
    return os.path.join(os.path.dirname(target), left)


def _live_writers_temp(target: str) -> str:
    """A temp named as this process (alive) names one while it writes ``target``."""
    path = os.path.join(os.path.dirname(target), f".{os.path.basename(target)}.{os.getpid()}.0a1b2c3d.tmp")
    with open(path, "w") as fh:
        fh.write("being written")
    return path


def _targets() -> dict[str, str]:
    """A file of ours that some writer writes whole, one per folder that no other sweep covered."""
    q, data = paths.queue_dir(), paths.data_dir()
    return {
        "the queue's pending tasks (a waiting task's ask handed over)": os.path.join(q, "1760000000000000000-1.task"),
        "the queue's index tasks": os.path.join(index_task.folder(q), "1760000000000000000-1.task"),
        "the last memory key of each project": paths.last_key_file("/src/proj"),
        "the recall cache (static model stamps, resident pid)": os.path.join(paths.recall_dir(), "static-model.stamp"),
        "the data folder (sync stamps)": os.path.join(data, ".sync-push"),
        "the sync repository's git folder": os.path.join(data, ".git", "lh-setup"),
        "the settings backups": settings_write.made_folder_file("/src/proj/.claude/settings.json"),
        "the approval key's folder": approval_key.key_file(),
        "a memory folder itself": os.path.join(paths.memory_root(), "proj", "handoff.md"),
    }


def test_the_next_worker_sweeps_a_dead_writers_temp_in_every_folder_we_write_and_keeps_a_live_ones(isolated_home):
    configure(isolated_home)
    dead, alive = {}, {}
    for what, target in _targets().items():
        dead[what] = _killed_writing(target)
        alive[what] = _live_writers_temp(target)
    os.makedirs(os.path.dirname(hotload.bundle_file()), exist_ok=True)
    said = run_to([sys.executable, "-c", BUNDLE_WRITER])
    assert said.endswith(" replace"), said
    [bundle_temp] = _temps(os.path.dirname(hotload.bundle_file()))
    dead["the hooks' bundle folder"] = os.path.join(os.path.dirname(hotload.bundle_file()), bundle_temp)
    alive["the hooks' bundle folder"] = _live_writers_temp(hotload.bundle_file())

    run_worker()

    assert {what: path for what, path in dead.items() if os.path.lexists(path)} == {}
    assert {what: path for what, path in alive.items() if not os.path.exists(path)} == {}


def test_a_worker_killed_writing_its_state_leaves_a_temp_the_next_worker_removes(isolated_home):
    """The fault review's case: worker.json (in queue/state) written when the kill came."""
    configure(isolated_home)
    folder = os.path.dirname(paths.worker_state_file())
    os.makedirs(folder, exist_ok=True)
    said = run_to([sys.executable, "-c", STATE_WRITER])
    assert said == "stopped 3 replace", said
    [left] = _temps(folder)
    assert left.startswith(".worker.json.")
    run_worker()
    assert _temps(folder) == []


def test_a_linked_folder_among_ours_is_not_followed(isolated_home, tmp_path):
    """A link put in our data folder or memory root leads to a folder of the person's (a project's):
    the sweep never enters it, while it sweeps the folder the link is in."""
    configure(isolated_home)
    theirs, journal = tmp_path / "their-project", tmp_path / "their-project" / "journal"
    journal.mkdir(parents=True)
    left = [_killed_writing(str(theirs / "notes.json")), _killed_writing(str(journal / "run.json"))]
    os.makedirs(paths.memory_root(), exist_ok=True)
    os.symlink(theirs, os.path.join(paths.data_dir(), "linked"))
    os.symlink(theirs, os.path.join(paths.memory_root(), "linked-project"))
    beside = _killed_writing(os.path.join(paths.data_dir(), "state.json"))

    run_worker()

    assert [p for p in left if not os.path.exists(p)] == []  # theirs, behind a link
    assert not os.path.exists(beside)  # ours, in the data folder itself
