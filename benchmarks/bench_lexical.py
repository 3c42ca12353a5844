"""The word lists (recall/index/lookup.py, the one search by words: ADR 0049) against FTS5's exact
ranking over the same entries, on a realistic memory.

For each size (18,000 and 100,000 entries by default) a project's memory is written with
tests/support/realistic_memory.py (words drawn with a Zipf distribution from the standard library's
docstrings, so each prompt word is in thousands of entries) and indexed by the writer's refresh
(entries and their word lists, one transaction per part). A reference FTS5 table (the porter
tokenizer, as the index held until version 15) is built over the same entries in a file of its own:
the exact ranking the lists approximate.

Printed per size:
  build       the index (entries and lists, seconds), the reference FTS5 table, their sizes
  quality     for each champion-list length N: how much of FTS5's exact top-POOL (rank.POOL, the
              candidates a prompt looks at) the lists' top-POOL holds; recall of the exact top-10
              within the top-10 and the top-POOL; the BM25 the
              lists' top-10 sums against the exact top-10's
  speed       median ms over the prompts: FTS5's candidate query (``ORDER BY bm25 LIMIT 240``) and
              ``lookup.search`` (pool POOL and 240), each after a fresh connect, in process; and a
              fresh ``python -S`` process that imports only what the search needs, against
              ``python -S -c pass``

    python benchmarks/bench_lexical.py [--sizes 18000 100000] [--prompts 120] [--workdir DIR]

``--workdir`` keeps the memories and indexes between runs (each size in its own folder).
"""

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

# why: below the sys.path line, so the benchmark runs from a checkout that is not installed
from lazy_harness import paths  # noqa: E402
from lazy_harness.recall.index import lookup, store, terms  # noqa: E402
from lazy_harness.recall.prompt import rank  # noqa: E402
from tests.support import memory_samples as ms  # noqa: E402
from tests.support import realistic_memory as rm  # noqa: E402

SHIPPED = lookup.CHAMPIONS
LIMIT = 240  # what FTS5's candidate query once read: the pool of then (60) times 4
TOP = rank.POOL  # the candidates a prompt looks at


def alternatives(term: str) -> list[str]:
    """A term's alternatives, as a prompt's group holds them: 'word', 'prefix*', 'two words'."""
    return terms.group_alternatives(term)


def prompts(n: int) -> list[str]:
    w = rm.Writer(seed=99)
    return list(rm.PROMPTS) + [w.sentence(8, 22) for _ in range(n - len(rm.PROMPTS))]


def fts_query(groups: list[list[str]]) -> str:
    def alt(a):
        return f'"{a[:-1]}"*' if a.endswith("*") else '"' + " ".join(terms.words(a)) + '"'
    return " OR ".join("(" + " OR ".join(alt(a) for a in g) + ")" for g in groups)


def make(size: int, folder: str) -> dict:
    """The memory, its index and the reference FTS5 table under ``folder`` (reused when there)."""
    env = dict(os.environ, HOME=os.path.join(folder, "home"))
    for k in ("CLAUDE_CONFIG_DIR", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "LH_CONFIG"):
        env.pop(k, None)
    os.environ.update(env)
    for k in ("CLAUDE_CONFIG_DIR", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "LH_CONFIG"):
        os.environ.pop(k, None)
    project = os.path.join(folder, "project")
    out: dict = {"size": size}
    if not os.path.isdir(project):
        ms.make_project(folder, "project")
        t = time.perf_counter()
        rm.build(project, env, time.time(), entries=size)
        out["memory_s"] = time.perf_counter() - t
    mdir, ldir = paths.memory_dir(project, env), paths.learnings_dir(None, env)
    path, fts = os.path.join(folder, "index.sqlite"), os.path.join(folder, "reference.sqlite")
    out.update(path=path, fts=fts, mdir=mdir, ldir=ldir)
    if not os.path.exists(fts):
        conn = store.connect(path)
        t = time.perf_counter()
        out["entries"] = store.refresh_within(conn, [mdir], ldir, deep=True)[0]
        out["index_s"] = time.perf_counter() - t
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        out["index_mb"] = os.path.getsize(path) / 1e6
        out["lex_tables_mb"] = table_mb(conn)
        ref = sqlite3.connect(fts)
        t = time.perf_counter()
        ref.execute("CREATE VIRTUAL TABLE fts USING fts5(title, body, tags, "
                    "tokenize='porter unicode61 remove_diacritics 2')")
        ref.executemany("INSERT INTO fts(rowid, title, body, tags) VALUES (?,?,?,?)",
                        conn.execute("SELECT rowid, title, body, tags FROM entry"))
        ref.commit()
        out["fts_s"], out["fts_mb"] = time.perf_counter() - t, os.path.getsize(fts) / 1e6
        ref.close()
        conn.close()
    return out


def table_mb(conn) -> str:
    try:
        rows = conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall()
    except sqlite3.OperationalError:
        return "n/a (no dbstat)"
    return ", ".join(f"{n} {s / 1e6:.1f}" for n, s in sorted(rows, key=lambda r: -r[1])[:8]) + " MB"


def quality(info: dict, ps: list[str]) -> None:
    conn = sqlite3.connect(info["path"])
    ref = sqlite3.connect(info["fts"])
    scopes = [info["mdir"], ""]
    w = ",".join(str(x) for x in lookup.FIELD_WEIGHTS)
    print(f"  quality over {len(ps)} prompts (share of FTS5's exact top-{TOP} / top-10 found; mean over prompts)")
    print(f"  {'N':>5} {'rescore':>7} | {f'top{TOP} in {TOP}':>11} {f'top10 in {TOP}':>11} {'top10 in 10':>11} |"
          " BM25 of top-10 kept")
    cases = [(n, 2) for n in (50, 100, 200, 400)] + [(200, 1), (200, 4), (400, 1), (400, 4)]
    base: dict = {}
    best_scores: dict = {}
    for p in ps:
        gs = [alternatives(t) for t in rank.groups(p)]
        if not gs:
            continue
        ranked = ref.execute(f"SELECT rowid, bm25(fts, {w}) AS s FROM fts WHERE fts MATCH ? ORDER BY s, rowid "
                             f"LIMIT {TOP}", (fts_query(gs),)).fetchall()
        base[p] = (gs, [r for r, _ in ranked])
        best_scores[p] = [s for _, s in ranked]
    kept: dict = {}
    for n, k in cases:
        sums = [0.0] * 3
        for p, (gs, exact) in base.items():
            hits = lookup.search(conn, scopes, gs, TOP, champions=n, rescore=k)[0]
            mine = [h[0] for h in hits]
            # the BM25 the lists' top-10 sums, against the exact top-10's: are the misses near-ties?
            kept.setdefault((n, k), []).append(sum(h[1] for h in hits[:10]) / (sum(best_scores[p][:10]) or -1))
            sums[0] += len(set(exact) & set(mine)) / max(1, len(exact))
            sums[1] += len(set(exact[:10]) & set(mine)) / max(1, len(exact[:10]))
            sums[2] += len(set(exact[:10]) & set(mine[:10])) / max(1, len(exact[:10]))
        m = [s / len(base) for s in sums]
        print(f"  {n:>5} {k:>7} | {m[0]:>11.3f} {m[1]:>11.3f} {m[2]:>11.3f} | {statistics.mean(kept[(n, k)]):.3f}")
    first = rm.PROMPTS[0]
    if first in base:
        gs, exact = base[first]
        row = conn.execute("SELECT rowid FROM entry WHERE title=?", (rm.RELEVANT[0],)).fetchone()
        mine = [h[0] for h in lookup.search(conn, scopes, gs, TOP, champions=SHIPPED)[0]]

        def at(ranked):
            return ranked.index(row[0]) + 1 if row and row[0] in ranked else f">{TOP}"
        print(f"  the entry written for prompt 1 ranks: FTS5 {at(exact)}, the lists (N {SHIPPED}) {at(mine)}")
    matches = [ref.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (fts_query(gs),)).fetchone()[0]
               for gs, _ in base.values()]
    print(f"  entries matching a prompt: median {statistics.median(matches):.0f}, max {max(matches)}")


def speed(info: dict, ps: list[str], runs_per_prompt: int = 1) -> None:
    w = ",".join(str(x) for x in lookup.FIELD_WEIGHTS)
    scopes = [info["mdir"], ""]
    fts_ms, lexpool, lex240 = [], [], []
    cpu: dict = {"fts": [], TOP: [], 240: []}
    for p in ps:
        alts = [alternatives(t) for t in rank.groups(p)]
        if not alts:
            continue
        q = fts_query(alts)
        for _ in range(runs_per_prompt):
            conn = sqlite3.connect(info["fts"])
            t, c = time.perf_counter(), time.process_time()
            conn.execute(f"SELECT rowid, bm25(fts, {w}) AS s FROM fts WHERE fts MATCH ? ORDER BY s, rowid LIMIT ?",
                         (q, LIMIT)).fetchall()
            fts_ms.append((time.perf_counter() - t) * 1e3)
            cpu["fts"].append((time.process_time() - c) * 1e3)
            conn.close()
            for pool, out in ((TOP, lexpool), (240, lex240)):
                conn = store.connect(info["path"])
                t, c = time.perf_counter(), time.process_time()
                lookup.search(conn, scopes, alts, pool, champions=SHIPPED)
                out.append((time.perf_counter() - t) * 1e3)
                cpu[pool].append((time.process_time() - c) * 1e3)
                conn.close()
    med = statistics.median
    print(f"  in process, fresh connect, median ms (p90): FTS5 LIMIT {LIMIT} {med(fts_ms):.1f} ({q90(fts_ms):.1f})"
          f" | lexical pool {TOP} {med(lexpool):.1f} ({q90(lexpool):.1f})"
          f" | lexical pool 240 {med(lex240):.1f} ({q90(lex240):.1f})")
    print(f"  the same, median cpu ms: FTS5 {med(cpu['fts']):.1f} | lexical pool {TOP} {med(cpu[TOP]):.1f} | "
          f"lexical pool 240 {med(cpu[240]):.1f}")
    fresh(info, ps[0])


def q90(xs: list[float]) -> float:
    return sorted(xs)[int(0.9 * (len(xs) - 1))]


CHILD = """
import sys, time
t0 = time.perf_counter()
sys.path.insert(0, {src!r})
import _sqlite3
from lazy_harness.recall.index import lookup
conn = _sqlite3.connect({path!r}, isolation_level=None)
conn.execute("PRAGMA mmap_size=268435456")
t1 = time.perf_counter()
hits, facts = lookup.search(conn, {scopes!r}, {groups!r}, {pool})
t2 = time.perf_counter()
print(len(hits), (t1 - t0) * 1e3, (t2 - t1) * 1e3, 'sqlite3' in sys.modules, 're' in sys.modules)
"""


def fresh(info: dict, prompt: str, runs: int = 15) -> None:
    groups = [alternatives(t) for t in rank.groups(prompt)]
    code = CHILD.format(src=os.path.join(ROOT, "src"), path=info["path"], scopes=[info["mdir"], ""], groups=groups,
                        pool=TOP)
    bare, child, search_ms, imp_ms = [], [], [], []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-S", "-c", "pass"], check=True)
        bare.append((time.perf_counter() - t) * 1e3)
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-S", "-c", code], check=True, capture_output=True, text=True).stdout
        child.append((time.perf_counter() - t) * 1e3)
        _, a, b, sq, re_ = out.split()
        imp_ms.append(float(a))
        search_ms.append(float(b))
    med = statistics.median
    print(f"  fresh python -S process (prompt 1, {runs} runs): whole {med(child):.1f} ms vs bare {med(bare):.1f} ms "
          f"({med(child) / med(bare):.2f}x); imports+connect {med(imp_ms):.1f} ms, search {med(search_ms):.1f} ms; "
          f"sqlite3 imported: {sq}, re imported: {re_}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[18_000, 100_000])
    parser.add_argument("--prompts", type=int, default=120)
    parser.add_argument("--workdir", default=None)
    parser.add_argument("--no-quality", action="store_true")
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--built-champions", type=int, default=400,
                        help="list length the build keeps (searches use their first N)")
    opts = parser.parse_args()
    lookup.CHAMPIONS = opts.built_champions
    work = opts.workdir or tempfile.mkdtemp(prefix="lh-bench-lexical-")
    ps = prompts(opts.prompts)
    try:
        for size in opts.sizes:
            folder = os.path.join(work, str(size))
            os.makedirs(folder, exist_ok=True)
            info = make(size, folder)
            print(f"{size} entries (lists built with {lookup.CHAMPIONS}; searched with {SHIPPED},"
                  f" RESCORE {lookup.RESCORE})")
            if "fts_s" in info:
                print(f"  build: index (entries and lists) {info['index_s']:.1f} s ({info['entries']} entries,"
                      f" {info['index_mb']:.0f} MB; largest tables: {info['lex_tables_mb']});"
                      f" reference FTS5 table {info['fts_s']:.1f} s, {info['fts_mb']:.0f} MB")
            if not opts.no_quality:
                quality(info, ps)
            if not opts.no_speed:
                speed(info, ps)
    finally:
        if not opts.workdir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
