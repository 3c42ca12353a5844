"""Prompt recall, measured: recall@5 and noise through the real UserPromptSubmit hook, against a
count-ranked grep baseline in the same run.

    python -m tests.eval.recall_eval [--set tests.eval.recall_set] [--verbose]

Builds the set's memory in a temporary HOME (the store's file formats), then runs the hook as Claude
Code does (a subprocess, JSON on stdin, a new session id per prompt) for every prompt.

  recall@5  share of labelled prompts where an expected entry is among the first 5 injected
  noise     share of prompts with no relevant memory that got any injection at all
  grep      each entry in the hook's scope scores the number of distinct prompt words (3+ letters)
            found in its text; the 5 best with a score above 0 are its answer
"""

import argparse
import importlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.support import memory_samples as ms  # noqa: E402

ID = re.compile(r"\b([dflh]-[0-9a-f]{8})\b")
DAY = 86400.0


def entry_id(e: dict) -> str:
    if e["kind"] in ("decision", "failure"):
        return ids.entry_id(e["kind"], e["summary"])
    if e["kind"] == "learning":
        return ids.learning_id(e["origin"], e["title"])
    return ids.handoff_id(e["text"])


def build(root: str, env: dict, entries: list[dict], projects, now: float) -> dict[str, str]:
    """Write the memory of every project and the learnings; returns {project: its folder}."""
    dirs = {p: ms.make_project(root, p) for p in projects}
    ldir = paths.learnings_dir(None, env)
    jsonl: dict[tuple, list] = {}
    handoffs: dict[str, list] = {}
    for n, e in enumerate(entries):
        t = now - 200 * DAY + n * 3600
        if e["kind"] == "decision":
            rec = ms.decision(t, e["summary"], e["rationale"], project=e["project"], context=e["context"],
                              alternatives=e["alternatives"], tags=e["tags"])
            jsonl.setdefault((e["project"], files.DECISIONS), []).append(rec)
        elif e["kind"] == "failure":
            rec = ms.failure(t, e["summary"], e["prevention"], project=e["project"], root_cause=e["root_cause"],
                             resolution=e["resolution"], tags=e["tags"])
            jsonl.setdefault((e["project"], files.FAILURES), []).append(rec)
        elif e["kind"] == "learning":
            ms.write_learning(ldir, e["title"], e["origin"], t, learning=e["learning"], scope=e["scope"],
                              tags=e["tags"], slug=f"{e['key']}")
        else:
            handoffs.setdefault(e["project"], []).append(e["text"])
    for (project, name), recs in jsonl.items():
        ms.write_jsonl(os.path.join(paths.memory_dir(dirs[project], env), name), recs)
    for project, items in handoffs.items():
        ms.write_handoff(paths.memory_dir(dirs[project], env), items, "sess-eval", now - 3600, project=project)
    return dirs


def hook(prompt: str, cwd: str, env: dict, sid: str) -> list[str]:
    """The ids the hook injected for ``prompt``, in order."""
    payload = {"session_id": sid, "transcript_path": os.path.join(cwd, "t.jsonl"), "cwd": cwd,
               "hook_event_name": "UserPromptSubmit", "permission_mode": "default", "prompt": prompt}
    p = subprocess.run([sys.executable, "-m", "lazy_harness.hooks", "UserPromptSubmit"],
                       input=json.dumps(payload).encode(), capture_output=True, env=env, timeout=60)
    if p.returncode != 0 or p.stderr.strip():
        raise RuntimeError(f"hook failed: {p.returncode} {p.stderr.decode()[-500:]}")
    if not p.stdout.strip():
        return []
    text = json.loads(p.stdout)["hookSpecificOutput"]["additionalContext"]
    return list(dict.fromkeys(ID.findall(text)))


def _grep_text(e: dict) -> str:
    return " ".join(str(v) for k, v in e.items() if k not in ("key", "kind", "project", "origin", "scope")).lower()


def in_scope(e: dict, project: str) -> bool:
    if e["kind"] == "learning":
        return e["origin"] == project or e["scope"] == "general"
    return e["project"] == project


def grep(prompt: str, project: str, entries: list[dict]) -> list[str]:
    words = {w for w in re.findall(r"[a-z0-9]+", prompt.lower()) if len(w) >= 3}
    scored = []
    for n, e in enumerate(entries):
        if in_scope(e, project):
            text = _grep_text(e)
            score = sum(1 for w in words if w in text)
            if score:
                scored.append((-score, n, entry_id(e)))
    scored.sort()
    return [i for _, _, i in scored[:5]]


def evaluate(set_module: str = "tests.eval.recall_set", verbose: bool = False, base_env: dict | None = None) -> dict:
    data = importlib.import_module(set_module)
    entries = data.ENTRIES
    key_id = {e["key"]: entry_id(e) for e in entries}
    id_key = {v: k for k, v in key_id.items()}
    with tempfile.TemporaryDirectory(prefix="lh-eval-") as root:
        env = {k: v for k, v in (base_env or os.environ).items()
               if k not in ("CLAUDE_CONFIG_DIR", "LH_CONFIG", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
                            "LH_WORKER_CALL", "CLAUDE_PROJECT_DIR")}
        env["HOME"] = os.path.join(root, "home")
        os.makedirs(env["HOME"])
        now = time.time()
        dirs = build(root, env, entries, data.PROJECTS, now)
        res = {"hook": {"hits": 0, "labelled": 0, "noise": 0, "empty": 0, "injected": 0},
               "grep": {"hits": 0, "labelled": 0, "noise": 0, "empty": 0}}
        for n, (project, prompt, expected) in enumerate(data.PROMPTS):
            got = hook(prompt, dirs[project], env, f"eval-{n:04d}")
            base = grep(prompt, project, entries)
            want = {key_id[k] for k in expected}
            for name, answer in (("hook", got[:5]), ("grep", base)):
                r = res[name]
                if want:
                    r["labelled"] += 1
                    r["hits"] += bool(want & set(answer))
                else:
                    r["empty"] += 1
                    r["noise"] += bool(answer)
            res["hook"]["injected"] += len(got)
            if verbose and ((want and not want & set(got[:5])) or (not want and got)):
                print(f"MISS {project}: {prompt!r} want {sorted(expected)} got {[id_key.get(i, i) for i in got]}")
    for r in res.values():
        r["recall_at_5"] = r["hits"] / max(1, r["labelled"])
        r["noise_rate"] = r["noise"] / max(1, r["empty"])
    res["entries"], res["prompts"] = len(entries), len(data.PROMPTS)
    return res


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", default="tests.eval.recall_set", help="module holding ENTRIES, PROMPTS, PROJECTS")
    parser.add_argument("--verbose", action="store_true", help="print every miss and every noisy prompt")
    opts = parser.parse_args()
    started = time.perf_counter()
    res = evaluate(opts.set, opts.verbose)
    print(f"{res['entries']} entries, {res['prompts']} prompts ({res['hook']['labelled']} labelled, "
          f"{res['hook']['empty']} with no relevant memory), {time.perf_counter() - started:.1f} s")
    for name in ("hook", "grep"):
        r = res[name]
        print(f"{name:<5} recall@5 {r['recall_at_5']:.3f} ({r['hits']}/{r['labelled']})   "
              f"noise {r['noise_rate']:.3f} ({r['noise']}/{r['empty']})")
    print(f"hook injected {res['hook']['injected']} entries in all (goal: recall@5 >= 0.85, noise <= 1/6)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
