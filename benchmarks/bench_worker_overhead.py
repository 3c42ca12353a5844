"""The worker's own cost per task, without the model call (issue 7: at most 100 ms on a normal transcript).

A temporary HOME holds one project and N sessions, each a copy of the recorded
tests/fixtures/transcripts/interactive.jsonl placed where Claude Code keeps transcripts, each queued
as a SessionEnd task. Then, in this process, ``worker.loop.run`` drains the queue with
``llm.call`` replaced by a function that returns a canned answer at once (a different
decision, failure, learning and handoff per task, so every task really appends, writes a learning
file and rewrites the handoff). Each task is timed from claim to finish (``one_task.process_one``):
trust check, reading the transcript, gates, existing memory, prompt, redaction, validation, the
store's de-duplicated writes with their fsyncs, done/ and state files, log lines. The first task
is reported apart: it pays for importing the pipeline's modules once per worker process.

For information:
- the same with a fake ``claude`` executable (a Python script answering the canned JSON) instead
  of the replaced function, so each task also starts a process, as the real call does;
- ``python -m lazy_harness.worker`` on an empty queue (a worker's fixed cost per spawn: start,
  imports, lock, recovery scan, state file) against ``python -c pass``.

    python benchmarks/bench_worker_overhead.py [--runs 31] [--check]
"""

import os
import statistics
import sys
import time

import harness
from harness import Case

GOAL_MS = 100.0


def canned(i: int) -> dict:
    return {
        "decisions": [{"summary": f"Keep the billing job queue in Postgres (session {i})",
                       "context": "Redis was the alternative; Postgres is backed up nightly.",
                       "alternatives": ["Redis", "SQS"], "rationale": "one store to back up", "tags": ["queue"]}],
        "failures": [{"summary": f"Read of a missing settings file failed (session {i})",
                      "root_cause": "the file is created on first run", "resolution": "check before reading",
                      "prevention": "create defaults at install", "tags": ["config"]}],
        "learnings": [{"title": f"Postgres SKIP LOCKED makes a fair job queue {i}",
                       "learning": "SELECT ... FOR UPDATE SKIP LOCKED lets workers claim rows without blocking.",
                       "context": "billing queue design", "scope": "general", "tags": ["postgres"]}],
        "handoff": [f"wire the retry into the worker (session {i})", "document the queue table"],
    }


def build(root: str, env: dict, n: int, prefix: str) -> str:
    """A project with ``n`` placed sessions, each queued; returns the project path."""
    from pathlib import Path

    from lazy_harness import paths, queue
    from tests.support.sessions import place

    proj = os.path.join(root, f"billing-{prefix}")
    os.makedirs(os.path.join(proj, ".git"))
    for i in range(n):
        sid = f"{prefix}{i:07d}-7c1d-4e2f-8a3b-4c5d6e7f8a9b"
        payload = place(Path(proj), "interactive.jsonl", session_id=sid)
        queue.enqueue(paths.queue_dir(env), queue.task_fields(payload, "SessionEnd", True, env), time.time())
    return proj


def drain_timed(env: dict) -> tuple[list[float], list[str], object]:
    """Run the worker loop in this process; returns (seconds per task in order, outcomes, stats)."""
    from lazy_harness.worker import loop, one_task

    original = one_task.process_one
    took: list[float] = []
    outcomes: list[str] = []

    def timed(*args, **kwargs):
        started = time.perf_counter()
        status = original(*args, **kwargs)
        took.append(time.perf_counter() - started)
        outcomes.append(status)
        return status

    one_task.process_one = timed
    try:
        stats = loop.run(env=env, sleep=lambda s: None)
    finally:
        one_task.process_one = original
    return took, outcomes, stats


def main() -> int:
    opts = harness.parse_args(__doc__, default_runs=31)
    print(harness.interpreter_note())
    with harness.temp_home(opts.keep) as (root, env):
        os.environ.clear()
        os.environ.update(env)  # why: tests/support/sessions.place resolves paths from os.environ
        config_file = harness.write_config(env, retry_backoff_seconds=0)
        with open(config_file, "a", encoding="utf-8") as fh:
            fh.write("[consolidate]\nenabled = false\n")  # why: one model call per task, none after the drain
        from lazy_harness import paths
        from lazy_harness.worker import llm

        # 1. the model call replaced by a function
        build(root, env, opts.runs, "a")
        calls = {"n": 0}

        def answer(prompt, cfg, env_, workdir, max_budget_usd=None, schema=None):
            calls["n"] += 1
            if "<<<conversation-" not in prompt:
                raise AssertionError("the worker did not send a prompt with the conversation")
            return llm.Call(canned(calls["n"]), llm.Usage())

        real_call = llm.call  # why: what the worker's model calls go through (worker/calls.run_model)
        llm.call = answer
        try:
            took, outcomes, stats = drain_timed(env)
        finally:
            llm.call = real_call
        if stats.processed != opts.runs or calls["n"] != opts.runs:
            sys.exit(f"expected {opts.runs} processed tasks and model calls, got {stats} ({outcomes}), "
                     f"{calls['n']} calls")
        memory = paths.memory_dir(os.path.join(root, "billing-a"), env)
        with open(os.path.join(memory, "decisions.jsonl"), encoding="utf-8") as fh:
            appended = sum(1 for _ in fh)
        if appended != opts.runs:
            sys.exit(f"expected {opts.runs} decisions written, found {appended}")

        # 2. a fake claude executable on the same kind of tasks
        from pathlib import Path

        from tests.support import fake_claude

        bin_dir = Path(root) / "bin"
        exe = fake_claude.install(bin_dir, answer=canned(0))
        harness.write_config(env, retry_backoff_seconds=0, claude_path=str(exe))
        build(root, env, opts.runs, "b")
        took_exe, outcomes_exe, stats_exe = drain_timed(env)
        if stats_exe.processed != opts.runs:
            sys.exit(f"fake claude: expected {opts.runs} processed tasks, got {stats_exe} ({outcomes_exe})")

        # 3. a worker process on an empty queue, against python -c pass
        worker = Case("python -m lazy_harness.worker, empty queue",
                      [sys.executable, "-m", "lazy_harness.worker"], env=env)
        cpu: dict = {}
        times = harness.measure(harness.bare_cases(env) + [worker], opts.runs, cpu=cpu)

    first, rest = took[0], took[1:]
    med = statistics.median(rest)
    print(f"worker per task, model call replaced by a function returning a canned answer "
          f"({len(rest)} tasks after the first, interactive.jsonl "
          f"{os.path.getsize(harness.ROOT + '/tests/fixtures/transcripts/interactive.jsonl') // 1024} KB each):")
    print(f"  median {med * 1000:.1f} ms, min {min(rest) * 1000:.1f} ms, max {max(rest) * 1000:.1f} ms; "
          f"first task {first * 1000:.1f} ms (imports the pipeline's modules)")
    exe_med = statistics.median(took_exe[1:])
    print(f"same with a fake `claude` executable (a Python script): median {exe_med * 1000:.1f} ms per task "
          f"(the process start of the fake is included)")
    harness.report(times, title="worker start on an empty queue")
    harness.cpu_report(cpu)
    ok = med * 1000 <= GOAL_MS
    print(f"{'PASS' if ok else 'MISS'}  worker overhead per task {med * 1000:.1f} ms (goal <= {GOAL_MS:g} ms)")
    return 1 if opts.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
