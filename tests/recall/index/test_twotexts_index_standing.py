"""The index keeps, of the entries carrying one id, the one SessionStart shows (``sources.standing``):
it alone is searched, with the words of the copies it stands for; the others are set aside. Read
whole, in parts, or as lines are appended, the same one stands; SessionStart's copy of the rule
(``digest.one_each``) agrees with it."""

import itertools
import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, ids
from lazy_harness.recall.index import lookup, sources, store
from lazy_harness.recall.readback import digest
from tests.support import memory_samples as ms

NOW = time.time()
SUMMARY = "Use a file queue between hooks and worker"
EID = ids.entry_id("decision", SUMMARY)
HERE = os.uname().nodename


def line(claim: int, n: int) -> dict:
    """A decision line carrying ``EID`` as ``claim`` says: its own summary, a copy reworded here, or a
    line another machine's sync brought under another summary."""
    summary = SUMMARY if claim == sources.OWN else f"{SUMMARY}, worded {n} (word{n}x)"
    return ms.decision(NOW + n, summary, "r", id=EID, via="session",
                       machine="laptop-2" if claim == sources.BROUGHT else HERE)


def standing_rows(conn) -> list[tuple[int, str]]:
    """(line, summary) of the decisions that stand (not set aside) and are in the word lists."""
    sql = ("SELECT e.line, e.title FROM entry e JOIN lex_doc d ON d.rowid = e.rowid "
           "WHERE e.kind='decision' AND e.aside = 0 ORDER BY e.line")
    return conn.execute(sql).fetchall()


def found(conn, word: str, mem: str) -> list[int]:
    where, args = lookup.scope_sql([mem], "proj")
    return [r[6] for r in lookup.candidates(conn, [[word]], [mem], where, args, 10)[0]]


SEQUENCES = [seq for n in (2, 3) for seq in itertools.product((sources.OWN, sources.KEPT, sources.BROUGHT), repeat=n)]


@pytest.mark.parametrize("claims", SEQUENCES)
def test_the_index_and_session_start_keep_the_same_line_read_whole_in_parts_or_appended(tmp_path, claims):
    mem = paths.memory_dir(ms.make_project(tmp_path, "proj"))
    path = os.path.join(mem, files.DECISIONS)
    recs = [line(c, n) for n, c in enumerate(claims)]
    assert [sources.claim_of(r, "decision", EID) for r in recs] == list(claims)
    at, _ = sources.standing(list(claims))
    ms.write_jsonl(path, recs)
    [shown] = digest.live_tail(mem, files.DECISIONS, "decision", 5, set())
    assert shown == recs[at]  # SessionStart's reading of the rule
    results = []
    for part, appended in ((store.PART, False), (1, False), (store.PART, True)):
        index = os.path.join(str(tmp_path), f"index-{part}-{appended}.sqlite")
        conn = store.connect(index)
        if appended:  # each line appended after the index read the ones before
            os.remove(path)
            for rec in recs:
                ms.write_jsonl(path, [rec])
                assert store.refresh_within(conn, [mem], None)[1]
        else:
            while not store.refresh_within(conn, [mem], None, part=part)[1]:
                pass
        results.append(standing_rows(conn))
        assert conn.execute("SELECT count(*) FROM entry").fetchone()[0] == len(recs)
        # the set-aside lines have no vector keys; the one that stands has its own
        keyed = conn.execute("SELECT DISTINCT e.line FROM key k JOIN entry e ON e.rowid = k.rowid").fetchall()
        assert keyed == [(at + 1,)]
        conn.close()
    assert results == [[(at + 1, recs[at]["summary"])]] * 3


def test_the_words_of_a_copy_set_aside_find_the_line_that_stands(tmp_path):
    mem = paths.memory_dir(ms.make_project(tmp_path, "proj"))
    path = os.path.join(mem, files.DECISIONS)
    ms.write_jsonl(path, [line(sources.OWN, 0), line(sources.KEPT, 1), line(sources.BROUGHT, 2)])
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mem], None)
    assert found(conn, "word1x", mem) == [2]  # the copy reworded here stands
    assert found(conn, "worker", mem) == [2]
    assert found(conn, "word2x", mem) == []  # a brought line that claims the id stands for nothing


def test_a_line_removed_by_hand_lets_the_one_before_stand_again(tmp_path):
    mem = paths.memory_dir(ms.make_project(tmp_path, "proj"))
    path = os.path.join(mem, files.DECISIONS)
    ms.write_jsonl(path, [line(sources.OWN, 0), line(sources.KEPT, 1)])
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mem], None)
    assert standing_rows(conn) == [(2, line(sources.KEPT, 1)["summary"])]
    with open(path) as fh:
        first = fh.readline()
    with open(path, "w") as fh:
        fh.write(first)
    store.refresh_within(conn, [mem], None)
    assert standing_rows(conn) == [(1, SUMMARY)] and found(conn, "word1x", mem) == []


def test_a_learning_copy_stands_and_its_removal_gives_the_place_back(tmp_path):
    ldir = paths.learnings_dir()
    older = ms.write_learning(ldir, "Zebra caches expire", "proj", NOW - 3 * ms.DAY, learning="at 00:00 okapi",
                              slug="zebra")
    newer = ms.write_learning(ldir, "Zebra caches expire", "proj", NOW - ms.DAY, learning="at 03:00 capybara",
                              slug="zebra-v2")
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [], ldir)
    sql = "SELECT e.file FROM entry e JOIN lex_doc d ON d.rowid = e.rowid WHERE e.aside = 0"
    assert conn.execute(sql).fetchall() == [(newer,)]
    assert found(conn, "okapi", "") == [0] and found(conn, "capybara", "") == [0]
    os.remove(newer)
    store.refresh_within(conn, [], ldir, deep=True)
    assert conn.execute(sql).fetchall() == [(older,)]
    assert found(conn, "okapi", "") == [0] and found(conn, "capybara", "") == []


def test_rowids_are_never_handed_out_twice_when_lines_are_set_aside(tmp_path):
    """A line set aside or brought back is put in again under a new rowid (a rowid's text never changes)."""
    mem = paths.memory_dir(ms.make_project(tmp_path, "proj"))
    path = os.path.join(mem, files.DECISIONS)
    conn = store.connect(paths.recall_index_file())
    seen: set[int] = set()
    gone: set[int] = set()
    for n in range(3):
        ms.write_jsonl(path, [line(sources.KEPT if n else sources.OWN, n)])
        store.refresh_within(conn, [mem], None)
        now = {r for (r,) in conn.execute("SELECT rowid FROM entry")}
        gone |= seen - now
        assert not now & gone and now - seen  # the lines put in again took new rowids
        seen |= now
    assert standing_rows(conn) == [(3, line(sources.KEPT, 2)["summary"])]


def test_an_index_of_the_version_before_is_built_again(tmp_path):
    """Version 20: the rows of one id carry which one stands; an index of 19 held every copy searched."""
    mem = paths.memory_dir(ms.make_project(tmp_path, "proj"))
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [line(sources.OWN, 0), line(sources.KEPT, 1)])
    path = paths.recall_index_file()
    conn = store.connect(path)
    store.refresh_within(conn, [mem], None)
    conn.execute("UPDATE meta SET v = '19' WHERE k = 'version'")
    conn.close()
    conn = store.connect(path)
    assert store.VERSION != "19" and conn.execute("SELECT count(*) FROM entry").fetchone()[0] == 0
    assert store.refresh_within(conn, [mem], None) == (2, True)
    assert [r[0] for r in conn.execute("SELECT aside FROM entry ORDER BY line")] == [1, 0]


def test_the_digest_reads_past_a_copy_to_fill_its_section(tmp_path):
    """Two lines of one id count once: the section still gets as many entries as it asks for."""
    mem = paths.memory_dir(ms.make_project(tmp_path, "proj"))
    others = [ms.decision(NOW - 10 + n, f"decision {n} about caches", "r") for n in range(4)]
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [*others, line(sources.OWN, 0), line(sources.KEPT, 1)])
    got = digest.live_tail(mem, files.DECISIONS, "decision", 3, set())
    assert [r["summary"] for r in got] == ["decision 2 about caches", "decision 3 about caches",
                                           line(sources.KEPT, 1)["summary"]]
    assert json.dumps(got)  # plain records
