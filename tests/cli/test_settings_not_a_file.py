"""A settings file that is a FIFO (or another non-regular file) is refused in one line at once; reading
it would wait forever for a writer, and ``lh hooks install`` / ``lh doctor`` with it."""

import os
import subprocess
import sys

from lazy_harness import paths


def run_lh(*args: str) -> subprocess.CompletedProcess:
    # why the timeout: a bound on a hang (the defect), not a wait for an event
    return subprocess.run([sys.executable, "-m", "lazy_harness", *args], capture_output=True, text=True,
                          timeout=60, env=dict(os.environ))


def test_install_with_a_fifo_as_settings_json_is_refused_at_once_and_leaves_it(tmp_path):
    target = paths.user_settings_file()
    os.makedirs(os.path.dirname(target), exist_ok=True)
    os.mkfifo(target)
    r = run_lh("hooks", "install", "--write-settings")
    assert r.returncode == 1, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and target in lines[0] and "not a regular file" in lines[0], r.stderr
    assert f"move {target} aside" in lines[0], r.stderr
    assert "Traceback" not in r.stderr
    assert os.path.exists(target) and not os.path.isfile(target)  # left as it is


def test_doctor_with_a_fifo_as_settings_json_names_it_and_ends(tmp_path):
    target = paths.user_settings_file()
    os.makedirs(os.path.dirname(target), exist_ok=True)
    os.mkfifo(target)
    r = run_lh("doctor")
    assert "Traceback" not in r.stderr, r.stderr
    assert any(target in line and "not a regular file" in line for line in r.stdout.splitlines()), r.stdout
