"""A remote that replaces one of this machine's memory files with something that is not a file: a
symbolic link (to a file outside the data folder: the worker's next append would go there), a folder
(``decisions.jsonl/x.jsonl``: the merge would delete the file to make the folder), a submodule. git
stores no FIFO or device, so these are what a push can bring. The round refuses each, naming the path,
and this machine's file stays as it was (docs/how/sync.md, "A remote that holds something other than
memory"). Real git, one machine home, one bare remote, a plain clone that pushes the change."""

import os
import subprocess
from pathlib import Path

import pytest

from lazy_harness import sync
from tests.test_sync import KEY, Machine, _git

FILE = f"projects/{KEY}/decisions.jsonl"
LEARNING = "knowledge/learnings/2026-01/2026-01-02-retry.md"
NONE = "0" * 40


def _replace(tmp_path: Path, remote: Path, path: str, mode: str, below: str = "") -> None:
    """On the remote, take ``path`` out and put in its place an entry of ``mode`` (``below``: a file in a
    folder of that name instead), as a plain clone can."""
    clone = tmp_path / "other"
    _git("clone", "-q", "-b", "main", str(remote), str(clone))

    def obj(*args: str, data: bytes = b"") -> str:
        return subprocess.run(["git", *args], cwd=clone, input=data, capture_output=True,
                              check=True).stdout.decode().strip()

    blob = obj("hash-object", "-w", "--stdin", data=b"/etc/passwd" if mode == "120000" else b"{}\n")
    target = obj("rev-parse", "HEAD") if mode == "160000" else blob
    entry = f"100644 {blob}\t{path}/{below}" if below else f"{mode} {target}\t{path}"
    subprocess.run(["git", "update-index", "--index-info"], cwd=clone, check=True,
                   input=f"0 {NONE}\t{path}\n{entry}\n".encode())
    _git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "x", cwd=clone)
    _git("push", "-q", "origin", "main", cwd=clone)


@pytest.mark.parametrize(("path", "mode", "below", "said"), [
    (FILE, "120000", "", f"a symbolic link at '{FILE}'"),
    (FILE, "160000", "", f"a non-file at '{FILE}'"),
    (FILE, "", "more.jsonl", f"'{FILE}/more.jsonl', not part of memory"),
    (LEARNING, "", "more.md", f"'{LEARNING}/more.md', not part of memory"),
])
def test_a_memory_file_replaced_by_what_is_not_a_file_is_refused_naming_it(tmp_path, path, mode, below, said):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    (a.data / os.path.dirname(LEARNING)).mkdir(parents=True)
    (a.data / LEARNING).write_text("---\ntitle: Retry\nstatus: active\n---\nRetry twice.\n")
    a.sync()
    _replace(tmp_path, remote, path, mode, below)
    kept = (a.data / path).read_bytes()
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    assert said in exc.value.message and "refused, nothing merged" in exc.value.message, exc.value.message
    assert not (a.data / path).is_symlink() and (a.data / path).is_file()
    assert (a.data / path).read_bytes() == kept
