"""A folder in the index's place (or a file SQLite cannot open: no permission for this user): not damage
(nothing to rebuild over), but no traceback either. The commands say so on one line naming the path,
exit 1; the prompt hook exits 0 and logs one line naming it; the worker's index task fails naming it."""

import os
import subprocess
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.queue import index_task
from lazy_harness.recall.index import writer
from tests.cli.lhrun import lh_script
from tests.hooks.hookrun import hook_log, run_hook
from tests.support import memory_samples as ms

NOW = time.time()
PROMPT = "the deploy scheduler ran twice last night, can we lock it in postgres"


@pytest.fixture
def folder_there(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - 9 * ms.DAY, "Use Postgres advisory locks for the deployment scheduler", "two runners",
                    session_id="s-old")])
    path = paths.recall_index_file()
    assert writer.update(path, [mem], None)[0] == 1
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.unlink(path + suffix)
    os.mkdir(path)
    return root, mem, path


@pytest.mark.parametrize("args", [("memory", "search", "deploy", "scheduler"), ("memory", "show", "--prompt", PROMPT),
                                  ("memory", "reindex")])
def test_a_command_says_it_on_one_line_naming_the_path(folder_there, args):
    root, _, path = folder_there
    r = subprocess.run([*lh_script(), *args], cwd=root, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
    assert r.stderr.startswith("lh: ") and path in r.stderr and "hint: " in r.stderr, r.stderr


def test_the_prompt_hook_exits_0_and_logs_one_line_naming_the_path(folder_there):
    root, _, path = folder_there
    r = run_hook("UserPromptSubmit", {"session_id": "s-1", "cwd": root, "hook_event_name": "UserPromptSubmit",
                                      "prompt": PROMPT})
    assert r.returncode == 0 and r.stdout == b"" and r.stderr == b"", r
    last = hook_log(paths.claude_dir())[-1]
    assert path in last, last


def test_the_worker_names_the_path_when_the_index_task_fails(folder_there):
    from lazy_harness.worker import loop

    _, mem, path = folder_there
    index_task.ask(paths.queue_dir(), mem)
    loop.run(os.environ)
    with open(os.path.join(paths.claude_dir(), "logs", "worker.log"), encoding="utf-8") as fh:
        failed = [ln for ln in fh.read().splitlines() if "index task failed" in ln]
    assert failed and path in failed[-1], failed


def test_doctor_names_a_folder_in_the_index_place_without_calling_it_damaged(folder_there):
    from tests.cli.lhrun import invoke

    _, _, path = folder_there
    found = [ln for ln in invoke("doctor").out.splitlines() if "recall index:" in ln]
    assert len(found) == 1 and found[0].startswith("warn") and path in found[0], found
    assert "damaged" not in found[0] and "a folder" in found[0], found


def test_doctor_and_the_reindex_progress_do_not_wait_on_a_fifo_in_the_index_place(tmp_path):
    from tests.cli.lhrun import invoke
    from tests.support.fifo_wait import HUNG, call_beside

    path = paths.recall_index_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.mkfifo(path)
    assert call_beside([path], writer.indexed_so_far, path) == 0
    out = call_beside([path], invoke, "doctor")
    assert out is not HUNG
    found = [ln for ln in out.out.splitlines() if "recall index:" in ln]
    assert len(found) == 1 and found[0].startswith("warn") and path in found[0], found


def test_the_writer_does_not_wait_on_a_fifo_in_the_index_place_and_builds_it_again(tmp_path):
    """The writer's making of the file (an open for writing, so SQLite does not make it 0644) waited for a
    reader of the FIFO for good, holding the index's lock: reindex, search and the worker hung."""
    from tests.recall.index.test_writer import rows
    from tests.support.fifo_wait import HUNG, call_beside

    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW, "Keep the stylesheet in one file")])
    path = paths.recall_index_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.mkfifo(path)
    got = call_beside([path], writer.update, path, [mem], None, fresh=True)
    assert got is not HUNG
    assert got[0] == 1 and rows(path)[0] == 1  # the FIFO taken for a damaged index: removed, built again


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
def test_a_folder_in_place_of_the_index_wal_or_shm_is_named_on_one_line(folder_there, suffix):
    """SQLite cannot open the WAL (unable to open) or opens the index read only without its shared
    memory file (attempt to write a readonly database): the writer says which file is in the way."""
    root, mem, path = folder_there
    os.rmdir(path)
    assert writer.update(path, [mem], None)[0] == 1
    for gone in ("-wal", "-shm"):
        if os.path.exists(path + gone):
            os.unlink(path + gone)
    os.mkdir(path + suffix)
    r = subprocess.run([*lh_script(), "memory", "reindex"], cwd=root, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
    assert r.stderr.startswith("lh: ") and f"{path}{suffix}: a folder" in r.stderr, r.stderr


def test_a_full_disk_is_said_as_a_write_that_failed_naming_the_index():
    import sqlite3

    from lazy_harness.recall.index import store

    said = str(store.refused("/c/index.sqlite", sqlite3.OperationalError("database or disk is full")))
    assert said.startswith("the search index cannot be written: /c/index.sqlite: ") and "free some space" in said
    assert store.refused("/c/index.sqlite", sqlite3.OperationalError("no such column: x")) is None
