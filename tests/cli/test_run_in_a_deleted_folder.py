"""``lh`` run in a folder deleted under the shell: ``os.getcwd`` fails with an error that names no file,
and the commands said only ``lh: No such file or directory``. The line now says the current folder no
longer exists and what to do, in one line, exit 1; a command given ``--project`` works from there."""

import os
import subprocess
import sys

from tests.support import memory_samples as ms


def _lh(*args: str, cwd: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lazy_harness", *args], cwd=cwd, capture_output=True, text=True,
                          env=os.environ.copy(), timeout=120)


def test_a_command_in_a_deleted_folder_says_so(tmp_path, isolated_home):
    root = ms.make_project(tmp_path, "proj")
    gone = tmp_path / "gone"
    gone.mkdir()
    # why a shell: the child starts in the folder, which is then removed under it, as under a person's shell
    for args in (["memory", "path"], ["status"]):
        r = subprocess.run(["sh", "-c", f'cd "{gone}" && rmdir "{gone}" && exec "$0" -m lazy_harness "$@"',
                            sys.executable, *args], capture_output=True, text=True, timeout=120)
        gone.mkdir()
        assert r.returncode == 1, (r.stdout, r.stderr)
        assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
        assert "the current folder no longer exists: cd to the project" in r.stderr, r.stderr
    r = subprocess.run(["sh", "-c", f'cd "{gone}" && rmdir "{gone}" && exec "$0" -m lazy_harness memory path '
                        f'--project "{root}"', sys.executable], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip(), r.stderr
    assert _lh("memory", "path", cwd=root).stdout == r.stdout  # the project's folder, as from inside it
