"""One way to open a file without waiting (lazy_harness/regular_file.py), used by every reader that must
not be held by a FIFO put in a file's place: the memory files, a transcript, a task, a settings file,
git's files, the static model's stamps, a Codex rollout. Nine readers had a copy of the rule each."""

import os
import re

import pytest

import lazy_harness
from lazy_harness.regular_file import NotRegularFile, open_regular, read_regular, rewrite_regular

SRC = os.path.dirname(os.path.abspath(lazy_harness.__file__))
# why these two keep their own non-blocking open: private.py opens a file by its name in a folder it holds
# open (dir_fd, no link followed) and judges it there; worker/owed.py takes a record's lock before reading it
OWN_OPEN = {"regular_file.py", "private.py", os.path.join("worker", "owed.py")}


def test_only_the_one_module_opens_a_file_without_waiting():
    found = set()
    for folder, dirs, names in os.walk(SRC):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as fh:
                    if "O_NONBLOCK" in fh.read():
                        found.add(os.path.relpath(path, SRC))
    assert found == OWN_OPEN


def test_a_link_is_refused_when_asked_and_read_otherwise(tmp_path):
    target = tmp_path / "stamps"
    target.write_bytes(b"model\tabc\n")
    (tmp_path / "link").symlink_to(target)
    assert read_regular(str(tmp_path / "link")) == b"model\tabc\n"
    with pytest.raises(OSError) as caught:
        read_regular(str(tmp_path / "link"), flags=os.O_NOFOLLOW)
    assert not isinstance(caught.value, NotRegularFile)  # ELOOP: the link itself, never followed


def test_a_fifo_is_refused_without_waiting_and_its_descriptor_closed(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    for _ in range(50):
        with pytest.raises(NotRegularFile):
            open_regular(str(tmp_path / "fifo"))
    if before is not None:
        assert len(os.listdir("/proc/self/fd")) == before


# Each open by a file's name that may stay as it is, and why (the scan below fails on any other).
_LOCK = "a lock: opened for reading and writing (O_RDWR never waits on a FIFO) and only flocked, never read"
_OURS = "the package's own files beside it (or their .pyc), no file of a person's"
_PROC = "a file of /proc, the kernel's, which no person can put a FIFO in place of"
_SCRATCH = ("a file it writes in a folder scratch.folder made for it a moment before, where no other user "
            "can rename (ADR 0079)")
_GITS = "git's merge result file, named by git for the driver it runs (git made it a moment before)"
PLAIN_OPEN = {
    # why intent.py's: ``_add`` appends to the undo record the persist made itself a moment before, under
    # the memory folder's lock; ``_cut`` opens for reading and writing (O_RDWR), which never waits on a
    # FIFO, and judges what it opened by its inode before reading it
    ("memory/intent.py", "_add"): "the undo record the persist made itself a moment before, under its lock",
    ("memory/intent.py", "_cut"): "O_RDWR never waits on a FIFO; what it opened is judged by inode first",
    ("memory/trust.py", "rules_stamp"): _OURS,
    ("hotload.py", "_code_of"): _OURS,
    ("recall/resident/client.py", "code_stamp"): _OURS,
    ("ui/server.py", "_asset"): "the package's own static files, read through importlib.resources",
    ("cli/__init__.py", "reader_gone"): "the null device, put in the place of a pipe whose reader left",
    ("recall/resident/client.py", "_connect"): "the working folder (.), always a folder, opened to come back",
    ("recall/resident/client.py", "is_answerer"): _PROC,
    ("recall/resident/client.py", "resident_kb"): _PROC,
    ("queue/consume.py", "_start_of"): _PROC,
    ("atomic.py", "_lock_file"): _LOCK,
    ("sync/rounds.py", "__enter__"): _LOCK,
    ("queue/sweep.py", "_forget"): _LOCK,
    ("atomic.py", "open_append"): "O_RDWR never waits on a FIFO; the descriptor is judged before a write",
    ("codex_trust.py", "our_hashes"): _SCRATCH,
    ("worker/codex_distill.py", "call"): _SCRATCH,
    ("sync/drivers.py", "_driver"): _GITS,
    ("sync/journal_merge.py", "main"): _GITS,
    ("queue/produce.py", "_written"): "a new task in the queue's private tmp/, under a name no other writer uses",
    ("worker/storage.py", "probe"): "a new file of its own, a random name in a folder of ours, removed at once",
    ("worker/consolidate_gates.py", "release"): "empties the gate file acquire found regular and holds locked",
}
# why these keep their own non-blocking open (O_NONBLOCK), each judged there: private.py opens a file by its
# name in a folder it holds open (dir_fd, no link followed); worker/owed.py takes a record's lock before
# reading it; regular_file.py is the rule itself
OWN_OPENERS = {"regular_file.py", "private.py", "worker/owed.py"}


_PATH_IO = {"read_text", "read_bytes", "write_text", "write_bytes"}  # pathlib's: a plain open inside


def _may_wait(call) -> bool:
    """Whether ``call`` opens a file by its name with a plain open: ``open(name)`` (``open(fd)`` of a
    descriptor already judged is fine), a ``Path``'s read or write, ``os.open`` of a file (not of a folder:
    O_DIRECTORY fails at once on anything else; not O_EXCL: it makes a new file, and fails at once on
    anything in its place)."""
    import ast

    func, first = call.func, (call.args or [None])[0]
    if isinstance(func, ast.Name):
        # open_regular(path)[0], fd: a descriptor judged already; argv[2] is a name
        judged = (isinstance(first, ast.Subscript) and isinstance(first.value, ast.Call)) or \
            (isinstance(first, ast.Name) and "fd" in first.id)
        return func.id == "open" and first is not None and not judged
    if not isinstance(func, ast.Attribute):
        return False
    owner = getattr(func.value, "id", "")
    if func.attr in _PATH_IO:
        return owner != "atomic"
    flags = set(re.findall(r"O_[A-Z]+", ast.dump(call)))
    return func.attr == "open" and owner == "os" and not {"O_DIRECTORY", "O_EXCL"} & flags


def _plain_opens(tree) -> set[tuple[str, int]]:
    """(function, line) of each call in ``tree`` that opens a file by its name and may wait on a FIFO."""
    import ast

    return {(fn.name, call.lineno) for fn in ast.walk(tree) if isinstance(fn, ast.FunctionDef)
            for call in ast.walk(fn) if isinstance(call, ast.Call) and _may_wait(call)}


def _every_plain_open() -> set[tuple[str, str, int]]:
    import ast

    found = set()
    for folder, dirs, names in os.walk(SRC):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in (n for n in names if n.endswith(".py")):
            rel = os.path.relpath(os.path.join(folder, name), SRC).replace(os.sep, "/")
            if rel not in OWN_OPENERS:
                with open(os.path.join(folder, name), encoding="utf-8") as fh:
                    found |= {(rel, fn, line) for fn, line in _plain_opens(ast.parse(fh.read()))}
    return found


def test_no_reader_in_the_package_opens_a_file_by_its_name_where_a_fifo_would_hold_it():
    """Every reader of a file a person or another user could put a FIFO in place of (memory, the queue,
    a command's files, the sync round's, Claude Code's and Codex's) opens it with ``regular_file``
    (``open_regular``, ``read_regular``; writers ``append_regular``, ``rewrite_regular``): a plain
    ``open`` of its name waited for good on a FIFO there. The rest are in PLAIN_OPEN, each with why."""
    found = _every_plain_open()
    left = sorted((rel, fn, line) for rel, fn, line in found if (rel, fn) not in PLAIN_OPEN)
    assert left == [], "open these with lazy_harness.regular_file (or say why not in PLAIN_OPEN)"
    assert {(rel, fn) for rel, fn, _ in found} == set(PLAIN_OPEN), "an allowed open that is gone: drop it"


def test_a_file_is_rewritten_only_once_judged_and_a_fifo_is_refused_without_waiting(tmp_path):
    kept = tmp_path / "stamp"
    kept.write_bytes(b"older and longer\n")
    fd = rewrite_regular(str(kept))
    os.write(fd, b"new\n")
    os.close(fd)
    assert kept.read_bytes() == b"new\n"
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(OSError):  # ENXIO: nobody reads it; NotRegularFile when somebody does
        rewrite_regular(str(tmp_path / "fifo"))
