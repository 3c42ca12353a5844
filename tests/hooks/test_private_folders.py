"""Hooks neither read nor write a folder of ours another user could write (ADR 0031): they skip,
log one line naming the folder, and leave it as it was."""

import os

import pytest

from lazy_harness import paths, private
from tests.hooks.hookrun import SID, hook_log, run_hook

PAYLOAD = {"session_id": SID, "cwd": "/nonexistent", "prompt": "the deploy scheduler ran twice last night, why"}


@pytest.mark.parametrize("what", ["data", "cache", "recall", "queue", "state"])
@pytest.mark.parametrize("event", ["UserPromptSubmit", "Stop", "SessionStart"])
def test_a_hook_skips_on_a_folder_others_may_write(what, event):
    folder = dict((w, p) for w, p, _ in private.folders())[what]
    os.makedirs(folder)
    os.chmod(folder, 0o777)
    r = run_hook(event, dict(PAYLOAD, hook_event_name=event))
    assert r.returncode == 0 and r.stdout == b"" and r.stderr == b""
    lines = hook_log(paths.claude_dir())
    assert len(lines) == 1 and f"skipped: {folder} is open to group or others (mode 0777); see lh doctor" in lines[0]
    assert os.listdir(folder) == []  # nothing read from or written into it
