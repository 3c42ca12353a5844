"""A remote that adds files by the ten thousand (learnings, project folders): merged, every round
lists them, every SessionStart digest and the worker's crawl walk them, on every machine. Anyone who
can push can add them. Above a bound (``bounds.MAX_NEW_FILES`` in one round, ``bounds.MAX_FILES`` in
all, ``bounds.MAX_PROJECTS`` project folders) the round stops with one line naming the remote and the
count, and merges nothing (docs/how/sync.md, "How much a remote may bring"). Real git, machine homes,
one bare remote on disk, a plain clone that pushes the files (``tests.test_sync.Machine``)."""

import subprocess
from pathlib import Path

import pytest

from lazy_harness import sync
from lazy_harness.sync import bounds
from tests.test_sync import KEY, Machine, _git

LEARNING = b"---\ntitle: Retry\nstatus: active\n---\nRetry twice.\n"
DECISION = b'{"id": "d-00000001", "type": "decision", "summary": "Use a file queue"}\n'


@pytest.fixture
def remote(tmp_path) -> Path:
    path = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(path))
    return path


def _push_paths(tmp_path: Path, remote: Path, paths: list[str], blob_text: bytes = LEARNING,
                gone: str = "") -> None:
    """Add ``paths`` (one blob for all) on the remote, or with ``gone`` remove that folder, as a plain
    clone of it can."""
    clone = tmp_path / "other"
    if not clone.exists():
        _git("clone", "-q", "-b", "main", str(remote), str(clone))
    _git("pull", "-q", cwd=clone)
    if gone:
        _git("rm", "-r", "-q", "--cached", "--", gone, cwd=clone)
    else:
        blob = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=clone, input=blob_text,
                              capture_output=True, check=True).stdout.decode().strip()
        listing = "".join(f"100644 {blob}\t{p}\n" for p in paths)
        subprocess.run(["git", "update-index", "--add", "--index-info"], cwd=clone, input=listing.encode(),
                       check=True)
    _git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "x", cwd=clone)
    _git("push", "-q", "origin", "main", cwd=clone)


def _learnings(n: int) -> list[str]:
    return [f"knowledge/learnings/2026-01/2026-01-02-retry-{k}.md" for k in range(n)]


def test_a_round_that_would_bring_more_files_than_memory_gains_is_refused(tmp_path, remote):
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    a.sync()
    _push_paths(tmp_path, remote, _learnings(bounds.MAX_NEW_FILES + 1))
    a.add("decision", "Made here meanwhile")
    before = (a.mdir / "decisions.jsonl").read_bytes()
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    said = exc.value.message
    assert str(remote) in said and f"{bounds.MAX_NEW_FILES + 1:,} files" in said, said
    assert "refused, nothing merged" in said and "\n" not in said
    assert (a.mdir / "decisions.jsonl").read_bytes() == before
    assert not (a.data / "knowledge" / "learnings" / "2026-01").exists()
    assert f"{bounds.MAX_NEW_FILES + 1:,} files" in sync.status(a.cfg, a.env)["last_error"]
    _push_paths(tmp_path, remote, [], gone="knowledge/learnings")  # deleted on the remote: the rounds go on
    assert a.sync()["pushed"]


def test_as_many_files_as_a_heavy_year_merge_in_one_round(tmp_path, remote):
    """A machine back from weeks offline: a thousand learnings in one round are memory, merged."""
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    a.sync()
    _push_paths(tmp_path, remote, _learnings(1000))
    a.sync()
    assert len(list((a.data / "knowledge" / "learnings" / "2026-01").iterdir())) == 1000


def test_a_remote_past_the_bound_in_all_is_refused_to_a_machine_that_joins(tmp_path, remote, monkeypatch):
    # why lowered: the real bound is 100,000 files; the scenario is the same at 300
    monkeypatch.setattr(bounds, "MAX_FILES", 300)
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    a.sync()
    _push_paths(tmp_path, remote, _learnings(301))
    b = Machine(tmp_path, remote, "b")  # joins: nothing of the remote merged before, every file is new
    b.add("decision", "Made on b")
    with pytest.raises(sync.SyncError) as exc:
        b.sync()
    said = exc.value.message
    held = len(_git("ls-tree", "-r", "--name-only", "main", cwd=remote).split())
    assert str(remote) in said and f"holds {held} files" in said and "refused, nothing merged" in said, said
    assert not (b.data / "knowledge" / "learnings").exists()
    assert "Use a file queue" not in (b.mdir / "decisions.jsonl").read_text()
    # the hint's way on for a machine that joins: it has no last merged commit to forget
    assert "update-ref refs/lh/remote-seen refs/remotes/origin/main" in exc.value.hint, exc.value.hint
    _git("update-ref", "refs/lh/remote-seen", "refs/remotes/origin/main", cwd=b.data)
    b.sync()
    assert "Use a file queue" in (b.mdir / "decisions.jsonl").read_text()


def test_a_remote_past_the_project_folders_bound_is_refused_to_a_machine_that_joins(tmp_path, remote, monkeypatch):
    monkeypatch.setattr(bounds, "MAX_PROJECTS", 30)  # why lowered: the real bound is 5,000 folders
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    a.sync()
    _push_paths(tmp_path, remote, [f"projects/-home-me-p{k}/decisions.jsonl" for k in range(30)], blob_text=DECISION)
    b = Machine(tmp_path, remote, "b")
    b.add("decision", "Made on b")
    with pytest.raises(sync.SyncError) as exc:
        b.sync()
    assert "31 project folders" in exc.value.message and "refused, nothing merged" in exc.value.message
    assert not (b.data / "projects" / "-home-me-p0").exists()


def test_a_machine_whose_own_memory_is_past_the_bound_in_all_still_syncs(tmp_path, remote, monkeypatch):
    monkeypatch.setattr(bounds, "MAX_FILES", 300)
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    a.sync()
    _push_paths(tmp_path, remote, _learnings(301))
    monkeypatch.setattr(bounds, "MAX_FILES", 100_000)
    a.sync()  # merged under the bound of then: this machine holds them now
    monkeypatch.setattr(bounds, "MAX_FILES", 300)
    _push_paths(tmp_path, remote, ["knowledge/learnings/2026-01/2026-01-03-one-more.md"])
    a.sync()
    assert (a.data / "knowledge" / "learnings" / "2026-01" / "2026-01-03-one-more.md").exists()


def test_ten_thousand_project_folders_are_refused(tmp_path, remote):
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    a.sync()
    folders = [f"projects/-home-me-p{k}/decisions.jsonl" for k in range(10_000)]
    _push_paths(tmp_path, remote, folders, blob_text=DECISION)
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    said = exc.value.message
    assert str(remote) in said and "10,001 project folders" in said and "refused, nothing merged" in said, said
    assert not (a.data / "projects" / "-home-me-p0").exists()
    assert (a.data / "projects" / KEY).is_dir()


def _hint_command(hint: str) -> list[str]:
    """The command the hint names for the person's own files, as they would paste it."""
    import re
    import shlex

    found = re.search(r"if those files are your memory, (git -C .+?) and lh sync", hint)
    assert found, hint
    return shlex.split(found.group(1))


@pytest.mark.parametrize("bound", ["MAX_FILES", "MAX_PROJECTS"])
def test_a_machine_that_merged_before_gets_a_hint_that_takes_a_remote_past_a_total(tmp_path, remote, monkeypatch,
                                                                                    bound):
    """Another machine of the person's grew memory past a total: forgetting the last merged commit left
    the totals as they were, and the next round was refused all the same."""
    monkeypatch.setattr(bounds, bound, 30)  # why lowered: the scenario is the same at 100,000 and 5,000
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    a.sync()
    _push_paths(tmp_path, remote, [f"projects/-home-me-p{k}/decisions.jsonl" for k in range(31)], blob_text=DECISION)
    a.add("decision", "Made here meanwhile")
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    subprocess.run(_hint_command(exc.value.hint or ""), check=True, capture_output=True)
    assert a.sync()["pushed"]
    assert (a.data / "projects" / "-home-me-p30" / "decisions.jsonl").exists()


def test_the_round_bound_hint_still_forgets_the_last_merged_commit(tmp_path, remote, monkeypatch):
    """Past the round bound alone, forgetting the last merged commit is the narrower way on: the totals
    still judge the remote."""
    monkeypatch.setattr(bounds, "MAX_NEW_FILES", 30)
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    a.sync()
    _push_paths(tmp_path, remote, _learnings(31))
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    command = _hint_command(exc.value.hint or "")
    assert "-d" in command, command
    subprocess.run(command, check=True, capture_output=True)
    a.sync()
    assert (a.data / _learnings(31)[-1]).exists()
