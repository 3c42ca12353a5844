"""The sync round's readers that still opened a file by its name with a plain ``open``: a FIFO in its
place held ``lh sync``, the session start's pull or the worker's push there (the sync lock held, so every
later round waited too). The round's state, the ignore and attributes files and the setup stamp, the
merge drivers' note of conflicts, git's ``gc.pid``, a journal the secret scan reads, a memory file the
merge locks and the merge drivers' inputs. Each now opens it without waiting."""

import os
import subprocess
from contextlib import ExitStack

import pytest

from lazy_harness.regular_file import NotRegularFile
from lazy_harness.sync import conflicts, drivers, journal_merge, leftovers, repo_setup, rounds, scan, write_merged
from tests.support.fifo_wait import call_beside


def _git_dir(data) -> str:
    gitdir = os.path.join(data, ".git")
    os.makedirs(gitdir, exist_ok=True)
    return gitdir


def test_a_fifo_in_place_of_the_rounds_state_reads_as_none(tmp_path):
    fifo = str(tmp_path / rounds.STATE)
    os.mkfifo(fifo)
    assert call_beside([fifo], rounds.read_state, str(tmp_path)) == {}


@pytest.mark.parametrize("name", [*repo_setup.TOP, os.path.join(".git", "lh-setup")])
def test_a_fifo_in_place_of_a_file_the_setup_writes_is_replaced_by_it(isolated_home, tmp_path, name):
    data = tmp_path / "data"
    subprocess.run(["git", "init", "-q", str(data)], check=True)
    fifo = str(data / name)
    os.mkfifo(fifo)
    assert call_beside([fifo], repo_setup.ensure_repo, str(data), str(tmp_path / "remote.git")) is None
    assert os.path.isfile(fifo)
    assert (data / ".gitignore").read_text() == repo_setup.ignore_rules("projects")


def test_a_fifo_in_place_of_the_conflicts_note_is_named_and_nothing_is_kept_from_it(tmp_path):
    fifo = conflicts.side_file(str(tmp_path))
    _git_dir(tmp_path)
    os.mkfifo(fifo)
    said = call_beside([fifo], conflicts.keep, str(tmp_path), {}, None, 0.0)
    assert said == [f"{fifo}: cannot be read: not a regular file; no conflict of this round kept from it "
                    "(hint: move it aside)"]


def test_a_fifo_in_place_of_gits_gc_pid_is_no_gc_running(tmp_path):
    fifo = os.path.join(_git_dir(tmp_path), "gc.pid")
    os.mkfifo(fifo)
    assert call_beside([fifo], leftovers._gc_running, os.path.dirname(fifo)) is False


def test_a_fifo_named_as_a_journal_names_no_file(tmp_path):
    os.mkfifo(tmp_path / "run.json")
    assert call_beside([str(tmp_path / "run.json")], scan._journal_names, str(tmp_path), "run.json") == []


def test_the_merge_refuses_a_fifo_in_place_of_a_memory_file_it_locks(tmp_path):
    fifo = str(tmp_path / "decisions.jsonl")
    os.mkfifo(fifo)
    with ExitStack() as stack, pytest.raises(NotRegularFile):
        call_beside([fifo], write_merged._lock_one, stack, fifo, False, [])


def test_the_merge_drivers_read_a_fifo_given_them_as_an_empty_side(tmp_path, monkeypatch):
    monkeypatch.delenv(conflicts.ENV, raising=False)
    fifo = str(tmp_path / "base")
    os.mkfifo(fifo)
    line = b'{"id":"d1","summary":"keep it"}\n'
    for merge in ([drivers._driver, "merge-lines"], [journal_merge.main]):
        ours, theirs = tmp_path / "ours", tmp_path / "theirs"
        ours.write_bytes(line)
        theirs.write_bytes(line)
        args = [*merge[1:], fifo, str(ours), str(theirs)]
        assert call_beside([fifo], merge[0], args) == 0
        assert ours.read_bytes() == line
