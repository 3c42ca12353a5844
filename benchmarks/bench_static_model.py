"""The static embedding table on the prompt hook's path (ADR 0025): what a fresh interpreter pays to
import ``recall.static_model``, check and map its files and embed a 30-word prompt, against a bare
start of the same interpreter with the same flags (``python -S -P -c pass``); and what the worker
pays to embed 1,000 entries in one process.

    python benchmarks/bench_static_model.py [--runs 31]

Three cases besides the bare start: ``stamped`` (the files were checked before: the stamp in the
state folder matches, no hash), ``first`` (no stamp: both files are hashed, as after an install or
upgrade) and ``import only``. Printed: medians of interleaved runs, their difference to the bare
start in ms, the CPU time of the same runs, then the worker's figure.
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
        load = "from lazy_harness.recall import static_model as m; "
        cases = [
            harness.Case(harness.BARE, py + ["pass"], env=env),
            harness.Case("import only", py + [_code(src, load)], env=env),
            harness.Case("stamped: load + embed", py + [_code(src, load + f"m.embed({PROMPT!r}, {state!r})")], env=env),
            harness.Case("first: hash + load + embed",
                         py + [_code(src, "import shutil; shutil.rmtree(" + repr(fresh) + ", True); "
                                     + load + f"m.embed({PROMPT!r}, {fresh!r})")], env=env),
        ]
        harness.run_once(cases[2])  # writes the stamp the stamped case reads
        cpu: dict[str, list[float]] = {}
        times = harness.measure(cases, opts.runs, cpu=cpu)
    base = statistics.median(times[harness.BARE])
    print(f"static model: Python {sys.version.split()[0]} ({sys.executable}), {opts.runs} interleaved runs,"
          f" prompt of {len(PROMPT.split())} words")
    for name, values in times.items():
        med = statistics.median(values)
        print(f"  {name:<28} {med * 1000:7.1f} ms  +{(med - base) * 1000:5.1f} ms  "
              f"cpu {statistics.median(cpu[name]) * 1000:6.1f} ms")
    worker()
    return 0


def worker() -> None:
    """Embedding 1,000 entries of realistic length in one process (the worker's side)."""
    from lazy_harness.recall import static_model
    from tests.eval import recall_eval, recall_set_cued

    texts = [recall_eval._grep_text(e) for e in recall_set_cued.ENTRIES]
    texts = (texts * (1000 // len(texts) + 1))[:1000]
    with tempfile.TemporaryDirectory() as state:
        started = time.perf_counter()
        model = static_model.load(None, state)
        loaded = time.perf_counter()
        vecs = [model.embed(t) for t in texts]
        done = time.perf_counter()
    words = sum(len(t.split()) for t in texts) / len(texts)
    sims = time.perf_counter()
    for v in vecs[:60]:
        static_model.similarity(vecs[0], v)
    sims = time.perf_counter() - sims
    print(f"worker: load with hashing {(loaded - started) * 1000:.1f} ms; 1,000 entries of {words:.0f} words on average"
          f" embedded in {(done - loaded) * 1000:.0f} ms; 60 similarities {sims * 1000:.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
