"""A person whose umask is 002 (the default for a user of Ubuntu or Fedora, whose group is their own):
the folders lazy-harness makes for itself stay closed to the group. Made open, every hook after them
skipped with "is open to group or others; see lh doctor" (ADR 0031) and no session was remembered."""

import json
import os
import stat
import time

import pytest

from lazy_harness import paths, private
from lazy_harness.memory import ids
from tests.hooks.hookrun import SID, enable_loop, run_hook, worker_lock_held
from tests.support import memory_samples as ms

DECISION = "Keep the job queue in Postgres, not Redis"


@pytest.fixture
def umask_002():
    before = os.umask(0o002)
    try:
        yield
    finally:
        os.umask(before)


def _synced_memory(tmp_path) -> str:
    """A project whose memory came from another machine (git sync): no queue, state or cache yet."""
    root = ms.make_project(str(tmp_path), "api")
    mdir = paths.memory_dir(root)
    private.make(mdir)  # as the worker or the sync makes it
    rec = ms.decision(time.time() - 3600, DECISION, "one store fewer", id=ids.entry_id("decision", DECISION))
    ms.write_jsonl(os.path.join(mdir, "decisions.jsonl"), [rec])
    return root


def _open_to_group() -> list[str]:
    out = []
    for _what, path, _strict in private.folders():
        for folder, dirs, _files in os.walk(path) if os.path.isdir(path) else ():
            for name in [folder, *(os.path.join(folder, d) for d in dirs)]:
                if os.lstat(name).st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                    out.append(f"{name} {oct(os.lstat(name).st_mode & 0o777)}")
    return sorted(set(out))


def test_the_hooks_of_a_first_session_leave_every_folder_of_ours_closed(isolated_home, tmp_path, umask_002):
    root = _synced_memory(tmp_path)
    private.make(os.path.dirname(paths.config_file()))  # as `lh hooks install` makes it
    os.chmod(enable_loop(isolated_home), 0o600)
    base = {"session_id": SID, "cwd": root, "transcript_path": str(tmp_path / "t.jsonl")}
    start = run_hook("SessionStart", {**base, "hook_event_name": "SessionStart", "source": "startup"})
    assert DECISION in json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    with worker_lock_held(paths.claude_dir()):
        run_hook("UserPromptSubmit", {**base, "hook_event_name": "UserPromptSubmit",
                                      "prompt": "should the job queue move from Postgres to Redis?"})
        run_hook("Stop", {**base, "hook_event_name": "Stop", "stop_hook_active": False})
    assert _open_to_group() == []
    assert private.unsafe() == []
    again = run_hook("SessionStart", {**base, "hook_event_name": "SessionStart", "source": "resume"})
    assert DECISION in json.loads(again.stdout)["hookSpecificOutput"]["additionalContext"]


def test_a_prompt_as_the_first_hook_leaves_every_folder_of_ours_closed(isolated_home, tmp_path, umask_002):
    """Hooks installed while a session runs: its next prompt is the first hook to run, with no
    SessionStart before it (the index made by the worker, as after a distillation)."""
    from lazy_harness.recall.index import writer

    root = _synced_memory(tmp_path)
    writer.update(paths.recall_index_file(), [paths.memory_dir(root)], paths.learnings_dir())
    private.make(os.path.dirname(paths.config_file()))
    os.chmod(enable_loop(isolated_home), 0o600)
    base = {"session_id": SID, "cwd": root, "transcript_path": str(tmp_path / "t.jsonl")}
    first = run_hook("UserPromptSubmit", {**base, "hook_event_name": "UserPromptSubmit",
                                          "prompt": "should the job queue move from Postgres to Redis?"})
    assert DECISION in json.loads(first.stdout)["hookSpecificOutput"]["additionalContext"]
    assert _open_to_group() == []
    assert private.unsafe() == []
