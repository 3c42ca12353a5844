"""UserPromptSubmit hook cost with the resident embedder (lazy-harness[semantic], ADR 0020), against
the same hook with words only and a bare start of the same interpreter.

Builds, in a temporary HOME, a project with 1,500 decisions, 500 failures and 200 learnings (plus one
decision the prompt is about, with cues), starts the embedder and waits until it has embedded every
entry, then times ``<python> -m lazy_harness.hooks UserPromptSubmit`` with the JSON payload on stdin:

  words      ``recall.semantic = false``: the strength bar, no embedder asked
  embedder   the default: the candidates are sent to the embedder, which embeds the prompt and
             answers each candidate's similarity from its cache

interleaved with ``python -c pass``. Goal (issue 11): at most 3 times ``python -c pass``. The
memory is smaller than bench_user_prompt.py's 18,000 entries only so that the embedder's first
warm-up stays short; a prompt sends at most 60 candidates whatever the memory's size.

    python benchmarks/bench_user_prompt_semantic.py [--runs 21] [--check]
"""

import json
import os
import sys
import time

import harness
from harness import Case

from lazy_harness import paths
from lazy_harness.memory import files
from tests.eval.recall_eval import start_embedder, stop_embedder
from tests.support import memory_samples as ms

GOAL = 3.0
WORDS, EMBEDDER = "UserPromptSubmit, words", "UserPromptSubmit, embedder warm"
PROMPT = "the deploy scheduler ran twice last night, can we lock it in postgres"


def config(root: str, name: str, semantic: bool) -> str:
    path = os.path.join(root, f"{name}.toml")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"[recall]\nsemantic = {'true' if semantic else 'false'}\n")
    return path


def main() -> int:
    opts = harness.parse_args(__doc__)
    with harness.temp_home(opts.keep) as (root, env):
        now = time.time()
        big = ms.make_project(root, "big-project", branch="main")
        ms.build_large(big, env, now, decisions=1_500, failures=500, learnings=200, name="big-project")
        mem = paths.memory_dir(big, env)
        ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(
            now, "Use Postgres advisory locks for the deployment scheduler", "two runners deployed at once",
            project="big-project", tags=["scheduler", "locking"],
            cues=["the deploy job ran twice at the same time", "how do we stop two schedulers racing"])])
        payload = json.dumps({"session_id": "7d2f4c1a-0b3e-4f5a-9c8d-1e2f3a4b5c6d", "cwd": big,
                              "transcript_path": f"{root}/t.jsonl", "hook_event_name": "UserPromptSubmit",
                              "permission_mode": "default", "prompt": PROMPT}).encode()

        def expect(word: str, case_env: dict):
            log = os.path.join(paths.logs_dir(case_env), "hooks.log")

            def check(proc) -> None:
                with open(log, encoding="utf-8") as fh:
                    last = fh.read().splitlines()[-1]
                if word not in last or "error" in last:
                    sys.exit(f"unexpected hook run: {last}")
            return check

        hook = [sys.executable, "-m", "lazy_harness.hooks", "UserPromptSubmit"]
        # why: a Claude folder of its own for the word bar: the hooks keep one compiled config per
        # state folder, and two config files taking turns in one would be compiled again at every run
        words_env = dict(env, LH_CONFIG=config(root, "words", False), CLAUDE_CONFIG_DIR=os.path.join(root, "claude-words"))
        semantic_env = dict(env, LH_CONFIG=config(root, "semantic", True))
        started = time.perf_counter()
        harness.run_once(Case("index", hook, payload, words_env, check=expect("semantic=off", words_env)))
        embedder = start_embedder(semantic_env)  # answers once every entry is embedded
        try:
            print(f"built 2,201 entries, indexed and embedded them in {time.perf_counter() - started:.1f} s")
            cases = harness.bare_cases(env) + [
                Case(WORDS, hook, payload, words_env, check=expect("semantic=off", words_env)),
                Case(EMBEDDER, hook, payload, semantic_env, check=expect("best_sim=", semantic_env)),
            ]
            cpu: dict = {}
            times = harness.measure(cases, opts.runs, cpu=cpu)
        finally:
            stop_embedder(embedder)
    ok = harness.report(times, goals={WORDS: GOAL, EMBEDDER: GOAL}, title="UserPromptSubmit with the embedder")
    harness.cpu_report(cpu)
    print("CPU time above is the hook's own; the embedder's share of a prompt runs in its process")
    return 1 if opts.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
