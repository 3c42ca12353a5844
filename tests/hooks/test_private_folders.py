"""Hooks neither read nor write a folder of ours another user could write (ADR 0031): they skip,
log one line naming the folder, and leave it as it was. Stop and SessionEnd only queue: for a cache
or data folder that fails they still queue the session, and the worker waits until it is fixed."""

import json
import os
import time

import pytest

from lazy_harness import paths, private, queue
from tests.hooks.hookrun import SID, enable_loop, hook_log, run_hook
from tests.support.as_person import not_the_persons

PAYLOAD = {"session_id": SID, "cwd": "/nonexistent", "prompt": "the deploy scheduler ran twice last night, why"}


def folder_of(what: str) -> str:
    return dict((w, p) for w, p, _ in private.folders())[what]


@pytest.mark.parametrize("event, what", [(e, w) for e in ("UserPromptSubmit", "SessionStart")
                                         for w in ("data", "cache", "recall", "queue", "state", "config")]
                         + [(e, w) for e in ("Stop", "SessionEnd") for w in ("queue", "state", "config")])
def test_a_hook_skips_on_a_folder_others_may_write(event, what):
    folder = folder_of(what)
    os.makedirs(folder)
    os.chmod(folder, 0o777)
    r = run_hook(event, dict(PAYLOAD, hook_event_name=event))
    assert r.returncode == 0 and r.stderr == b""
    if event == "SessionStart":
        # the person is told why no memory comes back (a refused config alone: tests/hooks/test_cfgfx_*;
        # a refused folder: tests/hooks/test_session_start_refused_folder.py)
        told = json.loads(r.stdout)
        assert set(told) == {"systemMessage"} and folder in told["systemMessage"], told
    else:
        assert r.stdout == b""
    lines = hook_log(paths.claude_dir())
    assert len(lines) == 1 and f"skipped: {folder} is open to group or others (mode 0777); see lh doctor" in lines[0]
    assert os.listdir(folder) == []  # nothing read from or written into it


@pytest.mark.parametrize("event", ["UserPromptSubmit", "Stop"])
def test_a_hook_does_not_read_a_config_others_may_write(event):
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), mode=0o700)
    with open(path, "w") as fh:
        fh.write("[compound_loop]\nenabled = true\n")
    os.chmod(path, 0o666)
    r = run_hook(event, dict(PAYLOAD, hook_event_name=event))
    assert r.returncode == 0 and r.stdout == b""
    [line] = hook_log(paths.claude_dir())
    assert f"skipped: {path} is open to group or others (mode 0666); see lh doctor" in line
    assert not os.path.exists(paths.state_dir())  # no snapshot of it was written


@pytest.mark.parametrize("what", ["data", "cache"])
def test_stop_still_queues_and_the_worker_waits(session, isolated_home, what):
    enable_loop(isolated_home)
    folder = folder_of(what)
    os.makedirs(folder)
    os.chmod(folder, 0o777)
    r = run_hook("Stop", session)
    assert r.returncode == 0 and "queued" in hook_log(paths.claude_dir())[-1]
    assert len(queue.pending(paths.queue_dir())) == 1  # the session waits in the queue, not lost
    worker_log = os.path.join(paths.logs_dir(), "worker.log")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not os.path.exists(worker_log):
        time.sleep(0.05)
    assert f"not started: {folder} is open to group or others" in open(worker_log).read()
    assert os.listdir(folder) == []


def test_doctor_never_runs_a_program_a_config_others_may_write_names(tmp_path):
    """The hooks refuse such a config and say "see lh doctor"; doctor read it anyway and ran its
    claude_path (``--version``) as the user. It says why the file is not read and uses the defaults."""
    from tests.cli.lhrun import invoke

    marker = tmp_path / "ran"
    program = tmp_path / "not-claude.sh"
    program.write_text(f"#!/bin/sh\ntouch {marker}\necho '2.1.300 (Claude Code)'\n")
    program.chmod(0o755)
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), mode=0o700)
    with open(path, "w") as fh:
        fh.write(f'[compound_loop]\nenabled = true\nclaude_path = "{program}"\n')
    os.chmod(path, 0o666)
    r = invoke("doctor")
    assert not marker.exists(), r.out
    assert f"{path} is open to group or others (mode 0666): not read" in r.out and r.code == 1


def test_lh_worker_run_refuses_a_queue_others_may_write():
    from tests.cli.lhrun import invoke

    folder = folder_of("queue")
    os.makedirs(folder)
    os.chmod(folder, 0o777)
    r = invoke("worker", "run", "--once")
    assert r.code == 1 and f"{folder} is open to group or others (mode 0777)" in r.err
    assert os.listdir(folder) == []


@pytest.mark.parametrize("event", ["UserPromptSubmit", "Stop"])
def test_a_hook_does_not_read_a_config_in_a_folder_another_user_may_rename_in(event, tmp_path):
    """LH_CONFIG names a file of the user's, but its folder is another user's: they could swap their
    own file in at any time, so the hook skips as for a config of theirs (ADR 0031)."""
    shared = tmp_path / "shared"
    shared.mkdir()
    path = shared / "config.toml"
    path.write_text("[compound_loop]\nenabled = true\n")
    os.chmod(path, 0o600)
    said = not_the_persons(str(shared), 0o755).replace(" (uid 0)", f" (uid {os.geteuid()}) nor root")
    r = run_hook(event, dict(PAYLOAD, hook_event_name=event), env=dict(os.environ, LH_CONFIG=str(path)))
    assert r.returncode == 0 and r.stdout == b""
    [line] = hook_log(paths.claude_dir())
    assert f"skipped: {shared} {said}" in line and "; see lh doctor" in line
    assert not os.path.exists(os.path.join(paths.state_dir(), "config.json"))  # no snapshot of it
