"""The hot path stays cheap and correct: the compiled config follows every edit of config.toml, and
Stop and SessionEnd never import ``json`` or ``re`` (their import is most of what a hook costs in a
fresh virtualenv; see docs/how/performance.md). Hooks run as Claude Code runs them."""

import json
import os
import subprocess
import sys

import pytest

import lazy_harness
from lazy_harness import paths, queue
from tests.hooks.hookrun import enable_loop, hook_log, run_hook, worker_lock_held

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(lazy_harness.__file__)))


def write_config(text: str) -> str:
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)
    return path


def last_decision() -> str:
    return hook_log(paths.claude_dir())[-1]


def test_an_edit_of_config_toml_is_used_by_the_next_hook_run(session, isolated_home):
    write_config("[compound_loop]\nenabled = true\n")
    with worker_lock_held(paths.claude_dir()):
        run_hook("Stop", session)
        assert " queued " in last_decision()
        assert os.path.exists(os.path.join(paths.state_dir(), "config.json"))  # the compiled form
        write_config("[compound_loop]\nenabled = false\n")
        run_hook("Stop", session)
        assert "skipped: compound loop disabled" in last_decision()
        write_config("[compound_loop]\nenabled = true\ndebounce_seconds = 0\n")
        run_hook("Stop", session)
        assert " queued " in last_decision()  # not debounced: the new debounce_seconds applies


def test_a_same_size_edit_is_seen_too(session, isolated_home):
    # why: the snapshot is keyed by mtime as well as size; the mtime is set explicitly so the test
    # does not depend on the file system's timestamp granularity
    path = write_config("[compound_loop]\nenabled = true \n")
    with worker_lock_held(paths.claude_dir()):
        run_hook("Stop", session)
        assert " queued " in last_decision()
        before = os.stat(path)
        write_config("[compound_loop]\nenabled = false\n")
        assert os.stat(path).st_size == before.st_size
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
        run_hook("Stop", session)
        assert "skipped: compound loop disabled" in last_decision()


def test_deleting_config_toml_falls_back_to_the_defaults(session, isolated_home):
    path = write_config("[compound_loop]\nenabled = true\n")
    with worker_lock_held(paths.claude_dir()):
        run_hook("Stop", session)
        assert " queued " in last_decision()
        os.unlink(path)
        result = run_hook("Stop", session)
        assert (result.returncode, result.stdout) == (0, b"")
        assert "skipped: compound loop disabled" in last_decision()  # the default is off


def imported_modules(event: str, payload: dict) -> list[str]:
    """Modules a hook run imports, with ``-S`` so site-packages' .pth files import nothing first."""
    env = dict(os.environ, PYTHONPATH=PACKAGE_PARENT)
    p = subprocess.run([sys.executable, "-S", "-X", "importtime", "-m", "lazy_harness.hooks", event],
                       input=json.dumps(payload).encode(), capture_output=True, env=env, timeout=60)
    assert p.returncode == 0, p.stderr.decode()[-2000:]
    return [line.rsplit("|", 1)[1].strip() for line in p.stderr.decode().splitlines()
            if line.startswith("import time:") and "|" in line]


@pytest.mark.parametrize("event", ["Stop", "SessionEnd"])
def test_stop_and_session_end_import_neither_json_nor_re(session, isolated_home, event):
    enable_loop(isolated_home, debounce_seconds=0)
    payload = dict(session, hook_event_name=event, reason="other")
    with worker_lock_held(paths.claude_dir()) as q:
        imported_modules(event, payload)  # compiles config.toml into its snapshot
        names = imported_modules(event, payload)
        assert " queued " in last_decision()  # the measured run went through the enqueue and spawn
        assert queue.pending(q)
    heavy = [n for n in names if n in ("json", "re") or n.startswith(("json.", "re."))]
    assert not heavy, f"{event} imported {heavy}"


def test_session_start_with_memory_imports_neither_json_nor_re(session, isolated_home):
    memory = paths.memory_dir(session["cwd"])
    os.makedirs(memory)
    with open(os.path.join(memory, "decisions.jsonl"), "w") as fh:
        for i in range(50):
            fh.write(json.dumps({"ts": "2026-11-01T10:00:00+00:00", "type": "decision", "summary": f"d{i}",
                                 "rationale": "r"}) + "\n")
    payload = dict(session, hook_event_name="SessionStart", source="startup")
    imported_modules("SessionStart", payload)  # compiles the config snapshot
    names = imported_modules("SessionStart", payload)
    assert "source=startup" in last_decision() and "no memory" not in last_decision()
    heavy = [n for n in names if n in ("json", "re") or n.startswith(("json.", "re."))]
    assert not heavy, f"SessionStart imported {heavy}"
