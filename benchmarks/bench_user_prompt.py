"""UserPromptSubmit hook cost on a large memory, against a bare start of the same interpreter.

Builds, in a temporary HOME, a project with 10,000 decisions, 5,000 failures, 3,000 learnings and a
handoff (plus one decision the prompt is about), then times the command Claude Code runs,
``<python> -m lazy_harness.hooks UserPromptSubmit`` with the JSON payload on stdin:

  warm index     the index is up to date (a stat per memory file, then the search)
  catch-up 100   before each timed run, 100 new decisions (with tags and three cues each, as the
                 distill prompt asks) are appended to decisions.jsonl (untimed), so the run first
                 indexes them
  short prompt   under recall.min_prompt_chars: answered before any import of the index

interleaved with ``python -c pass``. Goal (issue 11): at most 3 times ``python -c pass``. Also
prints the cold build of the index (first run) and what importing sqlite3 costs here.

    python benchmarks/bench_user_prompt.py [--runs 21] [--check]
"""

import json
import os
import subprocess
import sys
import time

import harness
from harness import Case

from lazy_harness import paths
from lazy_harness.memory import files
from tests.support import memory_samples as ms

GOAL = 3.0
WARM, CATCH, SHORT = "UserPromptSubmit, warm index", "UserPromptSubmit, catch-up 100", "UserPromptSubmit, short prompt"
PROMPT = "the deploy scheduler ran twice last night, can we lock it in postgres"


def sqlite_import_ms(env: dict) -> float:
    p = subprocess.run([sys.executable, "-X", "importtime", "-c", "import sqlite3"], capture_output=True, env=env)
    for line in p.stderr.decode().splitlines():
        if line.rstrip().endswith("| sqlite3"):
            return int(line.split("|")[1]) / 1000
    return float("nan")


def main() -> int:
    opts = harness.parse_args(__doc__)
    with harness.temp_home(opts.keep) as (root, env):
        now = time.time()
        big = ms.make_project(root, "big-project", branch="main")
        started = time.perf_counter()
        ms.build_large(big, env, now, name="big-project")
        mem = paths.memory_dir(big, env)
        ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(
            now, "Use Postgres advisory locks for the deployment scheduler", "two runners deployed at once",
            project="big-project")])
        print(f"built 10,000 decisions, 5,000 failures, 3,000 learnings and a handoff in "
              f"{time.perf_counter() - started:.1f} s under {root}")
        log = os.path.join(paths.logs_dir(env), "hooks.log")
        # why: the word bar alone; with the semantic extra installed, the default would start the
        # embedder, whose warm-up of 18,000 entries would load the machine while it is timed
        # (benchmarks/bench_user_prompt_semantic.py times the hook with it)
        words = os.path.join(root, "words.toml")
        with open(words, "w", encoding="utf-8") as fh:
            fh.write("[recall]\nsemantic = false\n")
        env["LH_CONFIG"] = words
        runs = [0]

        def payload(prompt: str) -> bytes:
            runs[0] += 1
            return json.dumps({"session_id": "7d2f4c1a-0b3e-4f5a-9c8d-1e2f3a4b5c6d", "cwd": big,
                               "transcript_path": f"{root}/t.jsonl", "hook_event_name": "UserPromptSubmit",
                               "permission_mode": "default", "prompt": prompt}).encode()

        def expect(word: str):
            def check(proc) -> None:
                with open(log, encoding="utf-8") as fh:
                    last = fh.read().splitlines()[-1]
                if word not in last or "error" in last:
                    sys.exit(f"unexpected hook run: {last}")
            return check

        hook = [sys.executable, "-m", "lazy_harness.hooks", "UserPromptSubmit"]
        # every run is a new session (so each one injects), through a fresh state file name
        cold = Case("cold", hook, payload(PROMPT), env, check=expect("injected 1"))
        took = harness.run_once(cold)
        print(f"first run, building the index of 18,001 entries: {took:.2f} s; sqlite3 import: "
              f"{sqlite_import_ms(env):.1f} ms")
        cases = harness.bare_cases(env) + [
            Case(WARM, hook, payload(PROMPT), env, check=expect("passed=")),
            Case(SHORT, hook, payload("fix the typo"), env, check=expect("skipped: prompt under")),
        ]
        cpu: dict = {}
        times = harness.measure(cases, opts.runs, cpu=cpu)
        # catch-up: append 100 entries before each timed run (untimed), interleaved with bare starts
        catch = Case(CATCH, hook, payload(PROMPT), env, check=expect("indexed=100"))
        bare = cases[0]
        times[CATCH] = []
        extra_bare = []
        for r in range(opts.runs):
            ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
                ms.decision(now + r * 100 + i, f"appended decision {r}-{i}", "new", project="big-project",
                            tags=["bench", "appended"], cues=[f"why does step {i} of run {r} take so long",
                                                             "where is the appended work recorded",
                                                             "what changed in the nightly batch"])
                for i in range(100)])
            wall, used = harness.run_once_cpu(catch)
            times[CATCH].append(wall)
            cpu.setdefault(CATCH, []).append(used)
            extra_bare.append(harness.run_once(bare))
        times[harness.BARE] += extra_bare
    ok = harness.report(times, goals={WARM: GOAL, CATCH: GOAL, SHORT: GOAL}, title="UserPromptSubmit")
    harness.cpu_report(cpu)
    return 1 if opts.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
