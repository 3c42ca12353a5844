"""A disk that fills while ``lh hooks install`` writes: the write of the new settings file (or of its backup)
fails part way. The settings file must stay as it was, byte for byte, with no temp file or half a backup
left beside it, and the command must say so in one line. The limit on a file's size (RLIMIT_FSIZE) makes
the write fail the same way a full disk does, in a real process, without a disk to fill."""

import json
import os
import resource
import signal
import subprocess

import pytest

from tests.cli.lhrun import lh_script

PERSONS = {"model": "opus", "env": {"NOTES": "x" * 30000}}


def _limited(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # why: the write then fails with EFBIG, as ENOSPC would
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


@pytest.mark.parametrize("room", [16384, 200], ids=["the backup fails", "the backup fits, the new file fails"])
def test_a_write_that_fails_part_way_leaves_the_settings_file_as_it_was(isolated_home, room):
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(PERSONS, indent=2) + "\n")
    before, listing = target.read_bytes(), sorted(os.listdir(target.parent))
    limit = room if room > 1000 else len(before) + room
    p = subprocess.run([*lh_script(), "hooks", "install", "--write-settings"], capture_output=True, text=True,
                       env=dict(os.environ), preexec_fn=_limited(limit), timeout=60)
    assert p.returncode == 1, p.stdout + p.stderr
    [line] = p.stderr.strip().splitlines()
    assert line.startswith(f"lh: {target}: cannot write: File too large"), line
    assert target.read_bytes() == before
    assert sorted(os.listdir(target.parent)) == listing  # no temp file, no half backup
    done = subprocess.run([*lh_script(), "hooks", "install", "--write-settings"], capture_output=True, text=True,
                          env=dict(os.environ), timeout=60)
    assert done.returncode == 0 and json.loads(target.read_text())["env"] == PERSONS["env"]
