"""Speed of ``redact.redact`` in MB/s, against an older version of the module measured in the same run.

The worker redacts the prompt (at most ``prompt_max_chars``) and the model's answer; both are text
like this: three inputs of about ``--mb`` MB each are timed.

- ``corpus``: tests/fixtures/redact_corpus.txt (ordinary code, prose, logs; nothing to redact)
  repeated, with one line of credentials of every kind the module knows after each copy;
- ``json``: the same text as one JSON string (escaped newlines and quotes, as in an answer);
- ``transcript``: the recorded tests/fixtures/transcripts/*.jsonl, concatenated and repeated.

``--against REV`` loads the redactor as it is at git revision REV (``git show``; ``redact.py`` or the
``redact/`` package)
and times it in the same rounds: each round runs every version on every input once, taking turns.
Figures are medians of wall time, in-process, and of CPU time (steadier on a busy machine). Then,
for each version, what it replaces in the corpus alone (every replacement there is a false
positive) and in the line of credentials, by kind.

    python benchmarks/bench_redact.py [--mb 1] [--runs 9] [--against f1079a3]
"""

import argparse
import atexit
import glob
import importlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")

# one of each credential shape, built by concatenation so this file does not look like it holds any
SHAPES = [
    "AKIA" + "Q3EXAMPLE7KEYZ2X", "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "sk-ant-" + "api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-AbCdEf", "password=" + "hunter2x",
    "PGPASSWORD=" + "s3cr3t", "redis://:" + "pw9x@cache:6379", "curl -u bob:" + "pa55 https://x.io",
    "glpat-" + "Xk29fLq8Rm3Tz7Wv1Yp4", "npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "aws secret " + "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY",
    # issue 26, item 4
    "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLSYs", "STRIPE_KEY=" + "pk9Lm2Qx7Z", "DB_PASS_2=" + "Tr0ub4dor3",
    "machine h.example.com login u password " + "pw9xQ2", "echo " + "Hunter2pw" + " | sudo -S true",
]
SECRETS = " ".join(SHAPES)


def load(rev: str | None) -> types.ModuleType:
    if rev is None:
        from lazy_harness import redact
        return redact

    def show(path: str) -> str | None:
        done = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True)
        return done.stdout if done.returncode == 0 else None

    # the module, or every module of the package, under a name of its own in a temporary folder, its
    # imports of lazy_harness.redact turned to that name (the working tree's modules stay out of it)
    name = "redact_" + re.sub(r"[^A-Za-z0-9_]", "_", rev)
    folder = tempfile.mkdtemp(prefix="bench_redact_")
    atexit.register(shutil.rmtree, folder, True)
    single = show("src/lazy_harness/redact.py")
    if single is not None:
        sources = {os.path.join(folder, name + ".py"): single}
    else:
        listed = subprocess.run(["git", "ls-tree", "--name-only", rev, "src/lazy_harness/redact/"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout.split()
        os.mkdir(os.path.join(folder, name))
        sources = {os.path.join(folder, name, os.path.basename(path)): show(path) or ""
                   for path in listed if path.endswith(".py")}
    for path, source in sources.items():
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(source.replace("lazy_harness.redact", name))
    sys.path.insert(0, folder)
    return importlib.import_module(name)


def inputs(mb: float) -> dict[str, str]:
    size = int(mb * 2**20)
    with open(os.path.join(FIXTURES, "redact_corpus.txt"), encoding="utf-8") as fh:
        corpus = fh.read() + SECRETS + "\n"
    recorded = ""
    for path in sorted(glob.glob(os.path.join(FIXTURES, "transcripts", "*.jsonl"))):
        with open(path, encoding="utf-8") as fh:
            recorded += fh.read()

    def grow(unit: str) -> str:
        return (unit * (size // len(unit) + 1))[:size]

    text = grow(corpus)
    return {"corpus": text, "json": json.dumps(text)[:size], "transcript": grow(recorded)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=1.0, help="size of each input in MB (default 1)")
    parser.add_argument("--runs", type=int, default=9, help="timed rounds (default 9)")
    parser.add_argument("--against", metavar="REV", help="also time the redactor as it is at this git revision")
    opts = parser.parse_args()
    versions = {"working tree": load(None)}
    if opts.against:
        versions[opts.against] = load(opts.against)
    texts = inputs(opts.mb)
    times: dict[tuple[str, str], list[float]] = {(v, t): [] for v in versions for t in texts}
    cpu: dict[tuple[str, str], list[float]] = {key: [] for key in times}
    counts = {}
    for name, module in versions.items():  # one untimed round: compiles the patterns
        for label, text in texts.items():
            counts[name, label] = module.redact(text)[1]
    for r in range(opts.runs):
        order = list(times)
        k = r % len(order)
        for name, label in order[k:] + order[:k]:
            started, used = time.perf_counter(), time.process_time()
            versions[name].redact(texts[label])
            times[name, label].append(time.perf_counter() - started)
            cpu[name, label].append(time.process_time() - used)
    print(f"redact: Python {sys.version.split()[0]}, {opts.runs} interleaved rounds, inputs of {opts.mb:g} MB")
    print(f"{'version':<14} {'input':<11} {'median':>9} {'MB/s':>7} {'s/MB':>6} {'CPU':>9} {'CPU MB/s':>9} "
          f"{'redacted':>9}")
    for (name, label), values in times.items():
        med, used = statistics.median(values), statistics.median(cpu[name, label])
        mb = len(texts[label]) / 2**20
        print(f"{name:<14} {label:<11} {med * 1000:7.1f}ms {mb / med:7.2f} {med / mb:6.3f} {used * 1000:7.1f}ms "
              f"{mb / used:9.2f} {counts[name, label]:9d}")
    with open(os.path.join(FIXTURES, "redact_corpus.txt"), encoding="utf-8") as fh:
        corpus = fh.read()
    for title, text in (("false positives in redact_corpus.txt", corpus),
                        (f"credentials caught in a line of {len(SHAPES)}", SECRETS)):
        print(f"{title}:")
        for name, module in versions.items():
            kinds = Counter(re.findall(r"\[REDACTED:([a-z-]+)\]", module.redact(text)[0]))
            print(f"  {name:<14} {sum(kinds.values()):3d}  {dict(sorted(kinds.items()))}")


if __name__ == "__main__":
    main()
