"""Review r9 of lh backfill, lh distill and lh knowledge handoff-now: one test per confirmed defect."""

import copy
import json
import os
import subprocess
import sys
import time
import warnings

from lazy_harness import paths, queue
from tests.cli.lhrun import invoke, lh_script
from tests.hooks.hookrun import worker_lock_held
from tests.support import crashpoint, fake_claude, processes
from tests.support.sessions import place
from tests.worker.spendrig import configure, ledger_lines, run_worker, tasks

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _old(payload: dict, days: float) -> float:
    when = time.time() - days * 86400
    os.utime(payload["transcript_path"], (when, when))
    return when


def _tail(path: str, size: int = 3000) -> str:
    try:
        with open(path, errors="replace") as fh:
            return fh.read()[-size:]
    except OSError as exc:
        return f"({exc.strerror})"


def _sessions(tmp_path, n: int, prefix: str = "b") -> list[dict]:
    proj = tmp_path / "shop"
    proj.mkdir(exist_ok=True)
    out = []
    for i in range(n):
        payload = place(proj, session_id=f"{prefix * 4}{i:04x}-0000-4000-8000-000000000000")
        _old(payload, 10 - i * 0.01)
        out.append(payload)
    return out


def _lines(path: str) -> list[dict]:
    try:
        with open(path) as fh:
            return [json.loads(line) for line in fh if line.strip()]
    except FileNotFoundError:
        return []


# --- 1. lh distill while the worker distils the same session ----------------------------------------

def test_distill_during_the_workers_distillation_waits_and_finds_nothing_new(isolated_home, tmp_path,
                                                                              monkeypatch):
    configure(isolated_home)
    bin_dir = fake_claude.use(tmp_path, monkeypatch, sleep=3)
    proj = tmp_path / "shop"
    proj.mkdir()
    payload = place(proj)
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    worker = subprocess.Popen([*lh_script(), "worker", "run", "--once"], env=dict(os.environ),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        fake_claude.wait_calls(bin_dir, 1, 60)
        other = copy.deepcopy(fake_claude.DEFAULT_ANSWER)  # a model words the same session otherwise
        other["decisions"][0]["summary"] = "Queue tasks as files between the hooks and the worker"
        fake_claude.control(bin_dir, mode="ok", answer=other)
        out = invoke("distill", payload["transcript_path"])
    finally:
        worker.communicate(timeout=120)
    assert out.code == 0, out
    assert "waited" in out.out and "nothing new" in out.out, out.out
    distills = [c for c in fake_claude.calls(bin_dir) if not fake_claude.is_check(c)]
    assert len(distills) == 1
    memory = paths.memory_dir(str(proj))
    assert len(_lines(os.path.join(memory, "decisions.jsonl"))) == 1
    assert len(ledger_lines()) == 1


# --- 2. escape sequences of an untrusted cwd ---------------------------------------------------------

def test_backfill_prints_an_escape_in_the_cwd_escaped(isolated_home, tmp_path):
    [payload] = _sessions(tmp_path, 1)
    evil = "/tmp/\x1b]0;x\x07shop"
    records = _lines(payload["transcript_path"])
    for record in records:
        if "cwd" in record:
            record["cwd"] = evil
    with open(payload["transcript_path"], "w") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in records))
    _old(payload, 2)
    dry = invoke("backfill", "--dry-run")
    with worker_lock_held(paths.claude_dir()):
        real = invoke("backfill")
    for out in (dry, real):
        assert out.code == 0, out
        assert "\x1b" not in out.out and "\x07" not in out.out, out.out
        assert "\\u001b" in out.out


# --- 3. a session checked but never distilled is a candidate -----------------------------------------

def test_a_skipped_failed_or_grown_session_is_a_candidate_a_whole_distilled_one_is_not(isolated_home, tmp_path):
    from lazy_harness.worker import cursor

    skipped, failed, grown, whole = _sessions(tmp_path, 4)
    q = paths.queue_dir()
    queue.ensure_layout(q)
    now = time.time()
    for payload, kind in ((skipped, queue.SKIPPED), (failed, queue.ERROR), (grown, queue.DISTILLED),
                          (whole, queue.DISTILLED)):
        mtime = os.stat(payload["transcript_path"]).st_mtime
        queue.mark_done(q, payload["session_id"], mtime - (60 if payload in (skipped, grown) else 0), now, kind)
    size = os.path.getsize(whole["transcript_path"])
    cursor.advance(None, whole["session_id"], whole["transcript_path"], size, now)
    out = invoke("backfill", "--dry-run")
    assert out.out.startswith("3 session(s)"), out.out
    listed = [p["session_id"] for p in (skipped, failed, grown, whole) if p["session_id"] in out.out]
    assert listed == [skipped["session_id"], failed["session_id"], grown["session_id"]]


# --- 4. a share of the daily cap stays for today's sessions ------------------------------------------

def test_after_a_backfill_drains_todays_session_is_distilled_the_same_day(isolated_home, tmp_path, monkeypatch):
    configure(isolated_home, budget={"daily_usd": 0.20, "monthly_usd": 50.0}, model_check=True)
    fake_claude.use(tmp_path, monkeypatch, cost=0.024)
    _sessions(tmp_path, 10)
    with worker_lock_held(paths.claude_dir()):
        out = invoke("backfill")
    assert out.code == 0, out
    run_worker()
    today = place(tmp_path / "shop", session_id="dddddddd-0000-4000-8000-000000000000")
    queue.enqueue(paths.queue_dir(), queue.task_fields(today, "SessionEnd", False))
    run_worker()
    done = [t for t in tasks("done") if t["session_id"] == today["session_id"]]
    assert [t.get("check") for t in done] == [queue.DISTILLED], [t.get("wait_reason") for t in tasks("")]
    assert "kept for today's sessions" in out.out, out.out


def test_help_names_the_share_kept_for_today(isolated_home):
    out = invoke("backfill", "--help")
    assert "25%" in " ".join(out.out.split())


# --- 5. no duplicate tasks, counts that match the queue ----------------------------------------------

def test_a_session_being_processed_is_not_queued_again(isolated_home, tmp_path):
    [payload] = _sessions(tmp_path, 1)
    q = paths.queue_dir()
    name = queue.enqueue(q, queue.task_fields(payload, "Backfill", False))
    assert queue.claim(q, name) is not None  # the worker has it now
    with worker_lock_held(paths.claude_dir()):
        out = invoke("backfill")
    assert out.out.startswith("0 session(s)"), out.out
    assert tasks("") == []


ENQUEUE = """
import sys
sys.path.insert(0, {root!r})
from tests.support import crashpoint
from lazy_harness import paths, queue
payload = {payload!r}
q = paths.queue_dir()
queue.enqueue(q, queue.task_fields(payload, "Stop", False))
crashpoint.arm(int(sys.argv[1]))
queue.enqueue(q, queue.task_fields(payload, "Stop", False))
crashpoint.finished()
"""


def test_an_enqueue_killed_at_any_step_leaves_one_task_after_the_next(isolated_home, tmp_path):
    [payload] = _sessions(tmp_path, 1)
    q = paths.queue_dir()
    script = ENQUEUE.format(root=ROOT, payload={k: payload[k] for k in ("session_id", "transcript_path", "cwd")})
    step = 1
    while True:
        for name in os.listdir(q) if os.path.isdir(q) else ():
            if name.endswith(queue.SUFFIX):
                os.unlink(os.path.join(q, name))
        line = crashpoint.run_to([sys.executable, "-c", script, str(step)])
        queue.enqueue(q, queue.task_fields(payload, "Stop", False))  # the next Stop
        assert len(tasks("")) == 1, f"killed at {line!r}: {[t['timestamp'] for t in tasks('')]}"
        if line == "finished":
            break
        step += 1
    assert step > 3


INTERRUPTED = """
import os, signal, sys
sys.path.insert(0, {root!r})
real, count = os.link, [0]
def link(*args, **kwargs):
    real(*args, **kwargs)
    count[0] += 1
    if count[0] == int(sys.argv[1]):
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C just after a task was linked
os.link = link
from lazy_harness.cli import main
main(["backfill"])
"""


def test_ctrl_c_mid_backfill_prints_what_it_queued_and_a_rerun_adds_no_duplicates(isolated_home, tmp_path,
                                                                                   monkeypatch):
    payloads = _sessions(tmp_path, 12)
    script = INTERRUPTED.format(root=ROOT)
    monkeypatch.setenv("PYTHONFAULTHANDLER", "1")  # diagnosis: a SIGABRT makes the worker dump its stacks
    with worker_lock_held(paths.claude_dir()) as q:
        for at in (3, 2, 4):  # the 3rd, 2nd and 4th link: a task's, or its transcript's kept link
            before = len(tasks(""))
            run = subprocess.run([sys.executable, "-c", script, str(at)], capture_output=True, text=True,
                                 env=dict(os.environ), timeout=60)
            printed = sum(1 for line in run.stdout.splitlines() if "] queued " in line)
            queued = len(tasks("")) - before
            assert run.returncode != 0 and printed == queued >= 1, (at, queued, run.stdout, run.stderr[-500:])
        again = invoke("backfill")
        assert again.code == 0, again
        # why: the worker backfill started leaves at once while the lock is held; released sooner, it
        # would drain the queue and linger past the test
        deadline = time.monotonic() + 30
        while processes.started_with_home(os.environ["HOME"]) and time.monotonic() < deadline:
            time.sleep(0.02)
        left = processes.started_with_home(os.environ["HOME"])
        if left:  # why not a failure: this test is about the queue; one CI run of many saw a process stay
            # past 30 s (unexplained: its log was gone). It is ended here, with the lock still held, so
            # it never drains the queue past the test, and said, so a run that sees it can tell what it was
            import signal

            from lazy_harness.atomic import held

            seen = processes.describe(left)
            still_held = held(os.path.join(q, ".worker.lock"))  # False: this process lost its lock
            # faulthandler writes every thread's stack to compound-loop.log, then the process ends
            processes.end(left, wait=5.0, sig=signal.SIGABRT)
            processes.end(left)
            logs = os.path.join(paths.claude_dir(), "logs")
            tails = {n: _tail(os.path.join(logs, n)) for n in ("worker.log", "compound-loop.log")}
            warnings.warn(f"processes still running after 30 s, ended: {seen}; lock still held: {still_held}; "
                          f"logs: {tails}", stacklevel=1)
    sids = [t["session_id"] for t in tasks("")]
    assert sorted(sids) == sorted(p["session_id"] for p in payloads)


# --- 6. minor -----------------------------------------------------------------------------------------

def test_backfill_does_not_offer_a_session_lh_distill_distilled(isolated_home, tmp_path, monkeypatch):
    configure(isolated_home)
    fake_claude.use(tmp_path, monkeypatch)
    [payload] = _sessions(tmp_path, 1)
    assert invoke("distill", payload["transcript_path"]).code == 0
    assert queue.last_check(paths.queue_dir(), payload["session_id"])[1] == queue.DISTILLED
    assert invoke("backfill", "--dry-run").out.startswith("0 session(s)")


def test_backfill_names_the_monthly_cap_when_it_is_the_tighter_one(isolated_home, tmp_path):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 0.06})
    _sessions(tmp_path, 3)
    first = invoke("backfill", "--dry-run").out.splitlines()[0]
    assert "left under the monthly cap $0.06" in first and "left under the cap today" not in first, first


def test_handoff_now_of_another_projects_empty_transcript_names_no_folder_of_the_caller(isolated_home, tmp_path,
                                                                                      monkeypatch):
    configure(isolated_home)
    shop, blog = tmp_path / "shop", tmp_path / "blog"
    shop.mkdir()
    blog.mkdir()
    place(blog)  # blog's folder of transcripts
    folder = os.path.join(paths.projects_dir(), paths.project_key(str(blog)))
    open(os.path.join(folder, "44444444-0000-4000-8000-000000000000.jsonl"), "w").close()
    monkeypatch.chdir(shop)
    with worker_lock_held(paths.claude_dir()):
        out = invoke("knowledge", "handoff-now", "--session", "44444444")
    assert paths.memory_dir(str(shop)) not in out.out + out.err
    assert out.code == 1 and "no conversation" in out.err, out
