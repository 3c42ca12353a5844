"""``lh knowledge handoff-now`` typed inside a Codex session: Codex runs its agent's shell commands in its
sandbox, where the person's home is read-only (workspace-write makes only the project writable) and
sets ``CODEX_SANDBOX_NETWORK_DISABLED=1`` (Linux, observed with ``codex sandbox -- env``, 0.171.0) or
``CODEX_SANDBOX=seatbelt`` (macOS). The queue cannot be written there: one line says so and what to do,
exit 1, and nothing is left in the queue. Run as Codex's shell tool runs it: a process of its own,
with the folder really read-only (a read-only bind mount in a private mount namespace as root; no
write permission otherwise)."""

import os
import shutil
import subprocess

import pytest

from lazy_harness import paths
from tests.cli.lhrun import lh_script
from tests.hooks.hookrun import enable_loop
from tests.support.sessions import place_rollout


def _can_mount_read_only(folder: str) -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1"',
                            "sh", folder], capture_output=True)
    return probe.returncode == 0


def run_read_only(folder: str, argv: list[str], env: dict, cwd: str) -> subprocess.CompletedProcess[str]:
    """``argv`` with ``folder`` read-only for it alone."""
    if os.geteuid() != 0:
        mode = os.stat(folder).st_mode
        os.chmod(folder, 0o555)
        try:
            return subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=60)
        finally:
            os.chmod(folder, mode)
    if not _can_mount_read_only(folder):
        pytest.skip("root without a private mount namespace: no way to make a folder read-only for one process")
    script = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" && shift && exec "$@"'
    return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", folder, *argv], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def session(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    project = tmp_path / "project"
    project.mkdir()
    place_rollout(project)
    return project


def files_under(folder: str) -> list[str]:
    return [os.path.join(d, n) for d, _, names in os.walk(folder) for n in names]


MARKERS = [{"CODEX_SANDBOX_NETWORK_DISABLED": "1"}, {"CODEX_SANDBOX": "seatbelt"}]


@pytest.mark.parametrize("marker", MARKERS, ids=["linux", "macos"])
@pytest.mark.parametrize("made", [True, False], ids=["queue-made", "no-claude-folder"])
def test_handoff_now_in_codexs_sandbox_says_to_run_it_in_your_shell(session, isolated_home, marker, made):
    if made:  # as after any session: the hooks made the queue; else the home itself is read-only
        os.makedirs(paths.queue_dir())
    folder = paths.queue_dir() if made else str(isolated_home)
    before = files_under(paths.claude_dir()) if made else []
    env = {**os.environ, **marker}
    r = run_read_only(folder, [*lh_script(), "knowledge", "handoff-now"], env, str(session))
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert "Codex's sandbox" in lines[0] and "lh knowledge handoff-now" in lines[0], lines[0]
    assert "your own shell" in lines[0] and "outside the sandbox" in lines[0], lines[0]
    assert "queued" not in r.stdout
    assert files_under(paths.claude_dir()) == before  # nothing half-written


def test_the_same_failure_outside_codex_names_the_folder_alone(session, isolated_home):
    os.makedirs(paths.queue_dir())
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODEX_SANDBOX")}
    r = run_read_only(paths.queue_dir(), [*lh_script(), "knowledge", "handoff-now"], env, str(session))
    assert r.returncode == 1
    assert paths.queue_dir() in r.stderr and "sandbox" not in r.stderr, r.stderr
