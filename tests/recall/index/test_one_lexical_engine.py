"""One search by words for every index size (ADR 0049): the word lists answer a small index as a
large one, with FTS5's scores where no list was cut; no FTS5 query is left in the product; an index of
the version before is built again by the writer and then answers; a build killed between two parts is
searched as far as it went, and goes on from there."""

import math
import multiprocessing
import os
import re
import sqlite3
import time

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.recall.index import apply, lookup, store
from lazy_harness.recall.prompt import rank
from tests.hooks.hookrun import hook_log, run_hook, spawned_workers_gone
from tests.support import memory_samples as ms

NOW = time.time()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SRC = os.path.join(ROOT, "src", "lazy_harness")
SETTINGS = {"min_terms": 1, "min_score": 0.0, "min_coverage": 0}


def test_no_fts5_query_is_left_in_the_product():
    found = []
    for folder, _, names in os.walk(SRC):
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as fh:
                    for n, line in enumerate(fh, 1):
                        if re.search(r"\bMATCH\b|fts5|VIRTUAL TABLE|bm25\(", line):
                            found.append(f"{os.path.relpath(path, SRC)}:{n}: {line.strip()}")
    assert found == []


def fts5_ranking(conn, prompt, where, args):
    """FTS5's answer (the porter tokenizer, bm25 with the index's weights) over the same entries: a
    table of its own, as the index held until version 15: {id: score}."""
    fts = sqlite3.connect(":memory:")
    fts.execute("CREATE VIRTUAL TABLE fts USING fts5(title, body, tags, "
                "tokenize='porter unicode61 remove_diacritics 2')")
    fts.executemany("INSERT INTO fts(rowid, title, body, tags) VALUES (?,?,?,?)",
                    conn.execute("SELECT rowid, title, body, tags FROM entry").fetchall())
    from lazy_harness.recall.index import terms

    def alt(a):
        return f'"{a[:-1]}"*' if a.endswith("*") else '"' + " ".join(terms.words(a)) + '"'
    query = " OR ".join("(" + " OR ".join(alt(a) for a in terms.group_alternatives(t)) + ")"
                        for t in rank.groups(prompt))
    score = dict(fts.execute("SELECT rowid, bm25(fts, 3, 1, 2) FROM fts WHERE fts MATCH ?", (query,)))
    return {i: score[r] for r, i in conn.execute(f"SELECT e.rowid, e.id FROM entry e WHERE {where}", args)
            if r in score}


def _project(tmp_path, summaries):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    why = "because the readers fail"
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW + i, s, why, project="proj")
                                                       for i, s in enumerate(summaries)])
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mem], None)
    return conn, mem


def test_a_small_index_and_a_large_one_answer_through_the_same_search(tmp_path, monkeypatch):
    calls = []
    real = lookup.search

    def spy(*a, **k):
        calls.append(a[1])
        return real(*a, **k)
    monkeypatch.setattr(lookup, "search", spy)
    conn, mem = _project(tmp_path / "small", [
        "Readers choke on a column typed int in one partition", "Deployments take an advisory lock",
        "Connection pool sized to the workers", "The deploy scheduler ran twice", "Cache the sitemap",
        "Parquet schema evolution", "Queue files, not sqlite", "Retry the webhook with backoff",
        "Sign-in pages time out", "Stripe sends events out of order"])
    assert lookup.doc_count(conn) == 10
    where, args = lookup.scope_sql([mem], "proj")
    prompt = "the reader chokes on column types after deploying the scheduler"
    ranked, info = rank.rank(conn, prompt, where, args, SETTINGS, scopes=[mem, ""], project="proj")
    assert calls == [[mem, ""]] and info["search"] == "exact"
    want = fts5_ranking(conn, prompt, where, args)
    assert len(want) >= 4 and {c["id"] for c in ranked} == set(want)  # "Readers", "deploy", "Deployments"
    assert all(math.isclose(c["bm25"], want[c["id"]], rel_tol=1e-9) for c in ranked)
    # a larger one, where the lists of its common words are cut: the same function, bounded
    monkeypatch.setattr(lookup, "CHAMPIONS", 5)
    conn, mem = _project(tmp_path / "large", [f"the deploy scheduler number {i} ran twice" for i in range(40)])
    ranked, info = rank.rank(conn, "why did the scheduler deploy twice", *lookup.scope_sql([mem], "proj"),
                               SETTINGS, scopes=[mem, ""], project="proj")
    assert calls[-1] == [mem, ""] and info["search"] == "bounded" and len(ranked) <= 2 * 5


def ask(root, sid, text):
    import json

    r = run_hook("UserPromptSubmit", {"session_id": sid, "cwd": root, "hook_event_name": "UserPromptSubmit",
                                      "prompt": text})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else None


def test_an_index_of_the_version_before_is_built_again_by_the_writer_and_then_answers(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW, "Deploy freezes are announced in the ops channel a day ahead", "people plan around them",
                    cues=["when is the deploy freeze announced"])])
    path = paths.recall_index_file()
    ms.index_now()
    conn = sqlite3.connect(path)  # as version 14 left it: its version, its FTS5 table
    conn.execute("UPDATE meta SET v='14' WHERE k='version'")
    conn.execute("CREATE VIRTUAL TABLE fts USING fts5(title, body, tags, tokenize='porter unicode61')")
    conn.commit()
    conn.close()
    freeze = "when is the deploy freeze announced to the team"
    assert ask(root, "s-1", freeze) is None
    last = hook_log(paths.claude_dir())[-1]
    # why not "damaged": an index of another version is what every upgrade leaves (docs/how/recall.md)
    assert " index=other-version " in last and "index task queued, worker pid" in last, last
    spawned_workers_gone(timeout=120)
    assert "Deploy freezes are announced" in (ask(root, "s-2", freeze) or "")
    assert "search=exact" in hook_log(paths.claude_dir())[-1]
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT v FROM meta WHERE k='version'").fetchone()[0] == store.VERSION
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name='fts'").fetchone()[0] == 0
    finally:
        conn.close()


def _refresh_until_killed(home, mem, ready):
    os.environ["HOME"] = home
    real, calls = apply.apply, []

    def step(conn, one, budget, pending=None):
        calls.append(one)
        if len(calls) == 3:  # the third part, before its commit
            ready.set()
            os.kill(os.getpid(), 9)
        return real(conn, one, budget, pending)
    apply.apply = step
    store.refresh_within(store.connect(paths.recall_index_file()), [mem], None, part=100)


def _lists(conn):
    return sorted(conn.execute("SELECT scope, key, df, list FROM lex_key").fetchall())


def test_a_build_killed_between_parts_is_searched_as_far_as_it_went_and_goes_on(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS),
                   [ms.decision(NOW + i, f"decision {i} about the release queues", "readers wait " * (i % 5))
                    for i in range(450)])
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Event()
    child = ctx.Process(target=_refresh_until_killed, args=(os.environ["HOME"], mem, ready))
    child.start()
    child.join(120)
    assert child.exitcode == -9 and ready.is_set()
    conn = store.connect(paths.recall_index_file())
    assert lookup.doc_count(conn) == 200  # two parts of 100 lines committed
    assert conn.execute("SELECT sum(docs) FROM lex_scope").fetchone()[0] == 200  # each in its lists
    hits, facts = lookup.search(conn, [mem, ""], [["queue"]], pool=1000)
    assert len(hits) == 200 and facts["N"] == 200  # every committed entry found, by its stem ("queues")
    assert store.refresh_within(conn, [mem], None, part=100) == (250, True)  # on from the third part
    hits, facts = lookup.search(conn, [mem, ""], [["queue"]], pool=1000)
    assert lookup.doc_count(conn) == facts["N"] == 450 and len(hits) == lookup.CHAMPIONS  # now a cut list
    # the lists are those of a build that was never stopped
    whole = store.connect(str(tmp_path / "whole.sqlite"))
    store.refresh_within(whole, [mem], None, part=100)
    assert _lists(conn) == _lists(whole)


def test_lists_a_rewritten_file_left_short_are_made_whole_by_the_writer(tmp_path, monkeypatch):
    monkeypatch.setattr(lookup, "CHAMPIONS", 5)
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    path = os.path.join(mem, files.DECISIONS)

    def decision(i):
        return ms.decision(NOW + i, f"release queue step {i}", "readers wait " * (i % 7))
    ms.write_jsonl(path, [decision(i) for i in range(60)])
    ms.write_jsonl(os.path.join(mem, files.FAILURES),  # the same words, in another file of the folder
                   [ms.failure(NOW + i, f"release queue stalled {i}", "readers wait") for i in range(60)])
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mem], None)
    os.remove(path)  # rewritten by hand: a new file, most of its entries gone
    ms.write_jsonl(path, [decision(i) for i in range(0, 60, 6)])
    store.refresh_within(conn, [mem], None)
    # the lists cut at 5 lost the rewritten file's places while the failures' stayed: short
    assert apply.remake_short(conn) == 1 and apply.remake_short(conn) == 0
    whole = store.connect(str(tmp_path / "whole.sqlite"))
    store.refresh_within(whole, [mem], None)

    def shape(c):  # rowids differ (the rewritten file was indexed again): each list's df and impacts
        return [(k, df, lookup.columns(b)[1].tolist()) for _, k, df, b in _lists(c)]
    assert shape(conn) == shape(whole)
