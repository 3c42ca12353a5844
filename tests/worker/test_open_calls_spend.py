"""Open calls: the cap check and the call's marker are one step, so two spenders at once never pass a
cap, and a call whose process was killed is counted at its estimate and settled once (ADR 0013)."""

import contextlib
import fcntl
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time

import pytest

from lazy_harness import config
from lazy_harness.cost import budget, markers
from lazy_harness.worker import calls
from tests.support import child_events
from tests.cli.lhrun import invoke
from tests.support import fake_claude
from tests.support.sessions import place
from tests.worker.spendrig import configure, ledger_lines, queue_session, run_worker, spent, tasks

# why: spend written at the wall clock, "today" taken by the code's own clock: one local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")

# A claude that waits at a gate the test holds (flock), then reports it spent min(its budget, cost):
# a call given what is left that spends all of it is the worst case the cap must survive.
FAKE = r'''#!{python}
import fcntl, json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "control.json")) as fh:
    ctl = json.load(fh)
sys.stdin.read()
given = float(sys.argv[sys.argv.index("--max-budget-usd") + 1])
with open(os.path.join(here, "calls.jsonl"), "a") as fh:
    fh.write(json.dumps({{"pid": os.getpid(), "budget": given}}) + "\n")
gate = os.open(os.path.join(here, "gate"), os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(gate, fcntl.LOCK_SH)
cost = min(given, ctl["cost"])
print(json.dumps({{"type": "result", "subtype": "success", "is_error": False, "result": "",
                  "total_cost_usd": cost, "usage": {{"input_tokens": 10, "output_tokens": 5}},
                  "structured_output": ctl["answer"]}}))
'''

# One spender: a model call through the worker's guarded call, in a process of its own.
SPENDER = r'''
import sys
from lazy_harness import config
from lazy_harness.worker import calls
try:
    meta = {"project": "p", "session_id": sys.argv[1], "task_id": sys.argv[1]}
    calls.run_model("x" * 4000, config.load(), None, meta)
    print("ok", flush=True)
except calls.Wait as exc:
    print("wait:", exc.message, flush=True)
'''


@pytest.fixture
def fake(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "claude"
    exe.write_text(FAKE.format(python=sys.executable))
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    (bin_dir / "control.json").write_text(json.dumps({"cost": 100.0, "answer": fake_claude.DEFAULT_ANSWER}))
    fake_claude.on_path(monkeypatch, bin_dir)
    return bin_dir


def _set_cost(bin_dir, cost: float) -> None:
    (bin_dir / "control.json").write_text(json.dumps({"cost": cost, "answer": fake_claude.DEFAULT_ANSWER}))


def _calls(bin_dir) -> list[dict]:
    try:
        with open(bin_dir / "calls.jsonl") as fh:
            return [json.loads(line) for line in fh if line.endswith("\n")]
    except FileNotFoundError:
        return []


@contextlib.contextmanager
def _gate(bin_dir):
    """Calls of the fake wait while this is held; leaving it lets them answer."""
    fd = os.open(bin_dir / "gate", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield
    finally:
        os.close(fd)


def _until(done, what: str, timeout: float = 60.0) -> None:
    """Wait for ``done()``; the timeout only keeps a bug from hanging the suite."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.02)


@pytest.fixture
def procs():
    started: list[subprocess.Popen] = []
    yield started
    for p in started:
        if p.poll() is None:
            p.kill()
        p.communicate()


def _spender(procs, name: str) -> subprocess.Popen:
    p = subprocess.Popen([sys.executable, "-c", SPENDER, name], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    procs.append(p)
    return p


def _markers() -> list[str]:
    try:
        return sorted(os.listdir(markers.open_calls_dir()))
    except FileNotFoundError:
        return []


def _started_call(procs, fake, name: str = "a") -> subprocess.Popen:
    """A spender whose call is in flight (held at the gate)."""
    a = _spender(procs, name)
    _until(lambda: len(_calls(fake)) >= 1 or a.poll() is not None, "the first call started")
    assert a.poll() is None, a.communicate()
    return a


def test_two_spenders_at_once_never_pass_the_cap(isolated_home, fake, procs):
    configure(isolated_home, budget={"daily_usd": 1.0, "monthly_usd": 100.0})
    spent(0.4)
    with _gate(fake):
        a = _started_call(procs, fake)
        b = _spender(procs, "b")
        # b either gives up on its own or its call starts too (then both hold what is left)
        _until(lambda: b.poll() is not None or len(_calls(fake)) >= 2, "the second spender checked")
    a_out, _ = a.communicate(timeout=60)
    b_out, b_err = b.communicate(timeout=60)
    total = sum(line["total_cost_usd"] for line in ledger_lines())
    assert total <= 1.0 + 1e-9, (total, [c["budget"] for c in _calls(fake)])
    assert a_out.strip() == "ok"
    assert f"another model call (pid {a.pid}" in b_out, (b_out, b_err)
    assert "today's budget" in b_out
    assert len(ledger_lines()) == 2  # the earlier spend and a's call: one line per call, no other
    assert _markers() == []


def test_a_live_callers_marker_is_counted_but_not_settled(isolated_home, fake, procs):
    configure(isolated_home, budget={"daily_usd": 1.0, "monthly_usd": 100.0})
    spent(0.25)
    cfg = config.load()
    with _gate(fake):
        a = _started_call(procs, fake)
        [marker] = _markers()
        verdict = budget.check(cfg, None, time.time(), 0.05)
        assert not verdict.allowed and verdict.held == pytest.approx(0.75)
        assert f"pid {a.pid}" in verdict.reason
        assert budget.check(cfg, None, time.time()).allowed  # a running call is no pause
        with pytest.raises(calls.Wait) as waited:  # a check under the lock: it settles only dead calls
            calls.run_model("y" * 4000, cfg, None, {"project": "p", "session_id": "c", "task_id": "c"})
        assert not waited.value.paused and f"pid {a.pid}" in waited.value.message
        assert _markers() == [marker] and len(ledger_lines()) == 1
        shown = invoke("cost")
        assert f"running: pid {a.pid}" in shown.out and "$0.75" in shown.out, shown
    assert a.communicate(timeout=60)[0].strip() == "ok"
    lines = ledger_lines()
    assert len(lines) == 2 and lines[1]["outcome"] == "ok"
    assert lines[1]["call"] == marker.removesuffix(".json")
    assert _markers() == []


def test_a_killed_callers_marker_is_counted_at_its_estimate_and_settled_once(isolated_home, fake, procs):
    configure(isolated_home, budget={"daily_usd": 1.0, "monthly_usd": 100.0})
    spent(0.25)
    cfg = config.load()
    with _gate(fake):
        a = _started_call(procs, fake)
        [marker] = _markers()
        with open(os.path.join(markers.open_calls_dir(), marker)) as fh:
            opened = json.load(fh)
        assert opened["budget"] == pytest.approx(0.75) and 0 < opened["estimate"] < 0.75
        a.send_signal(signal.SIGKILL)  # its claude runs on, as after the OOM killer or kill -9
        a.wait()
        verdict = budget.check(cfg, None, time.time())
        assert verdict.spent_today == pytest.approx(0.25 + opened["estimate"]) and verdict.held == 0
        assert len(ledger_lines()) == 1  # a reader counts it, never writes
        shown = invoke("cost")
        assert f"killed mid-call, counted at its estimate {budget.money(opened['estimate'])}" in shown.out, shown
    _set_cost(fake, 0.5)
    for _ in range(2):  # two checks under the lock (each before a call): one line for the killed call
        calls.run_model("y" * 4000, cfg, None, {"project": "p", "session_id": "c", "task_id": "c"})
    killed = [line for line in ledger_lines() if line["outcome"] == "killed"]
    assert len(ledger_lines()) == 4 and len(killed) == 1
    assert killed[0]["total_cost_usd"] == pytest.approx(opened["estimate"])
    assert killed[0]["call"] == marker.removesuffix(".json") and killed[0]["project"] == "p"
    assert _markers() == []
    assert budget.check(cfg, None, time.time()).spent_today == pytest.approx(1.0)  # the second call got the rest
    assert "killed mid-call, counted at its estimate" in invoke("cost").out


DIE_AFTER_LEDGER = r'''
import os, signal
from lazy_harness import config
from lazy_harness.cost import budget, ledger
cfg = config.load()
verdict, opened = budget.open_call(cfg, None, __import__("time").time(), 0.1, {"task_id": "t"}, 10)
ledger.record(type("U", (), {"model": "m", "input_tokens": 1, "output_tokens": 1, "cache_creation_tokens": 0,
              "cache_read_tokens": 0, "cost_usd": 0.3, "reported": True, "duration_s": 1.0})(),
              {"task_id": "t"}, "ok", 10, call=opened.call)
os.kill(os.getpid(), signal.SIGKILL)  # between its ledger line and removing its marker
'''


def test_a_killed_call_already_in_the_ledger_is_not_counted_twice(isolated_home, procs):
    configure(isolated_home, budget={"daily_usd": 1.0, "monthly_usd": 100.0})
    p = subprocess.Popen([sys.executable, "-c", DIE_AFTER_LEDGER], stderr=subprocess.PIPE, text=True)
    procs.append(p)
    assert p.wait(timeout=60) == -signal.SIGKILL, p.stderr.read() if p.stderr else ""
    assert len(_markers()) == 1
    cfg = config.load()
    assert budget.check(cfg, None, time.time()).spent_today == pytest.approx(0.3)
    budget.open_call(cfg, None, time.time(), 0.0, {}, 0)[1].close()
    assert [line["outcome"] for line in ledger_lines()] == ["ok"] and _markers() == []


def test_the_worker_waits_for_another_call_without_pausing(isolated_home, fake, procs, tmp_path):
    configure(isolated_home, budget={"daily_usd": 1.0, "monthly_usd": 100.0})
    project = tmp_path / "shop"
    project.mkdir()
    with _gate(fake):
        a = _started_call(procs, fake)
        queue_session(project)
        stats = run_worker()
        assert stats.paused == "" and stats.processed == 0
        [task] = tasks("")
        assert f"another model call (pid {a.pid}" in task["wait_reason"] and task.get("not_before")
    assert a.communicate(timeout=60)[0].strip() == "ok"


def _lh() -> list[str]:
    found = shutil.which("lh", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-m", "lazy_harness"]


def test_lh_distill_waits_for_the_other_call_then_distils(isolated_home, fake, procs, tmp_path):
    configure(isolated_home, budget={"daily_usd": 1.0, "monthly_usd": 100.0})
    _set_cost(fake, 0.1)
    project = tmp_path / "shop"
    project.mkdir()
    payload = place(project)
    with _gate(fake):
        a = _started_call(procs, fake)
        b = subprocess.Popen([*_lh(), "distill", payload["transcript_path"]], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        procs.append(b)
        assert b.stdout is not None
        ready = child_events.readable(b.stdout, 60)
        assert ready, "lh distill said nothing while the other call ran"
        said = b.stdout.readline()
        assert f"another model call (pid {a.pid}" in said and "waits" in said, said
        assert b.poll() is None  # it waits, it does not give up
    out, err = b.communicate(timeout=120)
    assert b.returncode == 0, (said, out, err)
    assert "processed" in out
    assert a.communicate(timeout=60)[0].strip() == "ok"
    budgets = sorted(c["budget"] for c in _calls(fake))
    assert budgets == pytest.approx([0.9, 1.0])  # b got what a left, after a's call ended
    assert len(ledger_lines()) == 2 and _markers() == []
