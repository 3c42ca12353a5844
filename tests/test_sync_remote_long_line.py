"""A remote whose memory file gains a line longer than any reader reads (1 MiB): merged, it would sit
at the end of the file, and SessionStart, which reads memory from the end, stops there and shows no
entry before it. The round refuses it, naming the file, and merges nothing. Real git, two machine
homes, one bare remote on disk (``tests.test_sync.Machine``)."""

import json
from pathlib import Path

import pytest

from lazy_harness import sync
from lazy_harness.memory import ids, lines
from tests.test_sync import KEY, Machine, _git

HUGE = "Use the big cache " + "x" * (lines.MAX_LINE + 10)


@pytest.fixture
def two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    return Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")


def _push_from_clone(tmp_path: Path, remote: Path, change) -> None:
    clone = tmp_path / "other"
    if not clone.exists():
        _git("clone", "-q", "-b", "main", str(remote), str(clone))
    _git("pull", "-q", cwd=clone)
    change(clone / "projects" / KEY / "decisions.jsonl")
    _git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-am", "x", cwd=clone)
    _git("push", "-q", "origin", "main", cwd=clone)


def _append_huge(path: Path) -> None:
    rec = {"id": ids.entry_id("decision", HUGE), "type": "decision", "summary": HUGE, "project": "demo",
           "session_id": "s9", "task_id": "t", "ts": "2026-12-05T23:30:00+00:00"}
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(rec) + "\n")


def _drop_huge(path: Path) -> None:
    path.write_text("".join(ln + "\n" for ln in path.read_text().splitlines() if len(ln) < lines.MAX_LINE))


def test_a_line_longer_than_any_reader_reads_is_refused_naming_the_file(two, tmp_path):
    a, b = two
    kept = a.add("decision", "Use a file queue")
    a.sync()
    b.sync()
    remote = Path(a.cfg["sync"]["remote"])
    _push_from_clone(tmp_path, remote, _append_huge)
    mine = a.add("decision", "Made here meanwhile")
    before = (a.mdir / "decisions.jsonl").read_bytes()
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    assert f"projects/{KEY}/decisions.jsonl" in exc.value.message and "nothing merged" in exc.value.message
    assert "\n" not in exc.value.message and "xxxxxxxxxx" not in exc.value.message
    assert (a.mdir / "decisions.jsonl").read_bytes() == before
    _push_from_clone(tmp_path, remote, _drop_huge)
    a.sync()
    assert sorted(a.ids("decision")) == sorted([kept, mine])
    assert all(len(ln) < lines.MAX_LINE for ln in (a.mdir / "decisions.jsonl").read_text().splitlines())
