"""Memory written while a sync round merges: every line appended while the round works out the merge or
writes the merged files into the data folder is on both machines afterwards, exactly once. The round
writes each merged file holding the locks its writers take, so a writer waits, then appends to the
file now at the path; a line appended before the round took them is kept after the merged lines."""

import fcntl
import json
import os
import subprocess
import sys
import threading
import types

import pytest

from lazy_harness import atomic
from lazy_harness.sync import merge, repo, write_merged
from tests.support import pausing
from tests.test_sync import KEY, Machine, _git

WRITER = r'''
import json, sys, time
from lazy_harness.atomic import append_line
path, n, start = sys.argv[1], int(sys.argv[2]), sys.argv[3]
open(start, "w").close()
for k in range(n):
    rec = {"id": "d-%08x" % (0x20000000 + k), "type": "decision", "summary": "worker line %d" % k}
    append_line(path, json.dumps(rec))
    time.sleep(0.01)  # why: the pace of a busy worker, spread over several rounds; nothing waits on it
'''


@pytest.fixture
def two(tmp_path):
    """Machines a and b share a project; b has new decisions a has not merged yet."""
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    a.add("decision", "seed from a")
    a.sync()
    b.sync()
    for n in range(3):
        b.add("decision", f"from b {n}")
    b.sync()
    return a, b


def summaries(m: Machine) -> list[str]:
    path = m.mdir / "decisions.jsonl"
    return [json.loads(ln)["summary"] for ln in path.read_text().splitlines() if ln.strip()]


def line(summary: str, k: int) -> str:
    return json.dumps({"id": "d-%08x" % (0x30000000 + k), "type": "decision", "summary": summary})


def watch_append_line(monkeypatch, waits: threading.Event, path: str) -> pausing.Watch:
    """``seen`` set when the thread "writer" is about to wait for the ``flock`` append_line takes on
    ``path`` (held by another). why a stand-in module: the probe itself calls ``fcntl.flock``."""
    shim = types.SimpleNamespace(flock=fcntl.flock, LOCK_EX=fcntl.LOCK_EX, LOCK_NB=fcntl.LOCK_NB, LOCK_SH=fcntl.LOCK_SH)
    monkeypatch.setattr(atomic, "fcntl", shim)
    return pausing.on_lock(monkeypatch, shim, "flock", "writer", waits, lock_path=lambda *_: path)


def settle(a: Machine, b: Machine) -> None:
    a.sync()
    b.sync()
    a.sync()


def assert_everywhere(a: Machine, b: Machine, wanted: list[str]) -> None:
    for m in (a, b):
        got = summaries(m)
        for summary in wanted + ["seed from a", "from b 0", "from b 2"]:
            assert got.count(summary) == 1, (m.home.name, summary, got)


def test_a_writer_that_appends_while_the_round_writes_the_merged_file_waits_and_lands_in_it(two, monkeypatch):
    a, b = two
    target = str(a.mdir / "decisions.jsonl")
    paused = pausing.pause(monkeypatch, write_merged, "atomic_write", "round", target=target)
    waits = threading.Event()
    watch = watch_append_line(monkeypatch, waits, target)
    round_ = pausing.run("round", a.sync)
    paused.wait()  # the round holds the locks and has the merged bytes, about to replace the file
    writer = pausing.run("writer", atomic.append_line, target, line("written in the window", 1), ended=waits)
    pausing.wait_for(waits, "the writer neither waited for the lock nor ended")
    paused.go()
    round_.join()
    writer.join()
    assert watch.waited  # it waited for the round's lock, then appended to the merged file
    assert summaries(a).count("written in the window") == 1 and "from b 2" in summaries(a)
    settle(a, b)
    assert_everywhere(a, b, ["written in the window"])


def test_lines_appended_while_the_merge_is_worked_out_are_kept_after_the_merged_ones(two, monkeypatch):
    a, b = two
    a.add("decision", "new on a")  # both sides moved on: a three-way merge
    target = str(a.mdir / "decisions.jsonl")
    real = merge._git
    appended = []

    def git(data, *args, **kw):  # the worker persists while git works out the merge
        if args[:1] == ("merge-tree",) and str(a.data) == data:
            for k in range(2):
                atomic.append_line(target, line(f"appended during the merge {k}", k))
                appended.append(k)
        return real(data, *args, **kw)

    monkeypatch.setattr(merge, "_git", git)
    result = a.sync()
    assert appended and result["pushed"]
    got = summaries(a)
    assert got.index("from b 2") < got.index("appended during the merge 0")  # merged lines first
    remote = _git("--git-dir", str(a.cfg["sync"]["remote"]), "show", f"main:projects/{KEY}/decisions.jsonl")
    assert "appended during the merge 1" in remote  # committed and pushed in the same round
    settle(a, b)
    assert_everywhere(a, b, ["appended during the merge 0", "appended during the merge 1", "new on a"])


def test_append_line_waiting_on_a_file_replaced_meanwhile_appends_to_the_new_file(tmp_path, monkeypatch):
    path = str(tmp_path / "decisions.jsonl")
    atomic.append_line(path, line("old", 0))
    holder = os.open(path, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)  # what a round holds while it replaces the file
    waits = threading.Event()
    watch = watch_append_line(monkeypatch, waits, path)
    writer = pausing.run("writer", atomic.append_line, path, line("waited", 1), ended=waits)
    pausing.wait_for(waits, "the writer neither waited for the lock nor ended")
    atomic.atomic_write(path, line("old", 0) + "\n" + line("merged", 2) + "\n")
    os.close(holder)
    writer.join()
    assert watch.waited
    got = [json.loads(ln)["summary"] for ln in open(path).read().splitlines()]
    assert got == ["old", "merged", "waited"]


@pytest.mark.parametrize("appends", [300])
def test_a_worker_appending_through_many_rounds_loses_no_line_on_either_machine(two, tmp_path, appends):
    """race_append.py of the review, bounded: a process appends ``appends`` decisions while a's rounds
    merge b's new ones, round after round, until it is done."""
    a, b = two
    target = a.mdir / "decisions.jsonl"
    started = tmp_path / "writer-started"
    env = {**a.env, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(target), str(appends), str(started)], env=env)
    rounds = 0
    try:
        while writer.poll() is None or rounds < 2:
            b.add("decision", f"b round {rounds}")
            b.sync()
            try:
                a.sync()
            except repo.SyncError:
                pass  # a round may stop (nothing lost); the next one goes on
            rounds += 1
    finally:
        writer.wait(pausing.WAIT)
    assert writer.returncode == 0 and started.exists()
    settle(a, b)
    b.sync()
    wanted = [f"worker line {k}" for k in range(appends)]
    for m in (a, b):
        got = summaries(m)
        missing = [s for s in wanted if got.count(s) != 1]
        assert not missing, (m.home.name, len(missing), missing[:5])
        assert "seed from a" in got and all(f"b round {k}" in got for k in range(rounds))
