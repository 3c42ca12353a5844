"""Crashes: the worker SIGKILLed mid-flight, again and again.

The poison rule's other side (the fifth interruption sends a task to failed/) is
tests/worker/test_loop.py::test_worker_killed_mid_task_is_retried_and_poison_after_five.
Atomicity of one learnings or handoff write under SIGKILL, at the store level:
tests/memory/test_store.py::test_sigkill_during_writes_leaves_whole_files_and_whole_lines and
tests/memory/test_learnings.py::test_sigkill_during_learning_writes_never_leaves_a_partial_file;
here the whole worker is killed at random moments around its writes.
"""

import os
import random
import re
import signal
import subprocess
import sys
import time

import yaml

from lazy_harness import paths, queue
from lazy_harness.memory import files
from tests.hooks.hookrun import worker_lock_held
from tests.reliability import rig
from tests.support import fake_claude
from tests.support.sessions import wait_finished

TOKEN = re.compile(r"LHTOK-[0-9a-f]+")


def _wait(predicate, what: str, timeout: float = rig.WAIT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError(f"gave up waiting for {what}")


def _queue_while_locked(payloads: list[dict]) -> None:
    """Queue sessions through their SessionEnd hooks while the lock is held, so no worker starts."""
    with worker_lock_held(paths.claude_dir()):
        for payload in payloads:
            rig.hook("SessionEnd", payload)
        rig.wait_workers_gone()  # the spawned workers found the lock taken and left


def _once_each(projects_tokens: dict, sid_of: dict) -> None:
    """Every token has exactly one whole line in each JSONL file of its project and one learning."""
    for proj, tokens in projects_tokens.items():
        mdir = rig.memory(proj)
        for name in (files.DECISIONS, files.FAILURES):
            recs = rig.jsonl(os.path.join(mdir, name))
            assert sorted(TOKEN.search(r["summary"]).group(0) for r in recs) == sorted(tokens), name
            assert all(r["session_id"] == sid_of[TOKEN.search(r["summary"]).group(0)] for r in recs)
    titles = sorted(_learning_token(p) for p in rig.learning_files())
    assert titles == sorted(t for ts in projects_tokens.values() for t in ts)


def _learning_token(path: str) -> str:
    return TOKEN.search(_front(path)["title"]).group(0)


def _front(path: str, ending: str = "\n") -> dict:
    """The frontmatter of a whole learning file (it closes, parses, and the body ends as written)."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    assert text.startswith("---\n"), path
    head, sep, body = text[4:].partition("\n---\n")
    assert sep, f"{path}: frontmatter not closed"
    front = yaml.safe_load(head)
    assert front["status"] == "active" and "## Learning\n\n" in body, path
    assert "\n## Context\n\n" in body and body.endswith(ending), f"{path}: partial body"
    return front


def test_worker_killed_mid_flight_several_times_loses_and_duplicates_nothing(loop_on, model, tmp_path):
    rig.configure(loop_on, timeout_seconds=60)
    # the calls killed below: worker 1's first, worker 2's second, worker 3's third, held until then
    held = [1, 1 + 2, 1 + 2 + 3]
    fake_claude.control(model, mode="ok", template=rig.TEMPLATE, hold=held, need_token=True,
                        lock_path=os.path.join(paths.queue_dir(), ".worker.lock"))
    shop, blog, late = (rig.project(tmp_path, n) for n in ("shop", "blog", "late"))
    tokens: dict = {shop: [], blog: [], late: []}
    sid_of = {}

    def session(proj):
        tok = rig.new_token()
        payload = rig.session(proj, tok)
        tokens[proj].append(tok)
        sid_of[tok] = payload["session_id"]
        return payload

    _queue_while_locked([session(shop if i % 2 else blog) for i in range(8)])
    assert len(rig.tasks("")) == 8

    killed = []  # (worker pid, token of the call it was in)
    rig.hook("SessionEnd", session(late))  # the next session to end starts the worker
    for round_ in range(3):
        # kill the current worker inside its (round+1)-th model call: a recovered task, then later ones
        def running(round_=round_):  # (bound now: the loop moves on)
            mine = [c for c in fake_claude.calls(model) if c["ppid"] not in {k[0] for k in killed}]
            return mine[round_] if len(mine) > round_ and mine[round_]["end"] is None else None

        call = _wait(running, f"model call {round_ + 1} of worker {round_ + 1}")
        assert call["n"] == held[round_]
        os.kill(call["ppid"], signal.SIGKILL)
        fake_claude.kill_running(model)
        rig.wait_dead([call["ppid"]])
        rig.wait_workers_gone()
        killed.append((call["ppid"], call["token"]))
        # nothing runs now: the interrupted task waits in processing/
        assert len(rig.tasks("processing")) == 1
        rig.hook("SessionEnd", session(late))  # the next hook restarts the worker

    q = paths.queue_dir()
    total = 8 + 4
    wait_finished(q, timeout=120, count=total)
    rig.wait_workers_gone()

    assert rig.tasks("processing") == [] and rig.tasks("") == [] and rig.tasks("failed") == []
    done = {t["session_id"]: t for t in (queue.read_task(os.path.join(q, "done", n)) for n in rig.tasks("done"))}
    assert len(done) == total and {t["outcome"] for t in done.values()} == {"processed"}
    for _, tok in killed:  # an interrupted task was retried, counted, and is not poison
        assert done[sid_of[tok]]["interruptions"] == str(sum(1 for _, t in killed if t == tok))
    assert rig.read(rig.log_file("worker.log")).count("recovered from a dead worker: requeued") == len(killed)
    _once_each(tokens, sid_of)
    calls = fake_claude.calls(model)
    per_token = {tok: sum(1 for c in calls if c["token"] == tok) for tok in sid_of}
    assert per_token == {tok: 1 + sum(1 for _, t in killed if t == tok) for tok in sid_of}


def _worker() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "lazy_harness.worker"], env=dict(os.environ),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_a_task_interrupted_four_times_is_still_distilled(loop_on, model, tmp_path):
    """Poison only after 5: four workers die in the model call, the fifth finishes the task."""
    rig.configure(loop_on, timeout_seconds=60)
    fake_claude.control(model, mode="ok", template=rig.TEMPLATE, sleep=30, need_token=True)
    tok = rig.new_token()
    _queue_while_locked([rig.session(rig.project(tmp_path, "shop"), tok)])
    for round_ in range(1, 5):
        worker = _worker()
        _wait(lambda round_=round_: len(fake_claude.calls(model)) >= round_, f"call {round_}")
        worker.send_signal(signal.SIGKILL)
        worker.wait()
        fake_claude.kill_running(model)
        assert len(rig.tasks("processing")) == 1
    fake_claude.control(model, mode="ok", template=rig.TEMPLATE, need_token=True)
    worker = _worker()
    assert worker.wait(timeout=rig.WAIT) == 0
    [done] = rig.tasks("done")
    task = queue.read_task(os.path.join(paths.queue_dir(), "done", done))
    assert (task["outcome"], task["interruptions"]) == ("processed", "4")
    assert rig.tasks("failed") == []


BIG = {
    "decisions": [{"summary": f"Decision @TOKEN@ number {i}", "context": "c" * 2000, "rationale": "r" * 2000,
                   "alternatives": ["a" * 300] * 10, "tags": ["t"]} for i in range(20)],
    "failures": [{"summary": f"Failure @TOKEN@ number {i}", "root_cause": "x" * 2000, "resolution": "y" * 2000,
                  "prevention": "z" * 2000, "tags": ["t"]} for i in range(20)],
    "learnings": [{"title": f"Learning @TOKEN@ number {i}", "learning": "l" * 1990 + " END",
                   "context": "k" * 1990 + " END", "scope": "project", "tags": ["t"]} for i in range(20)],
    "handoff": [f"@TOKEN@ item {i} " + "h" * 300 for i in range(30)],
}


def _check_handoff(mdir: str, tokens=None) -> None:
    """handoff.md absent or one whole rendering; every item whole and opened once. With ``tokens``
    (the end): exactly the 30 items of each of those sessions are open."""
    from lazy_harness.memory import handoff, handoff_markdown

    path = os.path.join(mdir, files.HANDOFF)
    if os.path.exists(path):
        assert not handoff_markdown.edited(*handoff_markdown.parse_markdown(rig.read(path))), "a torn handoff.md"
    records = handoff.read_records(mdir) or []
    opened = [r["text"] for r in records if r["op"] == "open"]
    assert len(opened) == len(set(opened)) == len(records), "an item opened twice, or closed"
    for text in opened:
        tok = TOKEN.search(text).group(0)
        assert text in {f"{tok} item {i} " + "h" * 300 for i in range(30)}
    if tokens is not None:
        assert sorted(opened) == sorted(f"{tok} item {i} " + "h" * 300 for tok in tokens for i in range(30))


def _check_files(mdir: str, temps_ok: bool) -> None:
    """Whole files; right after a kill a temp file of the write in flight may remain (never under a
    real name), and the next worker removes it."""
    for path in rig.learning_files():
        if path.endswith(".tmp") and temps_ok:
            continue
        assert path.endswith(".md"), f"a temp file left in the learnings folder: {path}"
        _front(path, ending="k" * 1990 + " END\n")
    for name in os.listdir(mdir) if os.path.isdir(mdir) else []:
        assert temps_ok or not name.endswith(".tmp"), f"a temp file left in the memory folder: {name}"
    _check_handoff(mdir)
    for name in (files.DECISIONS, files.FAILURES):
        if os.path.exists(os.path.join(mdir, name)):
            recs = rig.jsonl(os.path.join(mdir, name), cut_ok=True)  # a kill may cut a line of 7 kB
            assert len({r["summary"] for r in recs}) == len(recs), "an entry written twice"


FINISH_ONE = "from lazy_harness.worker import loop; loop.run(limit=1)"


def test_worker_killed_at_random_moments_around_its_writes_leaves_whole_files(loop_on, model, tmp_path):
    """Big answers make the persist step long (tens of fsyncs); each round's worker is killed a random
    moment after its model call returned, then another worker finishes one task. After each step:
    learnings whole, handoff.md whole and handoff items whole, no JSONL entry twice (a kill may cut a line longer than a
    page: readers skip it). At the end each session is in memory exactly once: re-processing a
    half-persisted task wrote nothing twice and lost nothing."""
    fake_claude.control(model, mode="ok", template=BIG, need_token=True)
    shop = rig.project(tmp_path, "shop")
    toks = [rig.new_token() for _ in range(5)]
    payloads = [rig.session(shop, tok) for tok in toks]
    _queue_while_locked(payloads)
    sid_of = {tok: p["session_id"] for tok, p in zip(toks, payloads, strict=True)}
    mdir = rig.memory(shop)
    rng = random.Random(1234)
    for _ in toks:
        worker = _worker()
        _wait(lambda worker=worker: any(c["ppid"] == worker.pid and c["end"] for c in fake_claude.calls(model))
              or worker.poll() is not None, "a model call of this worker")
        time.sleep(rng.uniform(0, 0.3))  # why: a random point in validation and persist, not a timing check
        worker.send_signal(signal.SIGKILL)
        worker.wait()
        _check_files(mdir, temps_ok=True)
        # why 5 times rig.WAIT: a guard against a hang only; one big persist with its fsyncs took over
        # 60 s on a loaded CI machine running the suite's other tests beside it
        subprocess.run([sys.executable, "-c", FINISH_ONE], env=dict(os.environ), check=True, timeout=5 * rig.WAIT)
        _check_files(mdir, temps_ok=False)
    worker = _worker()
    assert worker.wait(timeout=5 * rig.WAIT) == 0
    assert rig.tasks("processing") == [] and rig.tasks("") == [] and rig.tasks("failed") == []
    assert len(rig.tasks("done")) == len(toks)
    for name, word in ((files.DECISIONS, "Decision"), (files.FAILURES, "Failure")):
        recs = rig.jsonl(os.path.join(mdir, name), cut_ok=True)
        want = sorted(f"{word} {tok} number {i}" for tok in toks for i in range(20))
        assert sorted(r["summary"] for r in recs) == want
        assert all(r["session_id"] == sid_of[TOKEN.search(r["summary"]).group(0)] for r in recs)
    assert sorted(_front(p)["title"] for p in rig.learning_files()) == sorted(
        f"Learning {tok} number {i}" for tok in toks for i in range(20))
    _check_handoff(mdir, toks)
