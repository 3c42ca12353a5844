"""The static embedding table on the prompt hook's path (ADR 0025): what a fresh interpreter pays to
import ``recall.static_model``, check and map its files and embed a 30-word prompt, against a bare
start of the same interpreter with the same flags (``python -S -P -c pass``); and what the worker
pays to embed 1,000 entries in one process.

    python benchmarks/bench_static_model.py [--runs 31]

Four cases besides the bare start: ``bare + import os`` (every hook imports ``os``, which a bare
``-S`` start does not: the module's own share is what it costs above this one), ``stamped`` (the
files were checked before: the stamp in the state folder matches, no hash), ``first`` (no stamp:
both files are hashed, as after an install or upgrade) and ``import only``. Printed: medians of
interleaved runs, their difference to the bare start in ms, the CPU time of the same runs, then the
worker's figure.
"""

import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness

PROMPT = ("the checkout page times out for german customers when the bank asks for the 3ds challenge, "
          "can we retry the payment intent instead of failing the order and emailing support")


def _code(src: str, body: str) -> str:
    return f"import sys; sys.path.insert(0, {src!r}); " + body


def main() -> int:
    opts = harness.parse_args(__doc__, default_runs=31)
    import lazy_harness

    src = os.path.dirname(os.path.dirname(os.path.abspath(lazy_harness.__file__)))
    py = [sys.executable, "-S", "-P", "-c"]
    with harness.temp_home(opts.keep) as (root, env):
        state = os.path.join(root, "state")
        fresh = os.path.join(root, "fresh")
        load = "from lazy_harness.recall.embed import static_model as m; "
        cases = [
            harness.Case(harness.BARE, py + ["pass"], env=env),
            # every hook imports os (a bare -S start does not): the fair baseline for the hook's share
            harness.Case("bare + import os", py + ["import os"], env=env),
            harness.Case("import only", py + [_code(src, load)], env=env),
            harness.Case("stamped: load + embed", py + [_code(src, load + f"m.embed({PROMPT!r}, {state!r})")], env=env),
            harness.Case("first: hash + load + embed",
                         py + [_code(src, "import shutil; shutil.rmtree(" + repr(fresh) + ", True); "
                                     + load + f"m.embed({PROMPT!r}, {fresh!r})")], env=env),
        ]
        harness.run_once(cases[3])  # writes the stamp the stamped case reads
        cpu: dict[str, list[float]] = {}
        times = harness.measure(cases, opts.runs, cpu=cpu)
    base = statistics.median(times[harness.BARE])
    with_os = statistics.median(times["bare + import os"])
    print(f"static model: Python {sys.version.split()[0]} ({sys.executable}), {opts.runs} interleaved runs,"
          f" prompt of {len(PROMPT.split())} words")
    for name, values in times.items():
        med = statistics.median(values)
        print(f"  {name:<28} {med * 1000:7.1f} ms  +{(med - base) * 1000:5.1f} ms bare  "
              f"+{(med - with_os) * 1000:5.1f} ms with os  cpu {statistics.median(cpu[name]) * 1000:6.1f} ms")
    inside(src, opts.runs)
    worker()
    return 0


def inside(src: str, runs: int) -> None:
    """The same steps timed inside fresh processes (perf_counter around each), so the noise of
    starting an interpreter on a busy machine stays out: medians of ``runs`` processes."""
    import subprocess

    with tempfile.TemporaryDirectory() as state:
        code = (f"import time; t0 = time.perf_counter(); import sys; sys.path.insert(0, {src!r}); import os; "
                "t1 = time.perf_counter(); from lazy_harness.recall.embed import static_model as m; "
                f"t2 = time.perf_counter(); model = m.load(None, {state!r}); t3 = time.perf_counter(); "
                f"model.embed({PROMPT!r}); t4 = time.perf_counter(); "
                "print(t1 - t0, t2 - t1, t3 - t2, t4 - t3)")
        env = {k: v for k, v in os.environ.items() if k not in harness.DROPPED}  # bytecode is written and reused
        got = []
        for _ in range(runs + 1):
            out = subprocess.run([sys.executable, "-S", "-P", "-c", code], capture_output=True, text=True,
                                 check=True, env=env)
            got.append([float(x) for x in out.stdout.split()])
    got = got[1:]  # the first run hashed the files and wrote the stamp
    names = ("import os", "import static_model", "load (stamped)", "embed the prompt")
    cols = list(zip(*got, strict=True))
    print("inside fresh processes, medians: " + ", ".join(
        f"{n} {statistics.median(c) * 1000:.2f} ms" for n, c in zip(names, cols, strict=True))
        + f"; static_model's share {statistics.median([sum(r[1:]) for r in got]) * 1000:.2f} ms")


def worker() -> None:
    """Embedding 1,000 entries of realistic length in one process (the worker's side)."""
    from lazy_harness.recall.embed import static_model
    from tests.eval import recall_eval, recall_set_cued

    texts = [recall_eval._grep_text(e) for e in recall_set_cued.ENTRIES]
    texts = (texts * (1000 // len(texts) + 1))[:1000]
    with tempfile.TemporaryDirectory() as state:
        started = time.perf_counter()
        model = static_model.load(None, state)
        loaded = time.perf_counter()
        cpu = time.process_time()
        vecs = [model.embed(t) for t in texts]
        done = time.perf_counter()
        cpu = time.process_time() - cpu
    words = sum(len(t.split()) for t in texts) / len(texts)
    print(f"worker: load with hashing {(loaded - started) * 1000:.1f} ms; {len(vecs):,} entries of {words:.0f} words"
          f" on average embedded in {(done - loaded) * 1000:.0f} ms (CPU {cpu * 1000:.0f} ms)")


if __name__ == "__main__":
    sys.exit(main())
