"""The bounded lexical search (recall/index/lookup.py) against FTS5's query, on a realistic memory.

For each size (18,000 and 100,000 entries by default) a project's memory is written with
tests/support/realistic_memory.py (words drawn with a Zipf distribution from the standard library's
docstrings, so each prompt word is in thousands of entries) and indexed with ``for_commands.open_current``
(the FTS5 baseline). The lexical tables are then built in the same database, one scope per memory
folder ("" for the learnings), in steps of ``lexical_build.BATCH`` entries, each its own transaction.

Printed per size:
  build       FTS5 index (open_current), lexical build (seconds, steps), database size before/after
  quality     for each champion-list length N: how much of FTS5's exact top-60 (porter, the index as
              shipped) and of the exact top-60 over the very words the lexical index holds (FTS5
              with unicode61 on them: the champion lists' own loss) the lexical top-60 holds;
              recall of the exact top-10 within the top-10 and the top-60
  speed       median ms over the prompts: FTS5's candidate query (``ORDER BY bm25 LIMIT 240``) and
              ``lookup.search`` (pool 60 and 240), each after a fresh connect, in process; and a
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
from lazy_harness.recall.index import for_commands, lexical_build, lexical_write, lookup, store, terms  # noqa: E402
from lazy_harness.recall.prompt import rank  # noqa: E402
from tests.support import memory_samples as ms  # noqa: E402
from tests.support import realistic_memory as rm  # noqa: E402

SHIPPED = lookup.CHAMPIONS
LIMIT = 240  # lookup.candidates: POOL (60) times SHORTLIST (4)
TOP = 60


def alternatives(term: str) -> list[str]:
    """The alternatives of ``terms.group_query(term)``, unquoted: 'word', 'prefix*', 'two words'."""
    alts = [term]
    base = terms.stem(term)
    if len(base) >= 4:
        alts.append(base[:6] + "*")
    alts += terms.related(term)
    return list(dict.fromkeys(alts))


def prompts(n: int) -> list[str]:
    w = rm.Writer(seed=99)
    return list(rm.PROMPTS) + [w.sentence(8, 22) for _ in range(n - len(rm.PROMPTS))]


def fts_query(groups: list[list[str]]) -> str:
    def alt(a):
        return f'"{a[:-1]}"*' if a.endswith("*") else '"' + " ".join(terms.words(a)) + '"'
    return " OR ".join("(" + " OR ".join(alt(a) for a in g) + ")" for g in groups)


def make(size: int, folder: str) -> dict:
    """The memory, its FTS5 index and its lexical tables under ``folder`` (reused when there)."""
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
    path = os.path.join(folder, "index.sqlite")
    out.update(path=path, mdir=mdir, ldir=ldir)
    if not os.path.exists(path):
        t = time.perf_counter()
        conn, n = for_commands.open_current(path, [mdir], ldir)
        out["fts_s"], out["entries"] = time.perf_counter() - t, n
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        out["fts_mb"] = os.path.getsize(path) / 1e6
        for stmt in lexical_write.SCHEMA:
            conn.execute(stmt)
        t = time.perf_counter()
        steps = 0
        for scope in ("", mdir):
            steps += lexical_build.build(conn, scope, source(conn, scope))
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        out["lex_s"], out["lex_steps"] = time.perf_counter() - t, steps
        out["total_mb"] = os.path.getsize(path) / 1e6
        out["lex_tables_mb"] = table_mb(conn)
        conn.close()
    return out


def source(conn, scope: str):
    def next_batch(after: int, limit: int):
        return conn.execute("SELECT e.rowid, f.title, f.body, f.tags FROM entry e JOIN fts f ON f.rowid = e.rowid "
                            "WHERE e.mdir=? AND e.rowid > ? ORDER BY e.rowid LIMIT ?", (scope, after, limit)).fetchall()
    return next_batch


def table_mb(conn) -> str:
    try:
        rows = conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall()
    except sqlite3.OperationalError:
        return "n/a (no dbstat)"
    return ", ".join(f"{n} {s / 1e6:.1f}" for n, s in sorted(rows, key=lambda r: -r[1])[:8]) + " MB"


def exact_words_db(path: str) -> sqlite3.Connection:
    """FTS5 (unicode61, no stemmer) over the words the lexical index holds: the exact ranking the
    champion lists approximate."""
    src = sqlite3.connect(path)
    mem = sqlite3.connect(":memory:")
    mem.execute("CREATE VIRTUAL TABLE t USING fts5(title, body, tags, tokenize='unicode61 remove_diacritics 0')")
    mem.executemany("INSERT INTO t(rowid, title, body, tags) VALUES (?,?,?,?)",
                    ((r, *toks.split("\n")) for r, toks in src.execute("SELECT rowid, toks FROM lex_doc")))
    src.close()
    return mem


def quality(info: dict, ps: list[str]) -> None:
    conn = sqlite3.connect(info["path"])
    exact = exact_words_db(info["path"])
    scopes = [info["mdir"], ""]
    w = ",".join(str(x) for x in lookup.FIELD_WEIGHTS)
    print(f"  quality over {len(ps)} prompts (share of the exact top-{TOP} / top-10 found; mean over prompts)")
    print(f"  {'N':>5} {'rescore':>7} | {'vs FTS5 porter: top60 in 60':>27} {'top10 in 60':>11} {'top10 in 10':>11} |"
          f" {'vs exact same words: top60':>26} {'top10 in 60':>11} {'top10 in 10':>11} | BM25 of top-10 kept")
    cases = [(n, 2) for n in (50, 100, 200, 400)] + [(200, 1), (200, 4), (400, 1), (400, 4)]
    base: dict = {}
    best_scores: dict = {}
    for p in ps:
        gs = [alternatives(t) for t, _ in rank.groups(p)]
        if not gs:
            continue
        q = fts_query(gs)
        porter = [r for r, in conn.execute(f"SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, {w}), rowid "
                                           f"LIMIT {TOP}", (" OR ".join(g for _, g in rank.groups(p)),))]
        ranked = exact.execute(f"SELECT rowid, bm25(t, {w}) AS s FROM t WHERE t MATCH ? ORDER BY s, rowid "
                               f"LIMIT {TOP}", (q,)).fetchall()
        same = [r for r, _ in ranked]
        base[p] = (gs, porter, same)
        best_scores[p] = [s for _, s in ranked]
    kept: dict = {}
    for n, k in cases:
        sums = [0.0] * 6
        for p, (gs, porter, same) in base.items():
            hits = lookup.search(conn, scopes, gs, TOP, champions=n, rescore=k)[0]
            mine = [h[0] for h in hits]
            # the BM25 the lexical top-10 sums, against the exact top-10's: are the misses near-ties?
            kept.setdefault((n, k), []).append(sum(h[1] for h in hits[:10]) / (sum(best_scores[p][:10]) or -1))
            for j, ref in enumerate((porter, same)):
                sums[3 * j] += len(set(ref) & set(mine)) / max(1, len(ref))
                sums[3 * j + 1] += len(set(ref[:10]) & set(mine)) / max(1, len(ref[:10]))
                sums[3 * j + 2] += len(set(ref[:10]) & set(mine[:10])) / max(1, len(ref[:10]))
        m = [s / len(base) for s in sums]
        print(f"  {n:>5} {k:>7} | {m[0]:>27.3f} {m[1]:>11.3f} {m[2]:>11.3f} | {m[3]:>26.3f} {m[4]:>11.3f} {m[5]:>11.3f}"
              f" | {statistics.mean(kept[(n, k)]):.3f}")
    first = rm.PROMPTS[0]
    if first in base:
        gs, porter, same = base[first]
        row = conn.execute("SELECT rowid FROM entry WHERE title=?", (rm.RELEVANT[0],)).fetchone()
        mine = [h[0] for h in lookup.search(conn, scopes, gs, TOP, champions=SHIPPED)[0]]
        def at(ranked):
            return ranked.index(row[0]) + 1 if row and row[0] in ranked else f">{TOP}"
        print(f"  the entry written for prompt 1 ranks: FTS5 porter {at(porter)}, exact same words {at(same)}, "
              f"lexical (N {SHIPPED}) {at(mine)}")
    tok = [len(set(porter) & set(same)) / max(1, len(porter)) for _, porter, same in base.values()]
    tok10 = [len(set(porter[:10]) & set(same[:10])) / max(1, len(porter[:10])) for _, porter, same in base.values()]
    print(f"  the words alone (no porter stemmer), exact: {statistics.mean(tok):.3f} of FTS5's top-60 in its top-60, "
          f"{statistics.mean(tok10):.3f} of its top-10 in its top-10")
    matches = [exact.execute("SELECT count(*) FROM t WHERE t MATCH ?", (fts_query(gs),)).fetchone()[0]
               for gs, _, _ in base.values()]
    print(f"  entries matching a prompt: median {statistics.median(matches):.0f}, max {max(matches)}")


def speed(info: dict, ps: list[str], runs_per_prompt: int = 1) -> None:
    w = ",".join(str(x) for x in lookup.FIELD_WEIGHTS)
    scopes = [info["mdir"], ""]
    fts_ms, lex60, lex240 = [], [], []
    cpu: dict = {"fts": [], 60: [], 240: []}
    for p in ps:
        gs = rank.groups(p)
        if not gs:
            continue
        alts = [alternatives(t) for t, _ in gs]
        q = " OR ".join(g for _, g in gs)
        for _ in range(runs_per_prompt):
            conn = store.connect(info["path"])
            t, c = time.perf_counter(), time.process_time()
            conn.execute(f"SELECT rowid, bm25(fts, {w}) AS s FROM fts WHERE fts MATCH ? ORDER BY s, rowid LIMIT ?",
                         (q, LIMIT)).fetchall()
            fts_ms.append((time.perf_counter() - t) * 1e3)
            cpu["fts"].append((time.process_time() - c) * 1e3)
            conn.close()
            for pool, out in ((60, lex60), (240, lex240)):
                conn = store.connect(info["path"])
                t, c = time.perf_counter(), time.process_time()
                lookup.search(conn, scopes, alts, pool, champions=SHIPPED)
                out.append((time.perf_counter() - t) * 1e3)
                cpu[pool].append((time.process_time() - c) * 1e3)
                conn.close()
    med = statistics.median
    print(f"  in process, fresh connect, median ms (p90): FTS5 LIMIT {LIMIT} {med(fts_ms):.1f} ({q90(fts_ms):.1f})"
          f" | lexical pool 60 {med(lex60):.1f} ({q90(lex60):.1f})"
          f" | lexical pool 240 {med(lex240):.1f} ({q90(lex240):.1f})")
    print(f"  the same, median cpu ms: FTS5 {med(cpu['fts']):.1f} | lexical pool 60 {med(cpu[60]):.1f} | "
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
hits, facts = lookup.search(conn, {scopes!r}, {groups!r}, 60)
t2 = time.perf_counter()
print(len(hits), (t1 - t0) * 1e3, (t2 - t1) * 1e3, 'sqlite3' in sys.modules, 're' in sys.modules)
"""


def fresh(info: dict, prompt: str, runs: int = 15) -> None:
    groups = [alternatives(t) for t, _ in rank.groups(prompt)]
    code = CHILD.format(src=os.path.join(ROOT, "src"), path=info["path"], scopes=[info["mdir"], ""], groups=groups)
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
                print(f"  build: FTS5 index {info['fts_s']:.1f} s ({info['entries']} entries, {info['fts_mb']:.0f} MB);"
                      f" lexical {info['lex_s']:.1f} s in {info['lex_steps']} steps;"
                      f" database {info['total_mb']:.0f} MB,"
                      f" largest tables: {info['lex_tables_mb']}")
            if not opts.no_quality:
                quality(info, ps)
            if not opts.no_speed:
                speed(info, ps)
    finally:
        if not opts.workdir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
