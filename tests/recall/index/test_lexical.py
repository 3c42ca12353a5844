"""The bounded lexical index, the one search by words (ADR 0049): its words are FTS5's porter tokenizer's,
lists and df through add/remove, exact BM25 against FTS5's, prefix and phrase alternatives, scope
isolation, lists made whole again."""

import math
import os
import random
import sqlite3

import pytest

from lazy_harness.recall.index import lexical_build, lexical_keys, lexical_write, lookup, terms

VOCAB = ["pool", "socket", "timeout", "worker", "thread", "connection", "connections", "connected", "reads", "reader",
         "cache", "config", "configuration", "server", "handler", "response", "request", "header", "restart", "signin",
         "sign", "in", "log", "timed", "out", "deploy", "deployment", "deploying", "queue", "retry", "lock", "database",
         "schema", "migration"]


def db(path=":memory:"):
    conn = sqlite3.connect(path, isolation_level=None)
    for stmt in lexical_write.SCHEMA:
        conn.execute(stmt)
    return conn


def corpus(n, seed=1, start=1):
    rng = random.Random(seed)
    filler = [f"filler{i}" for i in range(300)]  # so that a word of VOCAB is in some entries, not all
    def text(lo, hi):
        return " ".join(rng.choice(VOCAB) if rng.random() < 0.15 else rng.choice(filler)
                        for _ in range(rng.randint(lo, hi)))
    out = []
    for i in range(n):
        title = text(3, 8).capitalize()
        if i % 7 == 0:
            title += " sign-in timed-out"
        out.append((start + i, title, text(5, 30), text(0, 6) + (" PoolSocket" if i % 5 == 0 else "")))
    return out


def add(conn, scope, docs):
    conn.execute("BEGIN IMMEDIATE")
    pending = {}
    lexical_write.add(conn, scope, docs, pending)
    lexical_write.flush(conn, pending)
    conn.execute("COMMIT")


def remove(conn, rowids):
    conn.execute("BEGIN IMMEDIATE")
    lexical_write.remove(conn, rowids)
    conn.execute("COMMIT")


def expected_state(docs_by_scope):
    """df per (scope, key), total df per key, and the best CHAMPIONS per (scope, key), from scratch."""
    per, total, lists = {}, {}, {}
    for scope, docs in docs_by_scope.items():
        cols_of = {r: [lexical_keys.tokens(t), lexical_keys.tokens(b), lexical_keys.tokens(g)] for r, t, b, g in docs}
        if not docs:
            continue
        for cols in cols_of.values():
            for key in lexical_keys.weighted(cols):
                per[(scope, key)] = per.get((scope, key), 0) + 1
                total[key] = total.get(key, 0) + 1
    return per, total, lists


def stored(conn):
    per = {(s, k): df for s, k, df in conn.execute("SELECT scope, key, df FROM lex_key")}
    total = dict(conn.execute("SELECT key, df FROM lex_total"))
    lists = {(s, k): lexical_keys.decode(b) for s, k, b in conn.execute("SELECT scope, key, list FROM lex_key")}
    return per, total, lists


def assert_lists_are_best(conn, scope):
    """Every list holds entries of its key, ordered, and none missing that ranks before its last."""
    avgdl = conn.execute("SELECT avgdl FROM lex_scope WHERE scope=?", (scope,)).fetchone()[0]
    docs = conn.execute("SELECT rowid, len, toks FROM lex_doc WHERE scope=?", (scope,)).fetchall()
    impacts = {}
    for r, dl, toks in docs:
        for key, f in lexical_keys.weighted(lexical_keys.split(toks)).items():
            impacts.setdefault(key, []).append((lexical_keys.impact(f, dl, avgdl), r))
    for (s, key), lst in stored(conn)[2].items():
        if s != scope:
            continue
        assert lst == sorted(lst, key=lexical_keys.rank)
        want = sorted(impacts[key], key=lexical_keys.rank)
        assert lst == want[:len(lst)], key  # a prefix of the true ranking
        assert len(lst) == min(len(want), lookup.CHAMPIONS) or len(lst) < len(want)


def fts5_tokens(texts):
    """What SQLite's ``porter unicode61 remove_diacritics 2`` tokenizer makes of each text, in order."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
    conn.executemany("INSERT INTO t(rowid, x) VALUES (?, ?)", list(enumerate(texts)))
    out = [[] for _ in texts]
    for term, doc in conn.execute("SELECT term, doc FROM v ORDER BY doc, offset"):
        out[doc].append(term)
    return out


def test_tokens_are_what_fts5s_porter_tokenizer_makes():
    texts = ["on_commit PaymentIntents src/app.py HTTPServer", "Über straße ÉCOLE naïve x2Y a1B",
             "getHTTPResponseCode --dry-run 5xx v1.2.3", "", "  ___  ", "Readers deploying deployments 3ds",
             "relational conditional hopefulness generalizations oscillators", "ǅemal ﬁle ΣΊΣΥΦΟΣ café résumés"]
    assert [lexical_keys.tokens(t) for t in texts] == fts5_tokens(texts)


def test_df_and_lists_stay_exact_through_adds_and_removes(monkeypatch):
    monkeypatch.setattr(lookup, "CHAMPIONS", 8)
    conn = db()
    docs = corpus(120)
    add(conn, "p", docs[:50])
    add(conn, "p", docs[50:])
    gone = set(range(3, 120, 4))
    remove(conn, sorted(gone))
    left = [d for d in docs if d[0] not in gone]
    per, total, _ = expected_state({"p": left})
    got_per, got_total, _ = stored(conn)
    assert got_per == per and got_total == total
    assert_lists_are_best(conn, "p")
    row = conn.execute("SELECT docs, tokens FROM lex_scope WHERE scope='p'").fetchone()
    assert row == (len(left), sum(len(lexical_keys.tokens(" ".join(d[1:]))) for d in left))
    # a replaced rowid counts once
    add(conn, "p", [(1, "brand new title", "", "")])
    assert stored(conn)[1]["brand"] == 1 and conn.execute("SELECT count(*) FROM lex_doc").fetchone()[0] == len(left)


def test_a_transactions_entries_go_into_their_lists_at_once_when_it_flushes(monkeypatch):
    """A part of a build (``index.refresh_within``): entries added with ``pending`` are merged into
    their lists together before the commit; one replaced or removed in the same part was in no list."""
    monkeypatch.setattr(lookup, "CHAMPIONS", 8)
    conn = db()
    docs = corpus(120, seed=6)
    add(conn, "p", docs[:30])
    conn.execute("BEGIN IMMEDIATE")
    pending = {}
    for d in docs[30:]:
        lexical_write.add(conn, "p", [d], pending)
    lexical_write.add(conn, "p", [(31, "replaced within the part", "", "")], pending)
    lexical_write.remove(conn, [32, 33, 5], pending)
    assert stored(conn)[1] == expected_state({"p": [d for d in docs[:30] if d[0] != 5]})[1]  # not listed yet
    lexical_write.flush(conn, pending)
    conn.execute("COMMIT")
    left = [d if d[0] != 31 else (31, "replaced within the part", "", "") for d in docs if d[0] not in (32, 33, 5)]
    per, total, _ = expected_state({"p": left})
    assert stored(conn)[:2] == (per, total) and pending == {}
    assert_lists_are_best(conn, "p")


def test_entries_added_and_removed_one_at_a_time_keep_the_lists_exact(monkeypatch):
    """The catch-up's path: one new entry per key is placed by slicing, one removed by its bytes."""
    monkeypatch.setattr(lookup, "CHAMPIONS", 70)
    conn = db()
    docs = corpus(160, seed=4)
    add(conn, "p", docs[:100])
    for d in docs[100:]:
        add(conn, "p", [d])
    assert_lists_are_best(conn, "p")
    assert any(len(lst) >= 64 for lst in stored(conn)[2].values())  # so the byte search for a rowid runs
    gone = list(range(5, 160, 9))
    for r in gone:
        remove(conn, [r])
    left = [d for d in docs if d[0] not in gone]
    per, total, _ = expected_state({"p": left})
    assert stored(conn)[:2] == (per, total)
    assert_lists_are_best(conn, "p")


def test_a_build_makes_whole_what_removals_shortened(monkeypatch):
    monkeypatch.setattr(lookup, "CHAMPIONS", 5)
    conn = db()
    docs = corpus(80)
    add(conn, "p", docs)
    remove(conn, [d[0] for d in docs[:40]])
    assert conn.execute("SELECT short FROM lex_scope").fetchone()[0] > 0
    left = docs[40:]
    assert lexical_build.due(conn) == ["p"]  # more list entries lost than the scope holds
    lexical_build.remake(conn, "p")
    per, total, _ = expected_state({"p": left})
    assert stored(conn)[:2] == (per, total)
    for (_, key), lst in stored(conn)[2].items():
        assert len(lst) == min(per[("p", key)], 5)
    assert conn.execute("SELECT short FROM lex_scope").fetchone()[0] == 0 and lexical_build.due(conn) == []


def fts_bm25(docs, query):
    """FTS5's own bm25(3, 1, 2) over the same texts, with the porter tokenizer the index once used."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(title, body, tags, "
                 "tokenize='porter unicode61 remove_diacritics 2')")
    conn.executemany("INSERT INTO t(rowid, title, body, tags) VALUES (?,?,?,?)", docs)
    return conn.execute("SELECT rowid, bm25(t, 3.0, 1.0, 2.0) AS s FROM t WHERE t MATCH ? ORDER BY s, rowid",
                        (query,)).fetchall()


def fts_query(groups):
    def alt(a):
        return f'"{a[:-1]}"*' if a.endswith("*") else '"' + " ".join(terms.words(a)) + '"'
    return " OR ".join("(" + " OR ".join(alt(a) for a in g) + ")" for g in groups)


@pytest.mark.parametrize("groups", [
    [["pool", "pool*"], ["socket", "socket*"]],
    [["connection", "connec*", "connections"], ["timeout", "timeou*", "timed-out"], ["signin", "sign-in"]],
    [["deploying", "deploy*", "release"], ["pool"], ["pool"]],  # the same phrase twice counts twice
    [["configuration", "config*", "conf*", "configure"]],
])
def test_scores_are_fts5_bm25(groups):
    conn = db()
    a, b = corpus(150, seed=2), corpus(90, seed=3, start=1000)
    add(conn, "p", a)
    add(conn, "", b)
    want = fts_bm25(a + b, fts_query(groups))
    hits, facts = lookup.search(conn, ["p", ""], groups, pool=1000)
    assert len(want) > 20 and sorted(h[0] for h in hits) == sorted(r for r, _ in want)
    score = {r: s for r, s in want}
    for (_, s), h in zip(want, hits, strict=True):
        assert math.isclose(h[1], score[h[0]], rel_tol=1e-9)  # the score FTS5 gives that entry
        assert math.isclose(h[1], s, rel_tol=1e-9)  # the same ranking (up to equal scores)
    assert facts["N"] == 240
    # each group's df: exact when one alternative covers the others, else at least the exact one
    for g, group in enumerate(groups):
        n = len(fts_bm25(a + b, fts_query([group])))
        assert facts["df"][g] == n if facts["exact"][g] else facts["df"][g] >= n


def test_matched_groups_and_prefix_and_phrase_alternatives():
    conn = db()
    add(conn, "p", [(1, "Connections dropped", "", ""), (2, "the user could not sign in", "", ""),
                    (3, "sign-in page", "", "in sign"), (4, "signing in twice", "", ""),
                    (5, "timed out on deploy", "", ""), (6, "conned later", "", "")])
    hits, facts = lookup.search(conn, ["p"], [["connection", "connec*"], ["login", "sign-in"]], pool=10)
    got = {r: m for r, _, m in hits}
    # "conned" is not "connec"+; "signing in" is the phrase too (its stems are "sign in"), as FTS5 found it
    assert got == {1: {0}, 2: {1}, 3: {1}, 4: {1}}
    assert facts["df"] == [1, 3] and facts["exact"] == [True, False]
    assert got.keys() == {r for r, _ in fts_bm25([(1, "Connections dropped", "", ""), (2, "the user could not sign in",
                                                                                      "", ""),
                                                  (3, "sign-in page", "", "in sign"), (4, "signing in twice", "", ""),
                                                  (5, "timed out on deploy", "", ""), (6, "conned later", "", "")],
                                                 fts_query([["connection", "connec*"], ["login", "sign-in"]]))}
    # a prefix of 4 and 5 letters, each its own list
    # "conned" is "con" once stemmed: no "conn" prefix, for FTS5 either
    assert {h[0] for h in lookup.search(conn, ["p"], [["conn*"]], pool=10)[0]} == {1}
    assert {h[0] for h in lookup.search(conn, ["p"], [["timed*"]], pool=10)[0]} == {5}


def test_a_prefix_that_stemming_shortens_is_its_stem_weighed_as_that_word():
    """FTS5 stems a prefix too ("keys*" is "kei*", which "keys" stored as "kei" matches); a stem under
    4 characters has no prefix list and no count of its own: it is matched as the word, with the
    word's count. Where no other word starts so, it scores as FTS5 scored it. Where stemming only cut
    letters ("pars*" is "par*"), the prefix as typed is looked up: "parsed" ("pars") is found, as
    FTS5's "par*" found it, and "partial" ("partial"), which "par*" also reached, is not."""
    docs = [(1, "rotate the keys yearly", "", ""), (2, "a keyboard shortcut", "", ""), (3, "one key", "", ""),
            (4, "parsed config", "", ""), (5, "nothing here", "", ""), (6, "partial refund", "", "")]
    conn = db()
    add(conn, "p", docs)
    groups = [["keys", "keys*"]]
    want = dict(fts_bm25(docs, fts_query(groups)))
    got = {r: s for r, s, _ in lookup.search(conn, ["p"], groups, pool=10)[0]}
    assert got.keys() == want.keys() == {1, 3} and all(math.isclose(got[r], want[r], rel_tol=1e-9) for r in want)
    assert [h[0] for h in lookup.search(conn, ["p"], [["pars*"]], pool=10)[0]] == [4]
    assert [h[0] for h in lookup.search(conn, ["p"], [["parsed", "pars*"]], pool=10)[0]] == [4]


def test_a_search_reads_only_the_scopes_it_is_given():
    conn = db()
    add(conn, "a", [(1, "socket pool", "", ""), (2, "other words", "", "")])
    add(conn, "b", [(3, "socket pool socket", "", "")])
    add(conn, "", [(4, "pool of sockets", "", "")])
    hits, facts = lookup.search(conn, ["a", ""], [["socket", "socket*"], ["pool"]], pool=10)
    assert {h[0] for h in hits} == {1, 4}
    assert facts["N"] == 4  # idf over the whole index, as FTS5's
    assert lookup.search(conn, ["b"], [["socket"]], pool=10)[0][0][0] == 3
    assert lookup.search(conn, ["nowhere"], [["socket"]], pool=10)[0] == []  # a folder with no entries: none


def test_champion_lists_bound_the_candidates(monkeypatch):
    monkeypatch.setattr(lookup, "CHAMPIONS", 3)
    conn = db()
    add(conn, "p", [(i, "socket" if i < 10 else "pool", "socket " * (i % 4), "") for i in range(1, 40)])
    hits, _ = lookup.search(conn, ["p"], [["socket"]], pool=100, rescore=1)
    assert len(hits) <= 3
    assert hits == sorted(hits, key=lambda h: (h[1], h[0]))


def test_a_search_imports_nothing_heavy(tmp_path):
    """The prompt hook's rule: beyond the SQLite C module the caller has, a search in a fresh
    interpreter loads only ``math``, ``heapq`` (a small module over its C part), ``__future__`` (its
    annotations) and our own modules (not re, not array, not unicodedata, not the sqlite3 package)."""
    import subprocess
    import sys

    path = str(tmp_path / "index.sqlite")
    conn = db(path)
    add(conn, "p", corpus(30))
    conn.close()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    src = os.path.join(root, "src")
    code = (f"import sys; sys.path.insert(0, {src!r}); import _sqlite3\n"
            "before = set(sys.modules)\n"
            "from lazy_harness.recall.index import lookup\n"
            f"hits, _ = lookup.search(_sqlite3.connect({path!r}), ['p'], [['pool', 'pool*'], ['sign-in']], 10)\n"
            "print(len(hits), sorted(m for m in set(sys.modules) - before if not m.startswith('lazy_harness')))")
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True).stdout
    n, extra = out.split(" ", 1)
    assert int(n) > 0 and extra.strip() == "['__future__', '_heapq', 'heapq', 'math']"


def test_repeated_words_and_phrases_are_counted_as_fts5_counts_them():
    docs = [(1, "pool pool pool", "sign in sign in", "pool"), (2, "pool", "sign in", ""),
            (3, "a pool of pools", "sign sign in in", "pool pool")]
    conn = db()
    add(conn, "p", docs)
    groups = [["pool"], ["sign-in"], ["pool*"]]
    want = dict(fts_bm25(docs, fts_query(groups)))
    got = {r: s for r, s, _ in lookup.search(conn, ["p"], groups, pool=10)[0]}
    assert got.keys() == want.keys()
    assert all(math.isclose(got[r], want[r], rel_tol=1e-9) for r in want)


def test_a_prefix_is_found_at_the_start_and_end_of_each_column_as_fts5_finds_it():
    """The rescoring looks for a prefix in each column: as the first word of the body or the tags, as
    the last word of the title, alone in a column; and not inside a word."""
    docs = [(1, "fix the cache", "pooling stops", "other"), (2, "cache", "x", "pooled"),
            (3, "cache pools", "", ""), (4, "cache", "spool", "carpool"), (5, "pool", "", "")]
    conn = db()
    add(conn, "p", docs)
    groups = [["pool*"], ["cache"]]
    want = dict(fts_bm25(docs, fts_query(groups)))
    got = {r: (s, m) for r, s, m in lookup.search(conn, ["p"], groups, pool=10)[0]}
    assert got.keys() == want.keys()
    assert all(math.isclose(got[r][0], want[r], rel_tol=1e-9) for r in want)
    assert [r for r in sorted(got) if 0 in got[r][1]] == [1, 2, 3, 5]  # 4's "spool", "carpool" are other words


def test_words_read_ahead_are_the_newest_within_the_bound_and_searched_in_place_of_the_store():
    """``warm_docs`` (the resident answerer between questions): the newest entries first, a part at a
    time, never more than the bound; a search finds their words without reading lex_doc (rows removed
    under it score as before), and ``keep_docs`` forgets them."""
    conn = db()
    add(conn, "p", corpus(120, seed=5))
    groups = [["pool", "pool*"], ["socket"], ["sign-in"]]
    plain = lookup.search(conn, ["p"], groups, 30)
    try:
        lookup.keep_docs(10)
        parts = [lookup.warm_docs(conn, 10**9, 30, 70)]
        while parts[-1]:
            parts.append(lookup.warm_docs(conn, parts[-1][-1], 30, 70))
        assert [len(p) for p in parts] == [30, 30, 10, 0]
        assert [r for p in parts for r in p] == list(range(120, 50, -1))
        assert sorted(lookup._DOCS.ahead) == list(range(51, 121))
        conn.execute("DELETE FROM lex_doc WHERE rowid > 50")  # what a search reads of them now is the kept text
        assert lookup.search(conn, ["p"], groups, 30) == plain
        lookup.keep_docs(10)
        assert lookup._DOCS.ahead == {} and lookup.search(conn, ["p"], groups, 30) != plain
    finally:
        lookup.keep_docs(0)


def test_kept_words_give_the_same_scores_and_start_over_when_asked():
    """``keep_docs`` (the resident answerer): the parsed words of entries kept between searches give
    the very hits the store gives; ``keep_docs`` again forgets them (a new index file may give an old
    rowid to another entry)."""
    conn = db()
    add(conn, "p", corpus(120, seed=5))
    groups = [["pool", "pool*"], ["socket"], ["sign-in"]]
    plain = lookup.search(conn, ["p"], groups, 30)
    try:
        lookup.keep_docs(50)  # fewer than the candidates rescored: the bound is reached and kept anew
        assert lookup.search(conn, ["p"], groups, 30) == plain
        assert lookup.search(conn, ["p"], groups, 30) == plain  # from what was kept, partly
        assert 0 < len(lookup._DOCS.met) <= 50 + 60
        lookup.keep_docs(50)
        assert lookup._DOCS.met == {}
    finally:
        lookup.keep_docs(0)
