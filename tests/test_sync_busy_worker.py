"""A sync round while the worker writes memory: lines appended after the round's commit and before the
merge is written into the data folder are kept after the merged ones and pushed, never overwritten; a
file changed otherwise meanwhile is committed and merged again, and a round that keeps meeting such a
change stops with one clear line."""

import json
import shutil
import sys
from pathlib import Path

import pytest

from lazy_harness import sync
from tests.test_sync import KEY, Machine, _git


def busy_git(bin_dir: Path, target: Path, text: str, times: int, mode: str = "a") -> Path:
    """A ``git`` on PATH that, the first ``times`` times it is asked for the merged files (``checkout-index``,
    right before the round writes them into the data folder), first writes ``text`` to ``target`` (opened
    with ``mode``: what a busy worker does between the round's commit and its merge), then runs git."""
    real = shutil.which("git")
    count = bin_dir / "merges"
    bin_dir.mkdir(parents=True, exist_ok=True)
    exe = bin_dir / "git"
    exe.write_text(f"""#!{sys.executable}
import os, sys
args = sys.argv[1:]
if "checkout-index" in args:
    n = int(open({str(count)!r}).read()) if os.path.exists({str(count)!r}) else 0
    open({str(count)!r}, "w").write(str(n + 1))
    if n < {times}:
        os.makedirs(os.path.dirname({str(target)!r}), exist_ok=True)
        with open({str(target)!r}, {mode!r}) as fh:
            fh.write({text!r} if {mode!r} == "a" else {text!r}.replace("x", "x%d" % n))  # "w": new each time
os.execv({real!r}, ["git", *args])
""")
    exe.chmod(0o755)
    return count


def decision_line(summary: str) -> str:
    return json.dumps({"id": "d-" + summary[:8].replace(" ", "x").lower(), "summary": summary,
                       "ts": "2026-11-26"}) + "\n"


@pytest.fixture
def remote_has_the_project(tmp_path):
    """Machine b pushed the project's first decisions; machine a has none of it yet."""
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    b.add("decision", "Written on machine b")
    b.sync()
    return a, b


@pytest.mark.parametrize("a_has_history", [False, True])
def test_a_file_the_worker_writes_during_the_round_is_merged_not_overwritten(remote_has_the_project, tmp_path,
                                                                             a_has_history):
    a, b = remote_has_the_project
    if a_has_history:  # a round of its own before (a HEAD), on another project
        (a.data / "projects" / "-other").mkdir(parents=True)
        (a.data / "projects" / "-other" / "decisions.jsonl").write_text(decision_line("Other project"))
        a.sync()
        b.add("decision", "Written on machine b later")  # the file a now tracks changes on the remote
        b.sync()
    target = a.mdir / "decisions.jsonl"
    line = decision_line("Written by the busy worker on a")
    merges = busy_git(tmp_path / "bin", target, line, times=1)
    a.env["PATH"] = f"{tmp_path / 'bin'}:{a.env['PATH']}"
    result = a.sync()
    assert int(merges.read_text()) == 1  # appended lines need no second merge
    text = target.read_text()
    assert line in text and "Written on machine b" in text  # neither side lost
    assert result["pushed"]
    assert "Written by the busy worker on a" in _git("--git-dir", str(a.cfg["sync"]["remote"]), "show",
                                                     f"main:projects/{KEY}/decisions.jsonl")


def test_a_round_that_keeps_meeting_new_files_stops_with_one_clear_line(remote_has_the_project, tmp_path):
    a, b = remote_has_the_project
    (a.data / "projects" / "-other").mkdir(parents=True)
    (a.data / "projects" / "-other" / "decisions.jsonl").write_text(decision_line("Other project"))
    a.sync()
    b.add("decision", "Written on machine b later")
    b.sync()
    target = a.mdir / "decisions.jsonl"
    # rewritten, not appended to (an undo): the merged file would overwrite it
    busy_git(tmp_path / "bin", target, decision_line("x"), times=sync.PUSH_TRIES * 3, mode="w")
    a.env["PATH"] = f"{tmp_path / 'bin'}:{a.env['PATH']}"
    with pytest.raises(sync.SyncError) as info:
        a.sync()
    message = info.value.message
    assert "\n" not in message and "would be overwritten by merge" not in message
    assert f"projects/{KEY}/decisions.jsonl" in message and "worker" in message and "nothing lost" in message
    assert target.exists() and "x" in target.read_text()
    assert sync.status(a.cfg, a.env)["last_error"].endswith(message)
