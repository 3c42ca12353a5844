"""A remote whose memory file grew past any size memory reaches (``layout.MAX_FILE_BYTES``): merged,
every reader of that file (the merge drivers, which hold three versions of it in memory, the hold
check, ``lh memory``) would read it whole, on every machine, at each round. Anyone who can push can
make one. The round refuses it, naming the file and its size, and merges nothing. Real git, two
machine homes, one bare remote on disk (``tests.test_sync.Machine``)."""

import json
from pathlib import Path

import pytest

from lazy_harness import sync
from lazy_harness.memory import ids
from lazy_harness.sync import layout
from tests.test_sync import KEY, Machine, _git
from tests.test_sync_remote_long_line import _push_from_clone

LIMIT = 64 * 1024


@pytest.fixture
def two(tmp_path, monkeypatch):
    monkeypatch.setattr(layout, "MAX_FILE_BYTES", LIMIT, raising=False)  # why: the real bound is 128 MiB
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    return Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")


def _flood(path: Path) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        for n in range(LIMIT // 100):
            summary = f"Use cache number {n}"
            fh.write(json.dumps({"id": ids.entry_id("decision", summary), "type": "decision", "summary": summary,
                                 "project": "demo", "session_id": "s9", "task_id": "t"}) + "\n")


def _shrink(path: Path) -> None:
    path.write_text("".join(ln + "\n" for ln in path.read_text().splitlines() if "cache number" not in ln))


def test_a_file_grown_past_the_bound_on_the_remote_is_refused(two, tmp_path):
    a, b = two
    a.add("decision", "Use a file queue")
    a.sync()
    b.sync()
    remote = Path(a.cfg["sync"]["remote"])
    _push_from_clone(tmp_path, remote, _flood)
    a.add("decision", "Made here meanwhile")
    before = (a.mdir / "decisions.jsonl").read_bytes()
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    said = exc.value.message
    assert f"projects/{KEY}/decisions.jsonl" in said and "nothing merged" in said and "KiB" in said
    assert (a.mdir / "decisions.jsonl").read_bytes() == before
    _push_from_clone(tmp_path, remote, _shrink)  # deleted on the remote: the rounds go on
    a.sync()
    b.sync()
    assert "Made here meanwhile" in (b.mdir / "decisions.jsonl").read_text()


def test_a_file_this_machine_grew_past_the_bound_itself_still_syncs(two):
    a, b = two
    a.add("decision", "Use a file queue")
    _flood(a.mdir / "decisions.jsonl")  # this machine's own memory, grown here
    a.sync()
    with pytest.raises(sync.SyncError):  # b joins: nothing of the remote is its own
        b.sync()
    _git("update-ref", "refs/lh/remote-seen", "refs/remotes/origin/main", cwd=b.data)  # the hint's way on
    b.sync()
    b.add("decision", "Made on b")
    b.sync()
    a.sync()
    assert "Made on b" in (a.mdir / "decisions.jsonl").read_text()


def test_a_remote_past_the_bound_is_refused_to_a_machine_that_joins(two, tmp_path):
    """A machine that joins has merged nothing of the remote: the file bound applies to all of it, as the
    totals do (bounds.check_arrivals). Before, the remote's fetched commit stood in for the commit it last
    merged, and took the file past the bound as known."""
    a, b = two
    a.add("decision", "Use a file queue")
    a.sync()
    remote = Path(a.cfg["sync"]["remote"])
    _push_from_clone(tmp_path, remote, _flood)
    b.add("decision", "Made on b")
    before = (b.mdir / "decisions.jsonl").read_bytes()
    with pytest.raises(sync.SyncError) as exc:
        b.sync()
    said, hint = exc.value.message, exc.value.hint or ""
    assert f"projects/{KEY}/decisions.jsonl" in said and "nothing merged" in said, said
    assert "update-ref refs/lh/remote-seen" in hint, hint  # the way to take it when it is the person's own
    assert (b.mdir / "decisions.jsonl").read_bytes() == before
    _git("update-ref", "refs/lh/remote-seen", "refs/remotes/origin/main", cwd=b.data)
    b.sync()
    assert "Use a file queue" in (b.mdir / "decisions.jsonl").read_text()
