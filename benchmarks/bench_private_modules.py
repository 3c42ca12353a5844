"""Each private interpreter module src uses against the public API it stands in for, measured in
the same run: what the import costs a hook, and what each call costs on realistic data.

House style: a private module (``_json``, ``_blake2``...) only where the public one costs more than
1 ms on a hook's path. The import is what differs: the public module drags in others (``json``
loads ``re``, ``enum``, ``functools``...; ``hashlib`` loads OpenSSL's ``_hashlib``). It is timed
inside a fresh interpreter started as the hook is (``python -S -P``, and with site as ``lh-hook``
runs), after the modules every hook loads at import time, so only what the hook would add counts;
the cases take turns within each round and the figures are medians.

Per call, on data like a user's: memory lines as tests/support/realistic_memory.py writes them and
a hook's stdin payload (``jsonload.loads`` against ``json.loads``), a SessionStart answer and handoff
records (``jsonload.dumps`` against ``json.dumps``), and summaries with escapes as
``memory.entries.recorded`` meets them (``json.decoder.scanstring`` against the documented
``json.JSONDecoder.raw_decode``).

    python benchmarks/bench_private_modules.py [--runs 31]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
for folder in (ROOT, SRC):
    if folder not in sys.path:
        sys.path.insert(0, folder)  # why: the data comes from the tests' builders; our modules from src

from lazy_harness import jsonload  # noqa: E402
from tests.support import memory_samples as ms  # noqa: E402
from tests.support import realistic_memory as rm  # noqa: E402

# what every hook has imported before it decodes, hashes or opens anything
PRELUDE = ("import lazy_harness.hooks.entry, lazy_harness.hooks.stop, lazy_harness.hooks.session_end, "
           "lazy_harness.hooks.session_start, lazy_harness.hooks.user_prompt")
SHA = "_sha2" if sys.version_info >= (3, 12) else "_sha256"
# (what, where in src, on a hook's path, public import, private import)
IMPORTS = (
    ("json", "jsonload.py loads/dumps: every hook's payload and answer", True, "import json", "import _json"),
    ("blake2b", "memory/ids.py, paths.remote_key: entry ids and memory keys", True,
     "from hashlib import blake2b", "from _blake2 import blake2b"),
    ("sha256", "sha.py: the Stop's turn digest, the approvals' MAC", True, "from hashlib import sha256",
     f"import {SHA}"),
    ("sqlite3", "recall/index/store.py: the prompt's search index", True, "import sqlite3", "import _sqlite3"),
)


def _child(prelude: str, stmt: str) -> str:
    return (f"import time\n{prelude}\nimport sys\nbefore = set(sys.modules)\nt = time.perf_counter_ns()\n{stmt}\n"
            "took = time.perf_counter_ns() - t\n"
            "print(took, ','.join(sorted(set(sys.modules) - before)))\n")


def import_costs(runs: int, site: bool) -> dict:
    """{(what, 'public'|'private'): [ms, ...]} and the modules each public import added."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONSTARTUP")}
    env["PYTHONPATH"] = SRC
    flags = ["-P"] if site else ["-S", "-P"]
    times: dict = {}
    added: dict = {}
    for _ in range(runs):
        for what, _, _, public, private in IMPORTS:
            for side, stmt in (("public", public), ("private", private)):
                out = subprocess.run([sys.executable, *flags, "-c", _child(PRELUDE, stmt)], env=env,
                                     capture_output=True, text=True, check=True).stdout.split()
                times.setdefault((what, side), []).append(int(out[0]) / 1e6)
                added[(what, side)] = out[1] if len(out) > 1 else ""
    return {"times": times, "added": added}


def _per_call(fn, items, rounds: int) -> float:
    """Median seconds of one pass of ``fn`` over ``items``."""
    passes = []
    for _ in range(rounds):
        t = time.perf_counter()
        for item in items:
            fn(item)
        passes.append(time.perf_counter() - t)
    return statistics.median(passes)


def memory_lines(n: int) -> list[str]:
    """``n`` decision and failure lines as a user's memory holds them (realistic_memory's words)."""
    w = rm.Writer(seed=11)
    now = time.time()
    lines = []
    for i in range(n):
        if i % 3 == 2:
            rec = ms.failure(now - i * 60, w.sentence(7, 14), w.sentence(12, 24), project="p",
                             root_cause=w.sentence(12, 24), resolution=w.sentence(10, 20), tags=w.tags(), cues=w.cues())
        else:
            rec = ms.decision(now - i * 60, w.sentence(7, 14), w.sentence(15, 30), project="p",
                              context=w.sentence(12, 28), alternatives=[w.text(4, 8), w.text(4, 8)],
                              tags=w.tags(), cues=w.cues())
        lines.append(json.dumps(rec, ensure_ascii=False))
    return lines


def payload() -> str:
    return json.dumps({"session_id": "0b7d6c1e-5a4f-4c1b-9d2e-3f8a7b6c5d4e", "hook_event_name": "UserPromptSubmit",
                       "transcript_path": "/home/me/.claude/projects/-home-me-src-app/0b7d6c1e.jsonl",
                       "cwd": "/home/me/src/app", "permission_mode": "default", "prompt": rm.PROMPTS[0]})


def answers(lines: list[str]) -> list:
    """What hooks and the store print with ``dumps``: a SessionStart answer (a digest of about 6 KB)
    and handoff records."""
    digest = "\n".join("- " + json.loads(line)["summary"] for line in lines[:80])
    out = [{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": digest}}]
    w = rm.Writer(seed=5)
    out += [{"op": "open", "id": f"h-{i:08x}", "text": w.sentence(6, 14), "ts": "2026-11-26T12:00:00+00:00",
             "session_id": "s", "project": "p"} for i in range(200)]
    return out


def escaped_summaries(lines: list[str]) -> list[str]:
    """A line's text from a summary's opening quote to its end, the summary holding escapes (a quote,
    a tab, a non-ASCII letter), as ``memory.entries.recorded`` hands it to the decoder."""
    out = []
    for line in lines:
        rec = json.loads(line)
        rec["summary"] = 'Quote "' + rec["summary"] + '"\tcafé'
        text = json.dumps(rec)
        out.append(text[text.index('"summary": ') + len('"summary": '):])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=31, help="fresh interpreters per import case (default 31)")
    opts = parser.parse_args()
    print(f"python {sys.version.split()[0]} ({sys.executable}); {opts.runs} runs per import case; "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")

    print("\n== import, in a fresh interpreter after the hooks' own imports (median ms)")
    verdict = {}
    for site in (False, True):
        found = import_costs(opts.runs, site)
        label = "with site (lh-hook)" if site else "-S -P (the settings.json command)"
        print(f"-- {label}")
        for what, where, _, public, _ in IMPORTS:
            pub = statistics.median(found["times"][(what, "public")])
            priv = statistics.median(found["times"][(what, "private")])
            gain = pub - priv
            verdict.setdefault(what, []).append(gain)
            extra = found["added"][(what, "public")].split(",")
            print(f"{what:8} public {pub:6.2f}  private {priv:6.2f}  gain {gain:6.2f} ms   "
                  f"({public!r} adds {len([m for m in extra if m])} modules)   {where}")

    print("\n== per call, warm (median of the passes)")
    lines = memory_lines(3000)
    hook_in = [payload()] * 1000
    got = _per_call(jsonload.loads, lines, 15), _per_call(json.loads, lines, 15)
    assert all(jsonload.loads(x) == json.loads(x) for x in lines[:200])
    print(f"loads, 1,000 memory lines: jsonload {got[0] / 3 * 1e3:.2f} ms  json {got[1] / 3 * 1e3:.2f} ms")
    got = _per_call(jsonload.loads, hook_in, 15), _per_call(json.loads, hook_in, 15)
    print(f"loads, one hook payload:   jsonload {got[0]:.4f} ms  json {got[1]:.4f} ms")
    objs = answers(lines)
    assert all(jsonload.dumps(o) == json.dumps(o) for o in objs)
    got = _per_call(jsonload.dumps, objs[:1], 200), _per_call(json.dumps, objs[:1], 200)
    print(f"dumps, a SessionStart answer ({len(json.dumps(objs[0])):,} bytes): jsonload {got[0] * 1e3:.3f} ms  "
          f"json {got[1] * 1e3:.3f} ms")
    got = _per_call(jsonload.dumps, objs[1:], 15), _per_call(json.dumps, objs[1:], 15)
    print(f"dumps, 200 handoff records: jsonload {got[0] * 1e3:.3f} ms  json {got[1] * 1e3:.3f} ms")
    texts = escaped_summaries(lines[:1000])
    decoder = json.JSONDecoder()
    scan = json.decoder.scanstring
    assert all(scan(t[1:], 0)[0] == decoder.raw_decode(t)[0] for t in texts)
    got = _per_call(lambda t: scan(t[1:], 0), texts, 15), _per_call(decoder.raw_decode, texts, 15)
    print(f"1,000 escaped summaries (memory.entries.recorded, the worker's de-dup; no hook): "
          f"json.decoder.scanstring {got[0] * 1e3:.3f} ms  JSONDecoder.raw_decode {got[1] * 1e3:.3f} ms")

    print("\n== verdict (house style: keep a private module only for a gain over 1 ms on a hook's path)")
    for what, _, hook, public, private in IMPORTS:
        low = min(verdict[what])
        keep = hook and low > 1.0
        print(f"{what:8} gain {low:.2f} ms at least: {'keep ' + private if keep else 'use ' + public}")
    print("scanstring: not on a hook's path (memory.entries is the worker's): use json.JSONDecoder.raw_decode")


if __name__ == "__main__":
    main()
