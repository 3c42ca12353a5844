"""A constraint our own statement breaks (IntegrityError), a value too big (DataError) or an API the
SQLite build lacks (NotSupportedError) is SQL of ours meeting a sound file: a bug, not damage. ``damaged``
said yes to every ``DatabaseError`` subclass but two, so the writer removed an index that takes minutes
to build and built it again, to meet the same bug (issue 38, item 7: only a damaged file is thrown away)."""

import os
import sqlite3
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.recall.index import apply, store, writer
from tests.support import memory_samples as ms

NOW = time.time()


def test_a_broken_constraint_is_not_damage():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE entry (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL)")
    conn.execute("INSERT INTO entry VALUES (1, 'a')")
    for sql in ("INSERT INTO entry VALUES (1, 'b')", "INSERT INTO entry VALUES (2, NULL)"):
        with pytest.raises(sqlite3.IntegrityError) as err:
            conn.execute(sql)
        assert not store.damaged(err.value), err.value
    assert not store.damaged(sqlite3.DataError("string or blob too big"))
    assert not store.damaged(sqlite3.NotSupportedError("deterministic=True requires SQLite 3.8.3 or higher"))


def test_the_writer_keeps_the_index_when_its_own_insert_breaks_a_constraint(tmp_path, monkeypatch):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 9, "Keep the stylesheet in one file")])
    path = paths.recall_index_file()
    assert writer.update(path, [mem], None)[0] == 1
    conn = store.connect(path)
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('probe', 'kept')")  # a mark of this very file
    conn.close()
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW, "Cut the release train on Tuesdays")])

    def broken(conn, *args, **kwargs):
        conn.execute("INSERT INTO entry(rowid, id) VALUES (1, 'again')")  # a rowid handed out twice: our bug

    monkeypatch.setattr(apply, "_count", broken)
    with pytest.raises(sqlite3.IntegrityError):
        writer.update(path, [mem], None)
    conn = store.connect(path)
    try:
        assert conn.execute("SELECT v FROM meta WHERE k='probe'").fetchone() == ("kept",)
    finally:
        conn.close()
