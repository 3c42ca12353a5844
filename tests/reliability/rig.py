"""Shared set-up for the reliability suite: sessions with a token, hooks started together, the
workers they spawn, and checks on what ended up on disk.

Everything runs as it does for a user: hooks are ``python -m lazy_harness.hooks <Event>``
subprocesses with the payload on stdin, they spawn the detached worker, the worker calls the fake
``claude`` (tests/support/fake_claude.py). Waits are bounded only so a bug cannot hang the suite;
no assertion depends on how long anything took.
"""

import json
import os
import re
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest

from lazy_harness import paths
from tests.hooks.hookrun import enable_loop
from tests.support import fake_claude, sessions

# The first typed prompt of tests/fixtures/transcripts/interactive.jsonl: a token put in front of it
# travels into the conversation view, hence into the prompt, where the fake model finds it.
ANCHOR = "We need to decide how the billing service"
WAIT = 60.0

TEMPLATE = {
    "decisions": [{"summary": "Decision @TOKEN@: keep the job queue in Postgres",
                   "context": "billing service job queue", "alternatives": ["Redis"],
                   "rationale": "one database to run", "tags": ["queue"]}],
    "failures": [{"summary": "Failure @TOKEN@: the migration timed out on a lock",
                  "root_cause": "no lock_timeout", "resolution": "retried at night",
                  "prevention": "set lock_timeout to 5s", "tags": ["deploy"]}],
    "learnings": [{"title": "Learning @TOKEN@ on lock timeouts", "learning": "Set lock_timeout for migrations.",
                   "context": "a failed deploy", "scope": "project", "tags": ["postgres"]}],
    "handoff": ["Follow up on @TOKEN@"],
}


def configure(home, **keys) -> None:
    """The loop on, retries without backoff, plus ``keys`` under [compound_loop]; consolidation off."""
    path = enable_loop(home, **{"retry_backoff_seconds": 0, "linger_minutes": 0, **keys})
    with open(path, "a", encoding="utf-8") as fh:  # these tests count distillation calls: no consolidation
        fh.write("\n[consolidate]\nenabled = false\n")


@contextmanager
def private_home(root: Path, **model):
    """For a module-scoped run: a fresh HOME under ``root`` (as tests/conftest.py makes per test),
    the loop on and the fake model first on PATH. Yields (home, bin dir). On exit every process the
    run started has ended and the environment is restored, so tests then read only files."""
    mp = pytest.MonkeyPatch()
    home, bin_dir = root / "home", root / "bin"
    home.mkdir()
    mp.setenv("HOME", str(home))
    for var in ("CLAUDE_CONFIG_DIR", "LH_CONFIG", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
                "LH_WORKER_CALL", "CLAUDE_PROJECT_DIR"):
        mp.delenv(var, raising=False)
    fake_claude.install(bin_dir, **model)
    mp.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    configure(home)
    try:
        yield home, bin_dir
    finally:
        try:
            fake_claude.kill_running(bin_dir)
            wait_workers_gone()
        finally:
            mp.undo()


def new_token() -> str:
    return "LHTOK-" + uuid.uuid4().hex[:12]


def new_sid() -> str:
    return str(uuid.uuid4())


def session(project: Path, token: str | None = None, session_id: str | None = None,
            name: str = "interactive.jsonl", typed: str = "") -> dict:
    """A recorded fixture placed for ``project`` under a fresh session id, with ``token`` and
    ``typed`` (any text, newlines included) typed at the start of its first prompt; returns the
    hook payload."""
    payload = sessions.place(project, name, session_id or new_sid())
    if token or typed:
        path = Path(payload["transcript_path"])
        text = path.read_text(encoding="utf-8")
        assert ANCHOR in text, "the fixture changed: pick another anchor"
        prefix = json.dumps(" ".join(p for p in (token, typed) if p))[1:-1]  # escaped as inside a JSON string
        path.write_text(text.replace(ANCHOR, f"{prefix} {ANCHOR}"), encoding="utf-8")
    return payload


def project(root: Path, name: str) -> Path:
    p = root / name
    p.mkdir(parents=True, exist_ok=True)
    return p


def hook_argv(event: str) -> list[str]:
    return [sys.executable, "-m", "lazy_harness.hooks", event]


def hooks_together(event: str, payloads: list[dict], env: dict | None = None) -> list[subprocess.CompletedProcess]:
    """Start one hook process per payload, all waiting on stdin, then hand every payload over at once."""
    env = dict(os.environ if env is None else env)
    procs = [subprocess.Popen(hook_argv(event), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env) for _ in payloads]
    for proc, payload in zip(procs, payloads, strict=True):
        proc.stdin.write(json.dumps(payload).encode())
    for proc in procs:
        proc.stdin.close()
    out = []
    for proc in procs:
        stdout, stderr = proc.stdout.read(), proc.stderr.read()
        proc.wait(timeout=WAIT)
        proc.stdout.close()
        proc.stderr.close()
        out.append(subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr))
    return out


def hook(event: str, payload: dict, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run one producer hook; it must exit 0 with nothing on stdout."""
    result = hook_with_output(event, payload, env)
    assert result.stdout == b"", result
    return result


def hook_with_output(event: str, payload: dict, env: dict | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ if env is None else env)
    result = subprocess.run(hook_argv(event), input=json.dumps(payload).encode(), capture_output=True,
                            env=env, timeout=WAIT)
    assert result.returncode == 0, result
    return result


# --- processes ------------------------------------------------------------------------------------

def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in (b"Z", b"X")


def wait_dead(pids, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(alive(p) for p in pids):
            return
        time.sleep(0.02)
    raise AssertionError(f"still running after {timeout} s: {[p for p in pids if alive(p)]}")


def spawned_workers() -> list[int]:
    """Pids of the workers the hooks (and ``lh queue retry``) spawned, from hooks.log."""
    return [int(p) for p in re.findall(r"worker pid (\d+)", read(log_file("hooks.log")))]


def wait_workers_gone(extra=()) -> None:
    """Every worker spawned so far has exited (so nothing writes after the test looked)."""
    wait_dead([*spawned_workers(), *extra])


def end_sessions_then_drain(payloads: list[dict], timeout: float = 120) -> None:
    """SessionEnd for every payload; one worker drains them all, in order.

    All but the last are queued while the lock is held (their own workers leave at once), then the
    last session's worker drains the whole queue. Returns when every task is finished and every
    spawned worker has exited.
    """
    from tests.hooks.hookrun import worker_lock_held
    from tests.support.sessions import wait_finished

    with worker_lock_held(paths.claude_dir()):
        for payload in payloads[:-1]:
            hook("SessionEnd", payload)
        wait_workers_gone()
    hook("SessionEnd", payloads[-1])
    wait_finished(paths.queue_dir(), timeout=timeout, count=len(payloads))
    wait_workers_gone()


# --- files ----------------------------------------------------------------------------------------

def log_file(name: str) -> str:
    return os.path.join(paths.logs_dir(), name)


def read(path) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except FileNotFoundError:
        return ""


def tasks(which: str) -> list[str]:
    """Task names in a queue folder ("" = pending)."""
    folder = os.path.join(paths.queue_dir(), which)
    try:
        return sorted(n for n in os.listdir(folder) if n.endswith(".task"))
    except FileNotFoundError:
        return []


def jsonl(path, cut_ok: bool = False) -> list[dict]:
    """Every line of a JSONL file, each asserted whole: it parses as an object and ends with a newline.

    With ``cut_ok`` (a writer was SIGKILLed, which can cut a line longer than a page) a line that
    does not parse is left out instead: what is promised then is each entry once, not each line whole.
    """
    data = Path(path).read_bytes()
    assert cut_ok or data.endswith(b"\n"), f"{path}: last line torn"
    out = []
    for n, line in enumerate(data.split(b"\n"), 1):
        if not line:
            continue
        try:
            rec = json.loads(line)  # raises on a torn or interleaved line
        except ValueError:
            if cut_ok:
                continue
            raise
        assert isinstance(rec, dict), f"{path}:{n}: not an object"
        out.append(rec)
    return out


def memory(project_dir: Path) -> str:
    return paths.memory_dir(str(project_dir))


def learning_files() -> list[str]:
    root = paths.learnings_dir()
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs)


def snapshot(root) -> dict[str, tuple]:
    """Every path under ``root`` (symlinks not followed) with its kind, size and mtime."""
    out = {}
    root = str(root)
    for d, dirs, files in os.walk(root):
        for name in dirs + files:
            p = os.path.join(d, name)
            st = os.lstat(p)
            out[os.path.relpath(p, root)] = (st.st_mode >> 12, st.st_size, st.st_mtime_ns)
    return out


def changed(before: dict, after: dict) -> list[str]:
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
