"""A file in the data folder that is not memory (a ``.DS_Store`` Finder leaves, a person's notes, an
editor's backup, a scratch file in a project's folder) is neither committed nor pushed: the round
stages memory's own files only (``layout.outside_layout``), says once which paths it left out and why,
and sync keeps working on every machine. One an older version pushed stays on disk everywhere while
the remote is cleaned as docs/how/sync.md says. Real git, two machine homes, one bare remote."""

import json
import os
import shutil
from pathlib import Path

import pytest

from lazy_harness import sync
from lazy_harness.sync import write_merged
from tests.test_sync import KEY, Machine, _git
from tests.test_sync_syncfx_emptied_folders import _empty_folders, _remote_paths, _two

STRANGERS = [".DS_Store", "notes.txt", "knowledge/learnings/2025-01/retry.md~", f"projects/{KEY}/scratch.txt",
             f"projects/{KEY}/.DS_Store", "projects/.DS_Store", f"projects/{KEY}/journal/.DS_Store"]


def _put(m: Machine, rel: str, text: str = "mine\n") -> Path:
    path = m.data / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize("rel", STRANGERS)
def test_a_file_that_is_not_memory_stays_here_and_sync_keeps_working(tmp_path, rel):
    a, b = _two(tmp_path)
    a.sync()
    b.sync()
    mine = _put(a, rel)
    one = a.add("decision", "Ship the CLI as a wheel")
    got = a.sync()
    assert got["pushed"] and rel not in _remote_paths(a)
    assert f"projects/{KEY}/decisions.jsonl" in _remote_paths(a)
    assert rel in got["not_synced"] and "not part of memory" in got["not_synced"]
    assert "\n" not in got["not_synced"]
    assert sync.status(a.cfg, a.env)["not_synced"] == got["not_synced"]
    assert b.sync()["merged"] == 1 and one in b.ids("decision")
    assert not (b.data / rel).exists()
    assert mine.read_text() == "mine\n"  # untouched here, and left out round after round
    again = a.sync()
    assert rel in again["not_synced"] and rel not in _remote_paths(a)
    assert sync.status(a.cfg, a.env)["last_error"] is None


def test_a_round_with_only_memory_says_nothing_left_out(tmp_path):
    a, b = _two(tmp_path)
    got = a.sync()
    assert got["not_synced"] is None and sync.status(a.cfg, a.env)["not_synced"] is None
    _put(a, "notes.txt")
    assert a.sync()["not_synced"]
    os.unlink(a.data / "notes.txt")
    assert a.sync()["not_synced"] is None and sync.status(a.cfg, a.env)["not_synced"] is None


def test_the_left_out_paths_are_one_line_naming_each_reason(tmp_path):
    a, _ = _two(tmp_path)
    a.sync()
    a.add("decision", "Ship the CLI as a wheel")
    for n in range(8):
        _put(a, f"notes-{n}.txt")
    _put(a, f"projects/{KEY}/.gitignore", "notes.txt\n")  # a nested git control file
    line = a.sync()["not_synced"]
    assert "\n" not in line and "more" in line
    assert "not part of memory" in line and "git control file" in line
    assert f"projects/{KEY}/.gitignore" in line
    assert sorted(_remote_paths(a)) == [".gitattributes", ".gitignore", f"projects/{KEY}/decisions.jsonl"]


def test_a_name_holding_a_newline_is_shown_on_the_one_line(tmp_path):
    a, _ = _two(tmp_path)
    _put(a, "two\nlines.txt")
    line = a.sync()["not_synced"]
    assert "\n" not in line and "two" in line and "lines.txt" in line
    assert _remote_paths(a) == [".gitattributes", ".gitignore", f"projects/{KEY}/decisions.jsonl"]


def test_the_worker_round_names_what_it_left_out(tmp_path):
    a, _ = _two(tmp_path)
    a.cfg["sync"]["auto"] = True
    _put(a, ".DS_Store")
    said = sync.auto_sync(a.cfg, a.env, 1_000_000.0)
    assert said and "\n" not in said and "pushed" in said
    assert ".DS_Store" in said and "not synced" in said


def test_a_file_staged_by_hand_that_is_not_memory_is_not_committed(tmp_path):
    a, b = _two(tmp_path)
    a.sync()
    _put(a, "notes.txt")
    _git("add", "notes.txt", cwd=a.data)
    got = a.sync()
    assert "notes.txt" in got["not_synced"] and "notes.txt" not in _remote_paths(a)
    assert (a.data / "notes.txt").read_text() == "mine\n"
    b.sync()
    assert sync.status(b.cfg, b.env)["last_error"] is None


def test_memory_changes_and_removals_still_go_out_beside_a_file_left_out(tmp_path):
    a, b = _two(tmp_path)
    journal = a.mdir / "journal"
    journal.mkdir()
    (journal / "r-1.json").write_text(json.dumps({"run": "r-1"}) + "\n")
    a.sync()
    b.sync()
    assert (b.mdir / "journal" / "r-1.json").is_file()
    shutil.rmtree(journal)
    _put(a, "notes.txt")
    fresh = a.add("failure", "tests hang on CI")
    a.sync()
    b.sync()
    assert not (b.mdir / "journal").exists() and b.ids("failure") == [fresh]
    assert f"projects/{KEY}/journal/r-1.json" not in _remote_paths(a)


def _push_like_an_older_version(m: Machine, rel: str) -> None:
    """What a version that committed with ``git add -A`` left: the file committed and pushed."""
    _git("add", "-f", rel, cwd=m.data)
    _git("commit", "-q", "-m", "older lh sync", cwd=m.data)
    _git("push", "-q", "origin", "HEAD:main", cwd=m.data)


def test_a_file_an_older_version_pushed_stays_on_disk_when_the_remote_is_cleaned(tmp_path):
    a, b = _two(tmp_path)
    a.sync()
    b.sync()
    a.sync()
    mine = _put(a, "notes.txt")
    _push_like_an_older_version(a, "notes.txt")
    with pytest.raises(sync.SyncError, match="notes.txt"):
        b.sync()  # refused until the remote is cleaned
    # the way docs/how/sync.md gives: in a clone of the remote, stop tracking it and push
    clone = tmp_path / "clean"
    _git("clone", "-q", "-b", "main", str(a.cfg["sync"]["remote"]), str(clone))
    _git("-c", "user.name=x", "-c", "user.email=x@x", "-C", str(clone), "rm", "-q", "--cached", "--", "notes.txt")
    _git("-c", "user.name=x", "-c", "user.email=x@x", "-C", str(clone), "commit", "-q", "-m", "not memory")
    _git("-C", str(clone), "push", "-q", "origin", "HEAD:main")
    got = a.sync()  # the merge removes it from the repository, not from the disk
    assert mine.read_text() == "mine\n" and "notes.txt" in got["not_synced"]
    assert "notes.txt" not in _git("ls-files", cwd=a.data).split()
    one = a.add("decision", "Ship the CLI as a wheel")
    a.sync()
    assert "notes.txt" not in _remote_paths(a)
    b.sync()
    assert one in b.ids("decision") and not (b.data / "notes.txt").exists()
    assert sync.status(b.cfg, b.env)["last_error"] is None


def test_an_emptied_project_folder_is_removed(tmp_path):
    a, b = _two(tmp_path)
    other = a.data / "projects" / "-work-other"
    other.mkdir(parents=True)
    (other / "usage.jsonl").write_text(json.dumps({"ts": "2025-01-15T12:00:00Z", "op": "session"}) + "\n")
    (other / "decisions.jsonl").write_text(json.dumps({"id": "d-00000001", "summary": "x"}) + "\n")
    a.sync()
    b.sync()
    assert (b.data / "projects" / "-work-other" / "usage.jsonl").is_file()
    shutil.rmtree(other)  # the project's memory moved away on a
    a.sync()
    b.sync()
    assert not (b.data / "projects" / "-work-other").exists()
    assert (b.mdir / "decisions.jsonl").is_file()
    assert _empty_folders(b) == []
    assert not (b.data / ".git" / write_merged.STAGE).exists()


def test_lh_sync_and_its_status_print_what_was_left_out(tmp_path, monkeypatch):
    from tests.cli.lhrun import invoke

    a, b = _two(tmp_path)
    a.sync()
    b.sync()
    _put(a, ".DS_Store")
    for key in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR"):
        monkeypatch.setenv(key, a.env[key])
    cfg = a.home / "config" / "lazy-harness" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(f'[sync]\nremote = "{a.cfg["sync"]["remote"]}"\n')
    done = invoke("sync")
    assert done.code == 0, done.err
    [line] = [x for x in done.out.splitlines() if ".DS_Store" in x]
    assert line.startswith("not synced: ") and "not part of memory" in line
    status = invoke("sync", "--status")
    assert [x for x in status.out.splitlines() if ".DS_Store" in x] == [line]


def test_a_removal_staged_and_never_committed_goes_out_at_the_next_round(tmp_path):
    """A round killed between its ``git add`` and its commit (or a ``git rm`` by hand) leaves a memory
    file's removal staged and the file gone: the next round commits it, rather than failing on it at
    every round after."""
    a, b = _two(tmp_path)
    a.add("failure", "the first failure")
    a.sync()
    rel = os.path.relpath(a.mdir / "failures.jsonl", a.data)
    _git("-C", str(a.data), "rm", "-q", rel)
    got = a.sync()
    assert got["committed"] and got["pushed"], got
    assert rel not in _remote_paths(a)
