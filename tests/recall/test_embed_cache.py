"""The embedder's cache and warm-up queue, without the socket: what a ``sims`` answer covers, what the
warm-up embeds first, what leaves the cache (the loop around it: test_embed_server.py)."""

import sqlite3

import pytest

from lazy_harness.recall import embed_cache, index
from tests.recall.test_embed_server import ENTRIES, FakeEmbedder, make_index


@pytest.fixture
def index_path(tmp_path):
    return str(tmp_path / "recall" / "index.sqlite")


def test_the_server_object_answers_for_complete_entries_only(index_path):
    many = [(r, f"title {r}", f"body {r}", "tag", [f"cue {r} a", f"cue {r} b", f"cue {r} c"]) for r in range(1, 11)]
    many[0][4].append("cue 1 d")  # rowid 1: five texts, the others four
    make_index(index_path, many)
    fake = FakeEmbedder()
    srv = embed_cache.Server(fake, index_path)
    rowids = list(range(1, 11))
    assert srv.sims(srv.prompt_vector("cue 3 a"), rowids, budget=0) == {"sims": {}}
    srv.step()  # reads the index (the request asked it to look)
    srv.step()  # one batch: the 16 texts asked for first: rowids 1 to 3, and 3 of rowid 4's 4
    assert fake.seen[-16:] == ["title 1\nbody 1\ntag", "cue 1 a", "cue 1 b", "cue 1 c", "cue 1 d",
                               *[t for r in (2, 3) for t in (f"title {r}\nbody {r}\ntag", f"cue {r} a", f"cue {r} b",
                                                             f"cue {r} c")],
                               "title 4\nbody 4\ntag", "cue 4 a", "cue 4 b"]
    got = srv.sims(srv.prompt_vector("cue 3 a"), rowids, budget=0)["sims"]
    assert set(got) == {"1", "2", "3"}
    assert got["3"] == pytest.approx(1.0, abs=1e-5)
    while srv.has_work():
        srv.step()
    assert set(srv.sims(srv.prompt_vector("cue 3 a"), rowids, budget=0)["sims"]) == {str(r) for r in rowids}
    calls = fake.calls
    srv.check_index = True
    srv.step()  # the index did not change: nothing embedded again
    assert not srv.has_work() and fake.calls == calls


def test_entries_that_leave_the_index_leave_the_cache(index_path):
    make_index(index_path, ENTRIES)
    srv = embed_cache.Server(FakeEmbedder(), index_path)
    while srv.has_work():
        srv.step()
    assert len(srv.cache) == 6  # three whole texts, three cues
    conn = sqlite3.connect(index_path, isolation_level=None)
    try:
        conn.execute("DELETE FROM entry WHERE rowid = 1")
        conn.execute("DELETE FROM fts WHERE rowid = 1")
    finally:
        conn.close()
    srv.check_index = True
    srv.step()
    assert set(srv.entries) == {2, 3} and len(srv.cache) == 3  # entry 1's text and its two cues went


def test_a_reader_of_the_index_does_not_make_the_embedder_read_every_entry_again(tmp_path, monkeypatch):
    """The hook opens and closes the index at every prompt, which moves the file's and the WAL's
    stamps; only a change of the entries (the index's change counter) makes the embedder read them."""
    from lazy_harness import paths
    from lazy_harness.recall import index
    from tests.support import memory_samples as ms

    project = ms.make_project(str(tmp_path), "shop")
    mdir = paths.memory_dir(project)
    ms.write_jsonl(f"{mdir}/decisions.jsonl", [ms.decision(1.7e9, "Cache product pages for a minute", "load",
                                                          project="shop", cues=["pages are slow at peak"])])
    path = paths.recall_index_file()
    conn, _ = index.open_current(path, [mdir], None)
    conn.close()
    reads = _record_reads(monkeypatch)
    srv = embed_cache.Server(FakeEmbedder(), path)
    srv.step()
    assert reads == [None] and len(srv.entries) == 1
    for _ in range(3):  # a prompt hook: opens the index, finds nothing to do, closes it
        conn, _ = index.open_current(path, [mdir], None)
        conn.execute("SELECT count(*) FROM fts").fetchone()
        conn.close()
        srv.check_index = True
        srv.step()
    assert reads == [None]
    ms.write_jsonl(f"{mdir}/decisions.jsonl", [ms.decision(1.7e9 + 60, "Queue emails through the outbox table",
                                                          "lost mails", project="shop")])
    conn, _ = index.open_current(path, [mdir], None)
    conn.close()
    srv.check_index = True
    srv.step()
    assert reads == [None, None] and len(srv.entries) == 2


def _bump(path: str, generation: int, epoch: int = 0) -> None:
    """What ``index.refresh`` leaves: the change counter, and the delete counter (``epoch``)."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT)")
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('generation', ?)", (str(generation),))
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('epoch', ?)", (str(epoch),))
    finally:
        conn.close()


def _warm_server(index_path: str):
    """A server whose every entry of ENTRIES is embedded, the index's counters at 1 and 0."""
    make_index(index_path, ENTRIES)
    _bump(index_path, 1)
    srv = embed_cache.Server(FakeEmbedder(), index_path)
    while srv.has_work():
        srv.step()
    return srv


def _record_reads(monkeypatch) -> list:
    """The rowids of every read of the index's entries from now on (None: all of them)."""
    reads = []
    real_rows = embed_cache.Index.rows
    monkeypatch.setattr(embed_cache.Index, "rows", lambda self, rowids=None: reads.append(rowids) or real_rows(self, rowids))
    return reads


def test_a_warm_answer_does_not_read_the_index_and_a_reused_rowid_is_not_trusted(index_path, monkeypatch):
    from tests.recall.test_embed_server import expected_sim

    srv = _warm_server(index_path)
    reads = _record_reads(monkeypatch)
    prompt = "photos upload timeout"
    got = srv.sims(srv.prompt_vector(prompt), [1, 2, 3])["sims"]
    assert reads == []  # every vector was known for the index as it is
    assert got == {str(e[0]): pytest.approx(expected_sim(prompt, e), abs=1e-5) for e in ENTRIES}
    # rowid 2 is dropped and handed out again to another entry, and the change counter moves
    other = (2, "Use ruff for formatting", "one tool", "lint", ["formatter choice"])
    conn = sqlite3.connect(index_path, isolation_level=None)
    try:
        conn.execute("DELETE FROM entry WHERE rowid = 2")
        conn.execute("DELETE FROM fts WHERE rowid = 2")
        from tests.recall.test_embed_server import add_entries

        add_entries(conn, [other])
    finally:
        conn.close()
    _bump(index_path, 2, epoch=1)
    got = srv.sims(srv.prompt_vector(prompt), [2], budget=1.0)["sims"]
    assert reads == [[2]]  # read again: an entry was deleted since it read the list
    assert got["2"] == pytest.approx(expected_sim(prompt, other), abs=1e-5)
    assert got["2"] != pytest.approx(expected_sim(prompt, ENTRIES[1]), abs=1e-3)


def test_the_kept_connection_follows_a_rebuilt_index_file(index_path):
    make_index(index_path, ENTRIES)
    idx = embed_cache.Index(index_path)
    assert set(idx.rows([1, 2])) == {1, 2}
    index.remove(index_path)  # as the hook removes a damaged index, to build it again
    with pytest.raises(sqlite3.Error):
        idx.rows([1])
    make_index(index_path, ENTRIES[2:])
    assert set(idx.rows([1, 2, 3])) == {3}  # the new file, not the deleted one still open
    idx.close()


def test_after_entries_were_only_added_the_known_ones_answer_unread_and_the_new_ones_are_read(index_path, monkeypatch):
    from tests.recall.test_embed_server import add_entries, expected_sim

    srv = _warm_server(index_path)
    new = (4, "Deploy with blue green", "switch the router", "deploy", ["zero downtime release"])
    conn = sqlite3.connect(index_path, isolation_level=None)
    try:
        add_entries(conn, [new])
    finally:
        conn.close()
    _bump(index_path, 2)  # the change counter moved, the delete counter did not
    reads = _record_reads(monkeypatch)
    prompt = "release without downtime"
    got = srv.sims(srv.prompt_vector(prompt), [4, 1, 2], budget=1.0)["sims"]
    assert reads == [[4]]
    assert got == {str(e[0]): pytest.approx(expected_sim(prompt, e), abs=1e-5) for e in (new, ENTRIES[0], ENTRIES[1])}
