"""The index builder (recall/build.py): heavy work outside the hooks, in parts a kill cannot undo."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.recall import build, index, static_model, vectors
from tests.hooks.hookrun import hook_log, run_hook
from tests.support import memory_samples as ms

NOW = time.time()


def big_memory(tmp_path, n: int) -> tuple[str, str]:
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS),
                   [ms.decision(NOW - n + i, f"decision {i} about the release train and its queue", "why " * 30,
                                cues=[f"how does step {i} of the release work"]) for i in range(n)])
    return root, mem


def indexed_rows(path: str) -> int:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        try:
            return conn.execute("SELECT count(*) FROM entry").fetchone()[0]
        except sqlite3.OperationalError:
            return 0


def gone(pid: int, timeout: float = 120.0) -> None:
    """Wait until the detached builder ``pid`` has exited (the timeout only keeps a bug from hanging)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)
    raise AssertionError(f"builder {pid} still running after {timeout} s")


def test_a_build_killed_midway_keeps_its_parts_and_the_next_run_goes_on(tmp_path):
    root, mem = big_memory(tmp_path, 4500)  # three parts of index.PART lines
    path = paths.recall_index_file()
    proc = subprocess.Popen([sys.executable, "-m", "lazy_harness.recall.build", mem], env=dict(os.environ),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    # why: waited on the event itself, a part committed (rows in the file), then killed at once
    while not (os.path.exists(path) and indexed_rows(path) > 0):
        assert proc.poll() is None and time.monotonic() < deadline, "the builder ended before its first part"
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    kept = indexed_rows(path)
    assert kept > 0  # what was committed stays
    got = build.build(path, [mem], None)
    assert got is not None
    conn = index.connect(path)
    try:
        ids_ = [r[0] for r in conn.execute("SELECT id FROM entry WHERE kind='decision'")]
        have, total = vectors.counts(conn, static_model.MODEL_ID)
    finally:
        conn.close()
    assert len(ids_) == 4500 and len(set(ids_)) == 4500  # every line once: none lost, none twice
    assert got[0] == 4500 - kept or kept == 4500  # the second run read only what was left
    assert have == total and total > 0


def test_the_prompt_hook_leaves_a_large_first_build_to_the_builder(tmp_path):
    root, mem = big_memory(tmp_path, 3000)
    # why: one entry the last prompt is about; the 3,000 alike are a crowd none of which stands out
    # (ADR 0041), so they answer no prompt
    with open(os.path.join(mem, files.DECISIONS), "a", encoding="utf-8") as fh:
        fh.write(json.dumps(ms.decision(NOW, "Deploy freezes are announced in the ops channel a day ahead",
                                        "people plan around them", cues=["when is the deploy freeze announced"]))
                 + "\n")
    assert os.path.getsize(os.path.join(mem, files.DECISIONS)) > build.HOOK_BYTES
    r = run_hook("UserPromptSubmit", {"session_id": "s-1", "cwd": root, "hook_event_name": "UserPromptSubmit",
                                      "prompt": "how does the release train queue work"})
    assert r.returncode == 0
    last = hook_log(paths.claude_dir())[-1]
    assert "indexed=" not in last and " builder=" in last, last  # the hook read none of it
    gone(int(last.split(" builder=")[1].split()[0]))
    conn = index.connect(paths.recall_index_file())
    try:
        assert conn.execute("SELECT count(*) FROM entry").fetchone()[0] == 3001  # the builder did
    finally:
        conn.close()
    out = run_hook("UserPromptSubmit", {"session_id": "s-2", "cwd": root, "hook_event_name": "UserPromptSubmit",
                                        "prompt": "when is the deploy freeze announced to the team"})
    assert "Deploy freezes are announced" in json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]


def test_one_builder_at_a_time(tmp_path):
    root, mem = big_memory(tmp_path, 10)
    lock = build.lock_file(paths.recall_index_file())
    os.makedirs(os.path.dirname(lock), exist_ok=True)
    import fcntl

    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert build.running(os.environ)
        assert build.build(paths.recall_index_file(), [mem], None) is None  # another holds it: leaves
        assert build.start(os.environ, mem, None) is None  # and none is started
    finally:
        os.close(fd)
    assert not build.running(os.environ)
