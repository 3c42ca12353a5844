"""Every temp file a writer makes is named so that a later sweep knows it (``.<target>.<pid>.<random>.tmp``)
and removes it once its writer is dead: the kept transcripts' links, the storage probe, and the rewrite
of Claude Code's MEMORY.md that the migration makes. Each writer is killed in a child process at the step
after its temp exists."""

import os
import subprocess
import sys

from lazy_harness.atomic import sweep_stale_temps
from lazy_harness.memory import migrate
from lazy_harness.queue import consume, retain

KILL_AT = """
import os, sys
mod, attr = sys.argv[1].rsplit(".", 1)
import importlib
target = importlib.import_module(mod)
setattr(target.os if hasattr(target, "os") else target, attr, lambda *a, **k: os._exit(9))
exec(sys.argv[2])
"""


def killed(patch: str, code: str) -> None:
    """Run ``code`` in a child whose ``patch`` (``module.os_function``) ends the process at once."""
    r = subprocess.run([sys.executable, "-c", KILL_AT, patch, code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 9, (r.stdout, r.stderr)


def temps(folder: str) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(".tmp"))


def test_a_kept_transcripts_temp_left_by_a_killed_hook_goes_at_the_next_recovery(tmp_path):
    q, transcript = str(tmp_path / "queue"), tmp_path / "s1.jsonl"
    transcript.write_text('{"type": "user"}\n')
    killed("lazy_harness.queue.retain.replace",
           f"from lazy_harness.queue import retain; retain.hold({q!r}, 's1', {str(transcript)!r})")
    kept = os.path.dirname(retain.kept_path(q, "s1"))
    assert temps(kept), "the kill left no temp: the test no longer kills the writer after its temp exists"
    consume.recover(q)
    assert temps(kept) == []
    assert retain.hold(q, "s1", str(transcript)) == retain.kept_path(q, "s1")  # and the next hold works


def test_a_storage_probe_killed_mid_write_leaves_a_temp_the_sweep_removes(tmp_path):
    folder = str(tmp_path / "mem")
    os.makedirs(folder)
    killed("lazy_harness.worker.storage.fsync", f"from lazy_harness.worker import storage; storage.probe([{folder!r}])")
    assert temps(folder)
    sweep_stale_temps(folder)
    assert temps(folder) == []


def test_a_memory_md_rewrite_killed_before_its_rename_leaves_a_temp_the_migration_removes(tmp_path):
    folder = tmp_path / "legacy"
    folder.mkdir()
    index = folder / "MEMORY.md"
    index.write_text("- [Notes](notes.md)\n- [Handoff](handoff.md)\n")
    killed("lazy_harness.atomic.replace",
           f"from lazy_harness.memory import migrate; migrate.drop_stale_lines({str(index)!r})")
    assert temps(str(folder))
    migrate._sweep_temps(str(folder))
    assert temps(str(folder)) == []
    assert index.read_text() == "- [Notes](notes.md)\n- [Handoff](handoff.md)\n"  # Claude Code's file untouched
