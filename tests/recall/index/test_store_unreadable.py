"""An index that fails to read in any way (here: a schema name that is not UTF-8, which Python reports as
UnicodeDecodeError, not as a SQLite error) is built again by every reader; no command shows a traceback;
``lh doctor`` says so."""

import json
import os
import sqlite3
import struct
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.recall.index import store, writer
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import hook_log, run_hook, spawned_workers_gone
from tests.support import memory_samples as ms

NOW = time.time()
PROMPT = "the deploy scheduler ran twice last night, can we lock it in postgres"


def scribble_schema(path: str) -> None:
    """Give the index's ``meta`` table a name that is not UTF-8, as a bad sector or a stray write can."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA writable_schema=ON")
    conn.execute("UPDATE sqlite_master SET name=CAST(X'6d65ff74' AS TEXT), "
                 "sql=CAST(X'435245415445205441424c45206d65746128ff' AS TEXT) WHERE name='meta'")
    conn.commit()
    conn.close()


@pytest.fixture
def damaged(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - 9 * ms.DAY, "Use Postgres advisory locks for the deployment scheduler", "two runners"),
        ms.decision(NOW - 8 * ms.DAY, "Keep the stylesheet in one file", "simple")])
    path = paths.recall_index_file()
    assert writer.update(path, [mem], None)[0] == 2
    scribble_schema(path)
    with pytest.raises(UnicodeDecodeError):  # really damaged, in the way the issue met it
        sqlite3.connect(path).execute("SELECT v FROM meta").fetchone()
    return root, mem, path


def test_damaged_says_yes_to_a_damaged_file_only():
    assert store.damaged(UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"))
    assert store.damaged(sqlite3.DatabaseError("database disk image is malformed"))
    assert store.damaged(sqlite3.DatabaseError("file is not a database"))
    assert store.damaged(sqlite3.OperationalError("no such table: entry"))
    assert store.damaged(struct.error("unpack requires a buffer of 256 bytes"))
    # a programming error is not damage: building the index again would not cure it
    assert not store.damaged(ValueError("anything else"))
    assert not store.damaged(TypeError("'NoneType' object is not subscriptable"))
    assert not store.damaged(KeyError("recall"))
    assert not store.damaged(sqlite3.ProgrammingError("Cannot operate on a closed database."))
    assert not store.damaged(sqlite3.InterfaceError("Error binding parameter 1"))
    assert not store.damaged(sqlite3.OperationalError("database is locked"))
    assert not store.damaged(sqlite3.OperationalError("database table is locked"))
    assert not store.damaged(sqlite3.OperationalError("interrupted"))
    assert not store.damaged(PermissionError(13, "Permission denied"))
    for said in ("unable to open database file", "attempt to write a readonly database",
                 "database or disk is full", "out of memory", "locking protocol"):
        assert not store.damaged(sqlite3.OperationalError(said)), said
    # SQL of ours that is wrong, as SQLite says it on a sound index: a bug, not the file's damage
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE entry (id TEXT)")
    for sql in ("SELEC id FROM entry", "SELECT idd FROM entry"):
        with pytest.raises(sqlite3.OperationalError) as err:
            conn.execute(sql)
        assert not store.damaged(err.value), err.value
    with pytest.raises(sqlite3.OperationalError) as err:
        conn.execute("SELECT id FROM entries")
    assert store.damaged(err.value)  # a table missing from the file: damage
    assert not store.damaged(KeyboardInterrupt())


def test_connect_and_the_writer_build_it_again(damaged):
    _, mem, path = damaged
    assert writer.update(path, [mem], None)[0] == 2
    scribble_schema(path)
    conn = store.connect(path)
    assert store.refresh_within(conn, [mem], None) == (2, True)
    conn.close()


def test_memory_search_and_show_prompt_rebuild_it_without_a_traceback(damaged):
    root, _, path = damaged
    out = invoke("memory", "search", "scheduler", "--project", root, "--json")
    assert out.code == 0 and "Traceback" not in out.out + out.err, out.err
    assert [json.loads(ln)["summary"] for ln in out.out.splitlines()] == [
        "Use Postgres advisory locks for the deployment scheduler"]
    scribble_schema(path)
    shown = invoke("memory", "show", "--prompt", PROMPT, "--project", root)
    assert shown.code == 0 and "Traceback" not in shown.out + shown.err, shown.err
    assert "advisory locks" in shown.out


def test_the_prompt_hook_removes_it_and_the_worker_builds_it_again(damaged):
    root, _, path = damaged

    def ask(sid: str):
        r = run_hook("UserPromptSubmit", {"session_id": sid, "cwd": root, "hook_event_name": "UserPromptSubmit",
                                          "prompt": PROMPT})
        assert r.returncode == 0 and r.stderr == b""
        return r.stdout

    assert ask("5f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f47") == b""  # the prompt never waits for a build
    assert " index=damaged " in hook_log(paths.claude_dir())[-1]
    spawned_workers_gone(timeout=120)
    out = ask("6f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f47")
    assert "advisory locks" in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert not any("UnicodeDecodeError" in line or "error" in line.lower() for line in hook_log(paths.claude_dir()))


def test_doctor_reports_a_damaged_index(damaged, tmp_path):
    _, _, path = damaged
    found = [ln for ln in invoke("doctor").out.splitlines() if "recall index:" in ln]
    assert len(found) == 1 and found[0].startswith("warn") and "damaged" in found[0] and path in found[0]
    assert "lh memory reindex" in found[0]
    assert invoke("memory", "reindex").code == 0
    found = [ln for ln in invoke("doctor").out.splitlines() if "recall index:" in ln]
    assert found[0].startswith("ok"), found


def test_a_programming_error_while_searching_keeps_the_index(tmp_path, monkeypatch):
    """A bug in the code that reads the index is raised; the index (a cache that can take minutes to
    build) is not thrown away for it."""
    from lazy_harness import config
    from lazy_harness.recall.prompt import recall as recall_prompt
    from lazy_harness.recall.prompt import rank

    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - 9 * ms.DAY, "Use Postgres advisory locks for the deployment scheduler", "two runners")])
    cfg = config.load(os.environ)
    text, _ = recall_prompt.context_for(PROMPT, root, cfg, os.environ, deep=True)
    assert text and "advisory locks" in text
    path = paths.recall_index_file()
    conn = store.connect(path)  # a mark of this very file: a rebuilt index would not have it
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('probe', 'kept')")
    conn.commit()
    conn.close()

    def broken(*args, **kwargs):
        raise TypeError("'NoneType' object is not subscriptable")

    monkeypatch.setattr(rank, "rank", broken)
    with pytest.raises(TypeError):
        recall_prompt.context_for(PROMPT, root, cfg, os.environ)
    conn = store.connect(path)
    try:
        assert conn.execute("SELECT v FROM meta WHERE k='probe'").fetchone() == ("kept",)
    finally:
        conn.close()
