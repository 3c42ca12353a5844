"""Run a hook the way Claude Code does: a subprocess with the JSON payload on stdin."""

import fcntl
import json
import os
import subprocess
import sys
from contextlib import contextmanager

SID = "5f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f47"  # a session id shaped like Claude Code's


def run_hook(event: str, payload, env: dict | None = None, timeout: float = 20) -> subprocess.CompletedProcess:
    data = payload if isinstance(payload, (bytes, str)) else json.dumps(payload)
    return subprocess.run([sys.executable, "-m", "lazy_harness.hooks", event], input=data if isinstance(data, bytes)
                          else data.encode(), capture_output=True, env=env or dict(os.environ), timeout=timeout)


def enable_loop(home, **keys) -> str:
    """Write a config.toml turning the loop on (plus any compound_loop keys) and return its path."""
    path = os.path.join(str(home), ".config", "lazy-harness", "config.toml")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = ["[compound_loop]", "enabled = true"]
    for key, value in keys.items():
        lines.append(f"{key} = {json.dumps(value)}")
    # why off: these tests count the distill calls; the model check's call has its own tests
    # (tests/worker/test_model_check.py). The learned check off too: made-up notes around a random hex
    # token (rig.new_token) can score near its bar; it has its own tests (tests/worker/test_learned_check.py
    # and the eval sets). Last, so a test may append more [trust] keys
    lines += ["[trust]", "model_check = false", "learned_check = false"]
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return path


@contextmanager
def worker_lock_held(claude_dir):
    """Hold the worker lock so spawned workers leave at once and the queue stays as the hook left it."""
    q = os.path.join(str(claude_dir), "queue")
    os.makedirs(q, exist_ok=True)
    fd = os.open(os.path.join(q, ".worker.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield q
    finally:
        os.close(fd)


def hook_log(claude_dir) -> list[str]:
    try:
        with open(os.path.join(str(claude_dir), "logs", "hooks.log")) as fh:
            return fh.read().splitlines()
    except FileNotFoundError:
        return []


def spawned_workers_gone(timeout: float = 30, what: str = "worker") -> None:
    """Wait until every worker (or, with ``what``, index builder) a hook detached has exited (their
    pids are in hooks.log), so none is left to act later in the test. The timeout only keeps a bug
    from hanging the suite."""
    import re
    import time

    from lazy_harness import paths

    pids = {int(m) for line in hook_log(paths.claude_dir()) for m in re.findall(what + r" pid (\d+)", line)}
    deadline = time.monotonic() + timeout
    for pid in pids:
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.02)
        else:
            raise AssertionError(f"{what} {pid} still running after {timeout} s")

