"""The index opened read only (``store.read_only``: a command's progress line, ``lh doctor``) by a path
with URI syntax in it: a folder named with "#", "?" or "%" is the folder, not a cut-off path and a
query, so the count is the index's and no stray file is made where the path was cut."""

import os

import pytest

from lazy_harness.memory import files
from lazy_harness.recall.index import store, writer
from lazy_harness.recall.index.lookup import doc_count
from tests.support import memory_samples as ms


@pytest.mark.parametrize("odd", ["cache #2", "what?mode=rwc", "100%25 full"])
def test_the_index_read_only_by_a_path_with_uri_syntax(tmp_path, odd):
    folder = tmp_path / odd
    folder.mkdir(mode=0o700)
    path = str(folder / "recall.sqlite")
    mdir, ldir = tmp_path / "memory" / "proj", tmp_path / "learnings"
    ms.write_jsonl(str(mdir / files.DECISIONS), [ms.decision(1.7e9, "Use Postgres advisory locks", "two runners"),
                                                 ms.decision(1.7e9 + 60, "Keep the stylesheet in one file", "simple")])
    writer.update(path, [str(mdir)], str(ldir))
    conn = store.connect(path)
    try:
        held = doc_count(conn)
    finally:
        conn.close()
    assert held == 2
    before = sorted(os.listdir(tmp_path))
    assert writer.indexed_so_far(path) == held
    reader = store.read_only(path, timeout=1.0)
    try:
        assert doc_count(reader) == held
    finally:
        reader.close()
    assert sorted(os.listdir(tmp_path)) == before


def test_the_index_read_only_by_a_path_that_starts_with_two_slashes(tmp_path):
    """``//tmp/x`` is ``/tmp/x`` to the system; in a URI ``//tmp`` would name a host."""
    mdir, ldir = tmp_path / "memory" / "proj", tmp_path / "learnings"
    ms.write_jsonl(str(mdir / files.DECISIONS), [ms.decision(1.7e9, "Use Postgres advisory locks", "two runners")])
    path = str(tmp_path / "recall.sqlite")
    writer.update(path, [str(mdir)], str(ldir))
    assert writer.indexed_so_far("/" + path) == 1
