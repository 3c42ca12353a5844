"""Two ``lh memory forget`` commands, real processes started together, on two different decisions of one
project: both forgets stick (two marks, two runs, each undoable alone), whatever order they write in.

The test holds the project's by-hand lock first, and lets it go only once both processes wait for it
(each shows as a waiter on the lock in ``/proc/locks``): the two then contend for it, on events, never
on the clock. The existing race tests (tests/memory/test_by_hand_racefx.py) race one entry in threads."""

import os
import re
import subprocess
import time

import pytest

from lazy_harness import atomic, paths
from lazy_harness.memory import files, hand_runs, journal, marks
from tests.cli.lhrun import invoke, lh_script
from tests.cli.test_memory import hook_context
from tests.support import memory_samples as ms

NOW = time.time()
WAIT = 60.0  # a bound for a bug, never a delay


def _waiters(path: str) -> int:
    """How many processes wait for an ``flock`` of ``path`` (Linux ``/proc/locks``: ``->`` lines)."""
    st = os.stat(path)
    dev = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    with open("/proc/locks", encoding="utf-8") as fh:
        return sum(1 for ln in fh if " -> " in ln and ln.split()[6] == dev)


@pytest.mark.skipif(not os.path.exists("/proc/locks"), reason="needs Linux /proc/locks to see the waiters")
def test_two_forgets_of_two_decisions_started_together_both_stick(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS),
                   [ms.decision(NOW - 100, "queue workers use redis streams", "r"),
                    ms.decision(NOW - 90, "invoices render with weasyprint", "r"),
                    ms.decision(NOW - 80, "the api keeps its v1 routes", "r")])
    shown = invoke("memory", "show", "--project", root, "--section", "decisions").out
    first, second, kept = re.findall(r"d-[0-9a-f]{8}", shown)
    lock = os.path.join(mdir, hand_runs.LOCK)
    fd = atomic.lock(lock)
    try:
        procs = [subprocess.Popen([*lh_script(), "memory", "forget", eid, "--project", root],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for eid in (first, second)]
        deadline = time.monotonic() + WAIT
        while _waiters(lock) < 2:  # the event: both wait for the lock this test holds
            ended = [p for p in procs if p.poll() is not None]
            assert not ended, [p.communicate() for p in ended]
            assert time.monotonic() < deadline, "the forgets never waited for the by-hand lock"
            time.sleep(0.005)
    finally:
        os.close(fd)
    outs = [p.communicate(timeout=WAIT) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert [o[0].split(" (undo")[0] for o in outs] == [f"forgot {first}", f"forgot {second}"]
    forgotten = [m["id"] for m in marks.read(mdir) if m["op"] == "forget"]
    assert sorted(forgotten) == sorted([first, second])
    runs = [r for r in journal.runs(mdir) if r["kind"] == "forget"]
    assert len(runs) == 2 and len({r["run"] for r in runs}) == 2
    shown = invoke("memory", "show", "--project", root, "--section", "decisions").out
    assert all(f"{eid}" in ln and "[forgotten]" in ln for eid in (first, second)
               for ln in shown.splitlines() if eid in ln)
    context = hook_context(root)
    assert first not in context and second not in context and kept in context
    # each run undoes alone: the other forget stays
    older = min(runs, key=lambda r: r["run"])
    assert invoke("memory", "undo", older["run"], "--project", root).code == 0
    left = {m["id"] for m in marks.read(mdir) if m["op"] == "forget"}
    assert len(left) == 1 and left < {first, second}
