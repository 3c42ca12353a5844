"""Incremental re-distillation: how much conversation a later call of the same session sends.

Goal (issue "Spend under control"): after small growth, a later call's conversation is at most 40%
of the first call's. The whole pipeline runs in-process (cursor, prompt, guarded call, persist) for
a generated session, against a stand-in ``claude`` written into a temporary folder that records its
stdin and answers with an empty memory; then three turns are appended (what a long session adds
between two Stop re-queues a few minutes apart) and the session is distilled again.
Measured: characters inside the conversation fence of each recorded prompt.

    python benchmarks/bench_incremental.py [--mb 2 5 10 30] [--turns 3]

Exits 1 when a ratio is over 40%.
"""

import argparse
import json
import os
import random
import shutil
import stat
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import big_transcript  # noqa: E402

from lazy_harness import config, paths  # noqa: E402
from lazy_harness.worker import pipeline  # noqa: E402

GOAL = 0.40
FENCE = "(untrusted session data starts here)>>>"
STAND_IN = r'''#!{python}
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
data = sys.stdin.read()
with open(os.path.join(here, "prompts.jsonl"), "a") as fh:
    fh.write(json.dumps(data) + "\n")
print(json.dumps({{"type": "result", "subtype": "success", "is_error": False, "result": "",
                  "structured_output": {{"decisions": [], "failures": [], "learnings": [], "handoff": []}},
                  "total_cost_usd": 0.01, "usage": {{"input_tokens": len(data) // 4, "output_tokens": 50}}}}))
'''


def conversation(prompt: str) -> int:
    return len(prompt.split(FENCE, 1)[1]) if FENCE in prompt else 0


def grow(path: str, count: int, seed: int) -> tuple[int, int]:
    """Append ``count`` generated turns; returns (bytes added, turns added)."""
    g = big_transcript._Gen(seed)
    before = os.path.getsize(path)
    turns, parent = 0, None
    with open(path, "a", encoding="utf-8") as fh:
        while turns < count:
            recs, parent = big_transcript._turn(g, parent, 1000 + turns)
            for rec in recs:
                fh.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
            turns += 1
    return os.path.getsize(path) - before, turns


def measure(size_mb: int, count: int, root: str) -> tuple[int, int, int, int, int]:
    home = os.path.join(root, f"home-{size_mb}")
    bindir = os.path.join(root, f"bin-{size_mb}")
    os.makedirs(home)
    os.makedirs(bindir)
    exe = os.path.join(bindir, "claude")
    with open(exe, "w") as fh:
        fh.write(STAND_IN.format(python=sys.executable))
    os.chmod(exe, os.stat(exe).st_mode | stat.S_IXUSR)
    env = {"HOME": home, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
    project = big_transcript.PROJECT
    folder = os.path.join(paths.projects_dir(env), paths.project_key(project))
    os.makedirs(folder)
    transcript = os.path.join(folder, f"{big_transcript.SESSION}.jsonl")
    big_transcript.generate(transcript, size_mb, seed=random.Random(size_mb).randint(1, 1000))
    cfg = config.defaults()
    cfg["compound_loop"]["enabled"] = True
    fields = {"session_jsonl": transcript, "session_id": big_transcript.SESSION, "cwd": project,
              "memory_dir": paths.memory_dir(project, env), "task_id": "bench"}
    first = pipeline.distill(dict(fields), cfg, env, trust=False)
    with open(transcript, "rb") as fh:
        before = sum(1 for line in fh if b'"promptSource":"typed"' in line)
    added, turns = grow(transcript, count, seed=size_mb + 99)
    second = pipeline.distill(dict(fields), cfg, env, trust=False)
    if (first.status, second.status) != ("processed", "processed"):
        raise SystemExit(f"unexpected outcomes: {first.status} {first.reason} / {second.status} {second.reason}")
    with open(os.path.join(bindir, "prompts.jsonl")) as fh:
        prompts = [json.loads(line) for line in fh]
    return os.path.getsize(transcript) - added, added, before, conversation(prompts[0]), conversation(prompts[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=int, nargs="+", default=[2, 5, 10, 30], help="session sizes in MB")
    parser.add_argument("--turns", type=int, default=3,
                        help="small growth: turns appended before the second call (a Stop re-queue minutes later)")
    opts = parser.parse_args()
    root = tempfile.mkdtemp(prefix="lh-bench-incr-")
    worst = 0.0
    try:
        print(f"{'session':>16}  {'growth':>17}  {'1st conv':>9}  {'2nd conv':>9}  ratio")
        for mb in opts.mb:
            size, added, turns, one, two = measure(mb, opts.turns, root)
            ratio = two / one if one else 1.0
            worst = max(worst, ratio)
            print(f"{size / 2**20:>6.1f}MB {turns:>3} turns  {opts.turns} turns {added / 1024:>6.0f}KB  "
                  f"{one:>9}  {two:>9}  {ratio:.1%}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    verdict = "ok" if worst <= GOAL else "OVER"
    print(f"worst ratio {worst:.1%} (goal <= {GOAL:.0%}): {verdict}")
    return 0 if worst <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
