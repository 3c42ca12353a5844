"""A symbolic link in the index's place (to another user's file, to another program's database): the
writer followed it, wrote the whole index (the person's memory) into the file it names and switched that
database to WAL mode. Now the link is taken for a damaged index: removed (the link, never what it names)
and the index built again in its place; a reader (the prompt hook) reads nothing through it."""

import json
import os
import sqlite3
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.recall.index import store, writer
from tests.hooks.hookrun import hook_log, run_hook
from tests.support import memory_samples as ms

NOW = time.time()


@pytest.fixture
def linked(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 9, "Keep the stylesheet in one file",
                                                                     session_id="s-old")])
    other = str(tmp_path / "someone-else" / "notes.db")
    os.makedirs(os.path.dirname(other))
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes(t)")
    conn.execute("INSERT INTO notes VALUES ('theirs')")
    conn.commit()
    conn.close()
    before = open(other, "rb").read()
    path = paths.recall_index_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(other, path)
    return root, mem, path, other, before


def test_the_writer_never_writes_through_a_link_in_the_index_place(linked):
    _, mem, path, other, before = linked
    assert writer.update(path, [mem], None)[0] == 1
    assert open(other, "rb").read() == before  # what the link named is untouched
    assert not os.path.exists(other + "-wal") and not os.path.exists(other + "-shm")
    assert not os.path.islink(path) and os.path.isfile(path)  # the index made in the link's place
    conn = store.connect(path)
    try:
        assert conn.execute("SELECT count(*) FROM entry").fetchone()[0] == 1
    finally:
        conn.close()


def test_the_prompt_hook_reads_nothing_through_a_link(linked):
    root, _, path, other, before = linked
    r = run_hook("UserPromptSubmit", {"session_id": "s-1", "cwd": root, "hook_event_name": "UserPromptSubmit",
                                      "prompt": "where do we keep the stylesheet for the site"})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    assert r.stdout == b"" or "stylesheet" not in json.dumps(json.loads(r.stdout))
    assert open(other, "rb").read() == before
    assert not os.path.exists(other + "-wal") and not os.path.exists(other + "-shm")
    assert " index=damaged " in hook_log(paths.claude_dir())[-1]
    assert not os.path.lexists(path) or not os.path.islink(path)


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
def test_a_link_in_place_of_the_wal_or_shm_is_never_written_through(tmp_path, suffix):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 9, "Keep the stylesheet in one file")])
    path = paths.recall_index_file()
    assert writer.update(path, [mem], None)[0] == 1
    for gone in ("-wal", "-shm"):
        if os.path.exists(path + gone):
            os.unlink(path + gone)
    other = str(tmp_path / "someone-elses-file")
    with open(other, "w") as fh:
        fh.write("their words\n")
    os.symlink(other, path + suffix)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW, "Cut the release train on Tuesdays")])
    assert writer.update(path, [mem], None)[0] == 1
    assert open(other).read() == "their words\n"
    assert not os.path.islink(path + suffix)
