"""The index file a writer has just made, before its tables are committed (``store.connect``: the file
opened, then the schema in one transaction): a prompt that came in between read "no index in the file",
took it for damage and removed it under the writer, whose whole build then went into a file no longer
there (seen once in 48 prompts during six reindexes). A file without any table is an index being made:
the prompt reads it as missing and removes nothing."""

import os
import sqlite3
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from tests.hooks.hookrun import hook_log, run_hook
from tests.support import memory_samples as ms

NOW = time.time()


@pytest.mark.parametrize("state", ["empty file", "wal mode, no table yet"])
def test_a_prompt_leaves_an_index_being_made_alone(tmp_path, state):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 9, "Keep the stylesheet in one file")])
    path = paths.recall_index_file()
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))  # what the writer does first
    conn = sqlite3.connect(path)  # held open, as the writer holds it
    if state != "empty file":
        conn.execute("PRAGMA journal_mode=WAL")
    ino = os.stat(path).st_ino
    try:
        r = run_hook("UserPromptSubmit", {"session_id": "s-1", "cwd": root, "hook_event_name": "UserPromptSubmit",
                                          "prompt": "where do we keep the stylesheet for the site"})
        assert r.returncode == 0 and r.stderr == b"", r.stderr
        last = hook_log(paths.claude_dir())[-1]
        assert " index=missing " in last, last
        assert os.path.exists(path) and os.stat(path).st_ino == ino  # the writer's file is still there
    finally:
        conn.close()
