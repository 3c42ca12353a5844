"""SessionStart with a memory a person (or a tool) damaged: the hook exits 0, prints one JSON object,
shows what is readable and names the rest in hooks.log."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from tests.hooks.hookrun import hook_log, run_hook
from tests.support import memory_samples as ms

SID = "3c9e1b27-5a4d-4f08-b6e2-7d1a0c8f4e35"
NOW = time.time()


def _start(project: str) -> str | None:
    result = run_hook("SessionStart", {"session_id": SID, "transcript_path": f"/nowhere/{SID}.jsonl",
                                       "cwd": project, "hook_event_name": "SessionStart", "source": "startup"})
    assert result.returncode == 0, result.stderr
    if not result.stdout:
        return None
    return json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]


@pytest.mark.parametrize("make", [os.mkfifo, os.mkdir], ids=["fifo", "folder"])
def test_a_fifo_or_folder_named_as_a_learning_is_passed_over_and_named(isolated_home, tmp_path, make):
    """A FIFO named like a learning (``mkfifo``, a tool's named pipe) held SessionStart in ``open()``
    until Claude Code's hook timeout, and every session waited for it."""
    project = ms.make_project(tmp_path, "demo")
    mem = paths.memory_dir(project)
    ldir = paths.learnings_dir(None)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 9000, "ship the ledger export", "r",
                                                                    project="demo")])
    good = ms.write_learning(ldir, "ledger exports are idempotent", "demo", NOW - 100, learning="a marker")
    assert "ledger exports are idempotent" in (_start(project) or "")  # the first start, as usual
    odd = os.path.join(os.path.dirname(good), os.path.basename(good).replace("ledger", "pipe"))
    make(odd)

    text = _start(project)

    assert text is not None and "ledger exports are idempotent" in text and "ship the ledger export" in text
    line = hook_log(paths.claude_dir())[-1]
    assert "not a regular file" in line and odd in line, line


@pytest.mark.parametrize("name", [files.HANDOFF, "handoff.jsonl", "marks.jsonl"])
def test_a_fifo_in_place_of_a_memory_file_does_not_hold_the_start(isolated_home, tmp_path, name):
    """A FIFO where handoff.md, handoff.jsonl or marks.jsonl should be held the open, and so the session's
    start, until Claude Code killed the hook: no memory at all. It reads as no file (handoff.md) or is named
    in hooks.log (handoff.jsonl, marks.jsonl), and the decisions are shown all the same, but for marks.jsonl:
    without it, what the person forgot would come back (tests/memory/test_marks_unreadable.py)."""
    project = ms.make_project(tmp_path, "demo")
    mem = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 9000, "ship the ledger export", "r",
                                                                    project="demo")])
    os.mkfifo(os.path.join(mem, name))

    text = _start(project)

    assert text is not None and ("ship the ledger export" in text) == (name != "marks.jsonl")
    if name != files.HANDOFF:  # why not it: a handoff.md that is no file reads as none (the log is the state)
        line = hook_log(paths.claude_dir())[-1]
        assert name in line and "not a regular file" in line, line
