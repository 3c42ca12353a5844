"""Storage errors in the middle of a persist (ADR 0021), injected where the bytes are written: EIO and
EDQUOT (a real tmpfs gives ENOSPC only: tests/reliability/test_full_disk.py). The persist is rolled
back whole, the task waits instead of failing, nothing is claimed while a probe write fails, and a
persist killed half-way is rolled back when the worker starts."""

import errno
import json
import os
import subprocess
import sys

import pytest

from lazy_harness import notice, paths
from lazy_harness.memory import apply, files, intent, store
from lazy_harness.worker import storage
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session, run_worker, tasks

ANSWER = {"decisions": [{"summary": f"decision {i}", "context": "x"} for i in range(5)],
          "failures": [{"summary": "a failure", "root_cause": "y"}],
          "learnings": [{"title": "a learning", "learning": "z"}],
          "handoff": ["an open item"]}


def _break_after(monkeypatch, lines: int, code: int) -> None:
    """The disk fails after ``lines`` whole lines, in the middle of the next one (half of it written)."""
    from lazy_harness import atomic
    real = atomic.append_line
    count = [0]

    def append_line(path, line, mode=atomic.FILE_MODE):
        count[0] += 1
        if count[0] > lines:
            with open(path, "ab") as fh:
                fh.write(line[: len(line) // 2].encode())
            raise OSError(code, os.strerror(code), path)
        return real(path, line, mode)
    monkeypatch.setattr(apply, "append_line", append_line)


@pytest.mark.parametrize("code", [errno.EIO, errno.EDQUOT, errno.ENOSPC])
def test_a_storage_error_mid_persist_rolls_it_back_and_the_task_waits(isolated_home, tmp_path, monkeypatch, code):
    fake = fake_claude.use(tmp_path, monkeypatch, answer=ANSWER)
    configure(isolated_home, max_attempts=3)
    proj = tmp_path / "p"
    proj.mkdir()
    payload = queue_session(proj)
    mdir = paths.memory_dir(str(proj))
    _break_after(monkeypatch, 3, code)
    stats = run_worker()
    assert (stats.processed, stats.failed, stats.waiting) == (0, 0, 1)
    assert tasks("failed") == [] and tasks("done") == []
    [waiting] = tasks("")
    verb = "on" if code == errno.EIO else "writing"  # a failing disk fails reads too: EIO names no side
    assert f"({errno.errorcode[code]}) {verb} {os.path.join(mdir, files.DECISIONS)}" in waiting["wait_reason"]
    assert "not_before" not in waiting  # held by the probe, not by a time
    assert not os.path.exists(os.path.join(mdir, files.DECISIONS))  # created by the persist: gone again
    for name in (files.FAILURES, files.HANDOFF, files.HANDOFF_STATE):
        assert not os.path.exists(os.path.join(mdir, name))
    assert os.listdir(paths.persist_intents_dir()) == []
    assert notice.storage_waiting()

    from lazy_harness import atomic
    monkeypatch.setattr(apply, "append_line", atomic.append_line)  # writing works again
    stats = run_worker()
    assert stats.processed == 1 and not notice.storage_waiting()
    with open(os.path.join(mdir, files.DECISIONS), "rb") as fh:
        assert [json.loads(line)["summary"] for line in fh] == [f"decision {i}" for i in range(5)]
    assert len(fake_claude.calls(fake)) == 2
    assert tasks("done")[0]["session_id"] == payload["session_id"]


def test_no_task_is_claimed_while_the_probe_write_fails(isolated_home, tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch, answer=ANSWER)
    configure(isolated_home)
    proj = tmp_path / "p"
    proj.mkdir()
    queue_session(proj)
    notice.storage_paused("lazy-harness: memory writing is paused: no space left on the device (ENOSPC)")
    monkeypatch.setattr(storage, "probe", lambda dirs: "no space left on the device (ENOSPC)")
    stats = run_worker()
    assert stats.finished == 0 and stats.storage and fake_claude.calls(fake) == []
    assert len(tasks("")) == 1
    monkeypatch.setattr(storage, "probe", lambda dirs: None)
    assert run_worker().processed == 1


def test_storage_cause_reads_the_error_through_its_chain():
    try:
        try:
            raise OSError(errno.EIO, "Input/output error", "/data/x.jsonl")
        except OSError as exc:
            raise RuntimeError("while persisting") from exc
    except RuntimeError as exc:
        assert storage.cause(exc) == "an I/O error (EIO) on /data/x.jsonl"
    full = OSError(errno.ENOSPC, "No space left on device", "/data/x.jsonl")
    assert storage.cause(full) == "no space left on the device (ENOSPC) writing /data/x.jsonl"
    assert storage.cause(OSError(errno.EACCES, "denied")) is None
    assert storage.cause(ValueError("x")) is None


KILLED = r"""
import os, signal, sys
from lazy_harness.memory import apply, store
from lazy_harness import atomic
real, n = atomic.append_line, [0]
def append_line(path, line, mode=0o600):
    n[0] += 1
    if n[0] == 3:
        with open(path, "ab") as fh:
            fh.write(line[:40].encode())
        os.kill(os.getpid(), signal.SIGKILL)
    real(path, line, mode)
apply.append_line = append_line
answer = {"decisions": [{"summary": f"decision {i}"} for i in range(5)], "handoff": ["open item"]}
store.persist(answer, sys.argv[1], sys.argv[2], {"project": "p", "session_id": "s"}, 1_700_000_000)
"""


def test_a_persist_killed_half_way_is_rolled_back_at_the_next_start(isolated_home, tmp_path):
    mdir = paths.memory_dir(str(tmp_path / "p"))
    store.persist({"decisions": [{"summary": "older"}]}, mdir, paths.learnings_dir(), {"project": "p"}, 1.0)
    with open(os.path.join(mdir, files.DECISIONS), "rb") as fh:
        before = fh.read()
    done = subprocess.run([sys.executable, "-c", KILLED, mdir, paths.learnings_dir()], capture_output=True, check=False)
    assert done.returncode == -9
    with open(os.path.join(mdir, files.DECISIONS), "rb") as fh:
        assert len(fh.read()) > len(before)  # two whole lines and a torn one
    assert intent.recover_all() == [f"{mdir}: rolled back an unfinished persist"]
    with open(os.path.join(mdir, files.DECISIONS), "rb") as fh:
        assert fh.read() == before
    assert os.listdir(paths.persist_intents_dir()) == []


def test_a_rollback_keeps_lines_appended_after_ours(isolated_home, tmp_path):
    """Only a writer that skipped the recovery could append after a left-over persist; even then its
    line stays and only ours (whole, and the torn end) go."""
    path = str(tmp_path / "m" / "decisions.jsonl")
    os.makedirs(os.path.dirname(path))
    with open(path, "wb") as fh:
        fh.write(b'{"a": 1}\n')
    log = intent.begin(os.path.dirname(path), "t", "s", {path: b'{"ours": 1}\n{"ours": 2}\n'}, False)
    with open(path, "ab") as fh:
        fh.write(b'{"ours": 1}\n{"theirs": 1}\n{"our')
    assert log.rollback() == []
    with open(path, "rb") as fh:
        assert fh.read() == b'{"a": 1}\n{"theirs": 1}\n'

