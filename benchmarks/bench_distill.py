"""``lh distill --dry-run`` on large transcripts: peak memory, prompt size, time per MB (issue 7).

Runs ``<python> -m lazy_harness distill --dry-run --project P T`` (read the whole transcript, build the
prompt, print it; no model call, nothing written) on generated transcripts of about 30, 100 and
300 MB (big_transcript.py: typed prompts, assistant text and tool calls, big tool outputs, request
snapshots; made once into a cache folder) and on the recorded tests/fixtures/transcripts/
interactive.jsonl (128 KB: the fixed cost of starting the CLI). Sizes take turns in every round,
with ``python -c pass`` among them. Each child is reaped with ``os.wait4``, so its own peak
resident memory (``ru_maxrss``) is known.

Goals: peak memory at most 200 MB; the prompt at most 120,000 characters (``prompt_max_chars``,
default config; checked again once with ``transcript_budget_chars`` at 10 times its default, so the
cap, not the budget, is what holds); time linear in size: the time per MB beyond the fixed cost on 300 MB at most 1.25
times that on 100 MB. Figures are with the transcripts in the page cache (they were just written or
read); a cold read adds the disk's own time.

    python benchmarks/bench_distill.py [--runs 15] [--sizes 30,100,300] [--check]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import big_transcript
import harness

MAX_RSS_MB = 200
MAX_PROMPT = 120_000
LINEAR = 1.25
FIXTURE = os.path.join(harness.ROOT, "tests", "fixtures", "transcripts", "interactive.jsonl")


def run(argv: list[str], env: dict, workdir: str) -> tuple[float, float, float, str]:
    """(wall s, CPU s, peak RSS MB, stderr) of one run; stdout goes to a file (the prompt is long)."""
    out_path, err_path = os.path.join(workdir, "out"), os.path.join(workdir, "err")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        started = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        took = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    with open(err_path, encoding="utf-8", errors="replace") as fh:
        stderr = fh.read()
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)}: exit {proc.returncode}\n{stderr[-2000:]}")
    return took, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stderr


def mb_of(path: str) -> float:
    return os.path.getsize(path) / 2**20


def prompt_chars(stderr: str) -> int:
    for line in stderr.splitlines():
        if line.startswith("# prompt: "):
            return int(line.split()[2])
    sys.exit(f"no '# prompt:' line in the output:\n{stderr[-1000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help=f"runs per size (at least {harness.MIN_RUNS})")
    parser.add_argument("--sizes", default="30,100,300", help="transcript sizes in MB (default 30,100,300)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    opts = parser.parse_args()
    if opts.runs < harness.MIN_RUNS:
        parser.error(f"--runs must be at least {harness.MIN_RUNS}")
    sizes = [int(s) for s in opts.sizes.split(",")]
    print(harness.interpreter_note())
    files = {"fixture (128 KB)": FIXTURE}
    for size in sizes:
        path = big_transcript.cached(size)
        files[f"{os.path.getsize(path) / 2**20:.0f} MB"] = path
    mb = {name: mb_of(path) for name, path in files.items()}
    with harness.temp_home() as (root, env), tempfile.TemporaryDirectory() as workdir:
        proj = os.path.join(root, "billing")
        os.makedirs(os.path.join(proj, ".git"))
        argv = {name: [sys.executable, "-m", "lazy_harness", "distill", "--dry-run", "--project", proj, path]
                for name, path in files.items()}
        argv[harness.BARE] = [sys.executable, "-c", "pass"]
        names = list(argv)
        wall = {n: [] for n in names}
        cpu = {n: [] for n in names}
        rss = {n: [] for n in names}
        prompts = {n: [] for n in names}
        for name in names:  # warm-up: page cache, bytecode
            run(argv[name], env, workdir)
        for r in range(opts.runs):
            k = r % len(names)
            for name in names[k:] + names[:k]:
                took, used, peak, stderr = run(argv[name], env, workdir)
                wall[name].append(took)
                cpu[name].append(used)
                rss[name].append(peak)
                if name != harness.BARE:
                    prompts[name].append(prompt_chars(stderr))
        # the prompt cap holds whatever the conversation budget: one more run with 10x the default budget
        cfg = harness.write_config(env, transcript_budget_chars=1_000_000)
        largest = max((n for n in files if n != "fixture (128 KB)"), key=lambda n: mb_of(files[n]))
        _, _, cap_rss, stderr = run(argv[largest], env, workdir)
        capped = prompt_chars(stderr)
        os.unlink(cfg)
    base = statistics.median(wall[harness.BARE])
    fixed = statistics.median(wall["fixture (128 KB)"])
    print(f"lh distill --dry-run: {opts.runs} interleaved runs per size; "
          f"python -c pass {base * 1000:.1f} ms (median)")
    print(f"{'transcript':<17} {'size':>9} {'median':>9} {'x bare':>7} {'CPU':>8} {'MB/s':>7} "
          f"{'net MB/s':>9} {'peak RSS':>9} {'prompt':>8}")
    per_mb = {}
    for name in names:
        if name == harness.BARE:
            continue
        med = statistics.median(wall[name])
        size = mb[name]
        net = med - fixed
        rate = size / med
        net_rate = size / net if net > 0 and size > 1 else float("nan")
        if size > 1:
            per_mb[name] = net / size
        print(f"{name:<17} {size:7.1f}MB {med:8.2f}s {med / base:7.1f} {statistics.median(cpu[name]):7.2f}s "
              f"{rate:7.1f} {net_rate:9.1f} {max(rss[name]):7.1f}MB {max(prompts[name]):8d}")
    print(f"{largest} with transcript_budget_chars = 1,000,000 (10x the default): prompt {capped:,} characters, "
          f"peak RSS {cap_rss:.1f} MB")
    ok = True
    peak = max(max(max(v) for n, v in rss.items() if n != harness.BARE), cap_rss)
    longest = max(max(max(v) for v in prompts.values() if v), capped)
    for met, text in (
        (peak <= MAX_RSS_MB, f"peak memory {peak:.1f} MB (goal <= {MAX_RSS_MB} MB)"),
        (longest <= MAX_PROMPT, f"longest prompt {longest:,} characters, default config and 10x budget "
                                f"(goal <= {MAX_PROMPT:,}: prompt_max_chars)"),
    ):
        ok = ok and met
        print(f"{'PASS' if met else 'MISS'}  {text}")
    big = sorted((n for n in per_mb if mb[n] >= 20), key=mb.get)
    if len(big) >= 2:
        small, large = big[-2], big[-1]
        ratio = per_mb[large] / per_mb[small]
        met = ratio <= LINEAR
        ok = ok and met
        print(f"{'PASS' if met else 'MISS'}  time linear in size: {per_mb[large] * 1000:.1f} ms/MB on {large} vs "
              f"{per_mb[small] * 1000:.1f} ms/MB on {small} beyond the fixed cost ({ratio:.2f}x; goal <= {LINEAR}x)")
    return 1 if opts.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
