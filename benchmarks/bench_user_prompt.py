"""UserPromptSubmit hook cost on a large memory, with the resident embedder and with words only,
against a bare start of the same interpreter.

Builds, in a temporary HOME, a project with 10,000 decisions, 5,000 failures, 3,000 learnings and a
handoff (plus one decision the prompt is about, with cues; 1,500 of the others share a word with the
prompt, "database", which the prompt's "postgres" reaches through its related words), then times
the command Claude Code runs,
``<python> -m lazy_harness.hooks UserPromptSubmit`` with the JSON payload on stdin:

  warm index, embedder   the default (``recall.semantic``, lazy-harness[semantic] installed): the
                         prompt goes to the embedder, the index is searched meanwhile, then the
                         candidates' similarities are asked for. The embedder is started and has
                         embedded every entry before the timed runs (it prints how long that took)
  warm index, words      ``recall.semantic = false``: the strength bar alone
  catch-up 100, ...      before each timed run, 100 new decisions (with tags and three cues each, as
                         the distill prompt asks) are appended to decisions.jsonl (untimed), so the
                         run first indexes them; with the embedder, the untimed wait after the run
                         lets it embed them, so its warm-up does not load the machine during the
                         next timed runs (prompts come seconds apart)
  short prompt           under recall.min_prompt_chars: answered before any import of the index

interleaved with ``python -c pass``. Goal (issue 11): at most 3 times ``python -c pass``. Without
the semantic extra the embedder's cases are left out, and said so. Also prints the cold build of
the index (first run) and what importing sqlite3 and its C module cost here.

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
WARM_EMB, WARM_WORDS = "UserPromptSubmit, warm index, embedder", "UserPromptSubmit, warm index, words"
CATCH_EMB, CATCH_WORDS = "UserPromptSubmit, catch-up 100, embedder", "UserPromptSubmit, catch-up 100, words"
SHORT = "UserPromptSubmit, short prompt"
PROMPT = "the deploy scheduler ran twice last night, can we lock it in postgres"


def import_ms(env: dict, module: str) -> float:
    p = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"], capture_output=True, env=env)
    for line in p.stderr.decode().splitlines():
        if line.rstrip().endswith(f"| {module}"):
            return int(line.split("|")[1]) / 1000
    return float("nan")


def semantic_installed() -> str:
    """"" when the model can load here, else why not."""
    from lazy_harness.recall import embedder

    try:
        embedder.model_files()
        import numpy  # noqa: F401
        import onnxruntime  # noqa: F401
        import tokenizers  # noqa: F401
    except (embedder.ModelUnavailable, ImportError) as exc:
        return str(exc)
    return ""


def config(root: str, name: str, semantic: bool) -> str:
    """A config as ``lh hooks install`` leaves it (the compound loop on: the hook also tells the
    sweep about the session), with the embedder on or off."""
    path = os.path.join(root, f"{name}.toml")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"[compound_loop]\nenabled = true\n\n[recall]\nsemantic = {'true' if semantic else 'false'}\n")
    return path


def main() -> int:
    opts = harness.parse_args(__doc__)
    missing = semantic_installed()
    with harness.temp_home(opts.keep) as (root, env):
        now = time.time()
        big = ms.make_project(root, "big-project", branch="main")
        started = time.perf_counter()
        # why: 1 in 10 decisions and failures (1,500) share a word with the prompt, as a real memory's
        # common words do: the search ranks every entry that shares one (a prompt matching nothing
        # but its one decision would flatter the hook). The entries appended for the catch-up share
        # none, so every catch-up run searches the same 1,500 as the warm runs
        ms.build_large(big, env, now, name="big-project", mention="database")
        mem = paths.memory_dir(big, env)
        ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(
            now, "Use Postgres advisory locks for the deployment scheduler", "two runners deployed at once",
            project="big-project", tags=["scheduler", "locking"],
            cues=["the deploy job ran twice at the same time", "how do we stop two schedulers racing"])])
        print(f"built 10,000 decisions, 5,000 failures, 3,000 learnings and a handoff in "
              f"{time.perf_counter() - started:.1f} s under {root}")

        def payload(prompt: str) -> bytes:
            return json.dumps({"session_id": "7d2f4c1a-0b3e-4f5a-9c8d-1e2f3a4b5c6d", "cwd": big,
                               "transcript_path": f"{root}/t.jsonl", "hook_event_name": "UserPromptSubmit",
                               "permission_mode": "default", "prompt": prompt}).encode()

        def expect(case_env: dict, *words: str):
            log = os.path.join(paths.logs_dir(case_env), "hooks.log")

            def check(proc) -> None:
                with open(log, encoding="utf-8") as fh:
                    last = fh.read().splitlines()[-1]
                if not all(w in last for w in words) or "error" in last:
                    sys.exit(f"unexpected hook run: {last}")
            return check

        hook = harness.hook_command("UserPromptSubmit")
        # why: a Claude folder of its own for the word bar: the hooks keep one compiled config per
        # state folder, and two config files taking turns in one would be compiled again at every run
        words_env = dict(env, LH_CONFIG=config(root, "words", False), CLAUDE_CONFIG_DIR=os.path.join(root, "claude-words"))
        semantic_env = dict(env, LH_CONFIG=config(root, "semantic", True))
        took = harness.run_once(Case("cold", hook, payload(PROMPT), words_env, check=expect(words_env, "passed=")))
        print(f"first run, building the index of 18,001 entries: {took:.2f} s; import sqlite3: "
              f"{import_ms(env, 'sqlite3'):.1f} ms, of which its C module _sqlite3 (what the hook imports): "
              f"{import_ms(env, '_sqlite3'):.1f} ms")
        embedder = None
        if missing:
            print(f"the embedder's cases are left out: {missing}")
        else:
            from tests.eval.recall_eval import start_embedder

            started = time.perf_counter()
            embedder = start_embedder(semantic_env)  # answers once every entry is embedded
            print(f"the embedder started and embedded every entry in {time.perf_counter() - started:.1f} s")
        try:
            return run(opts, env, words_env, semantic_env, embedder, hook, payload, expect, mem, now)
        finally:
            if embedder is not None:
                from tests.eval.recall_eval import stop_embedder

                stop_embedder(embedder)


def run(opts, env, words_env, semantic_env, embedder, hook, payload, expect, mem, now) -> int:
    cases = harness.bare_cases(env) + [
        Case(WARM_WORDS, hook, payload(PROMPT), words_env, check=expect(words_env, "passed=", "semantic=off")),
        Case(SHORT, hook, payload("fix the typo"), semantic_env, check=expect(semantic_env, "skipped: prompt under")),
    ]
    if embedder is not None:
        cases.insert(2, Case(WARM_EMB, hook, payload(PROMPT), semantic_env,
                             check=expect(semantic_env, "passed=", "best_sim=")))
    cpu: dict = {}
    times = harness.measure(cases, opts.runs, cpu=cpu)
    # catch-up: append 100 entries before each timed run (untimed), interleaved with bare starts
    catches = [Case(CATCH_WORDS, hook, payload(PROMPT), words_env, check=expect(words_env, "indexed=100", "semantic=off"))]
    if embedder is not None:
        catches.append(Case(CATCH_EMB, hook, payload(PROMPT), semantic_env,
                            check=expect(semantic_env, "indexed=100", "best_sim=")))
    bare = cases[0]
    for case in catches:
        times[case.name] = []
    extra_bare = []
    from lazy_harness.recall import embed_client

    for r in range(opts.runs):
        for n, case in enumerate(catches):
            ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
                ms.decision(now + (2 * r + n) * 100 + i, f"appended decision {r}-{n}-{i}", "new", project="big-project",
                            tags=["bench", "appended"], cues=[f"why does step {i} of run {r} take so long",
                                                             "where is the appended work recorded",
                                                             "what changed in the weekly batch"])
                for i in range(100)])
            wall, used = harness.run_once_cpu(case)
            times[case.name].append(wall)
            cpu.setdefault(case.name, []).append(used)
            if embedder is not None:
                ready, why = embed_client.warm(semantic_env, paths.recall_index_file(semantic_env), 600.0)
                if ready is None:
                    sys.exit(f"the embedder did not warm up again: {why}")
            extra_bare.append(harness.run_once(bare))
    times[harness.BARE] += extra_bare
    goals = {name: GOAL for name in times if name.startswith("UserPromptSubmit")}
    ok = harness.report(times, goals=goals, title="UserPromptSubmit, 18,001 entries")
    harness.cpu_report(cpu)
    if embedder is not None:
        print("CPU time above is the hook's own; the embedder's share of a prompt runs in its process")
    return 1 if opts.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
