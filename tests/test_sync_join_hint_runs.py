"""The way on that a refusal of the round a machine joins names (``repo.take_remote``), run as the
person runs it: pasted from the hint into a shell, the data folder's path holding a space and a
quote. Real git, machine homes, one bare remote on disk (``tests.test_sync.Machine``)."""

import re
import subprocess

import pytest

from lazy_harness import sync
from lazy_harness.sync import layout
from tests.test_sync import Machine, _git
from tests.test_sync_remote_huge_file import LIMIT, _flood


@pytest.fixture
def two(tmp_path, monkeypatch):
    monkeypatch.setattr(layout, "MAX_FILE_BYTES", LIMIT, raising=False)  # why: the real bound is 128 MiB
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    return Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b's home")


def test_the_hint_of_a_joining_machine_pasted_into_a_shell_lets_the_next_round_take_the_remote(two):
    a, b = two
    a.add("decision", "Use a file queue")
    _flood(a.mdir / "decisions.jsonl")  # the person's own memory, grown on their other machine
    a.sync()
    b.add("decision", "Made on b")
    with pytest.raises(sync.SyncError) as exc:
        b.sync()
    hint = exc.value.hint or ""
    command = re.search(r"git -C .* refs/remotes/origin/main", hint)
    assert command, hint
    subprocess.run(["sh", "-c", command.group(0)], check=True, env=b.env)
    b.sync()
    a.sync()
    assert "Made on b" in (a.mdir / "decisions.jsonl").read_text()
    assert "Use a file queue" in (b.mdir / "decisions.jsonl").read_text()
