"""The embedder's cache and warm-up queue, without the socket: what a ``sims`` answer covers, what the
warm-up embeds first, what leaves the cache (the loop around it: test_embed_server.py)."""

import sqlite3

import pytest

from lazy_harness.recall import embed_cache
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
    reads = []
    real_rows = embed_cache.Index.rows
    monkeypatch.setattr(embed_cache.Index, "rows", lambda self, rowids=None: reads.append(rowids) or real_rows(self, rowids))
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
