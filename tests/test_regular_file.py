"""One way to open a file without waiting (lazy_harness/regular_file.py), used by every reader that must
not be held by a FIFO put in a file's place: the memory files, a transcript, a task, a settings file,
git's files, the static model's stamps, a Codex rollout. Nine readers had a copy of the rule each."""

import os

import pytest

import lazy_harness
from lazy_harness.regular_file import NotRegularFile, open_regular, read_regular

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


# why each of these keeps a plain ``os.open``: intent.py's ``_add`` appends to the undo record the persist
# made itself a moment before, under the memory folder's lock; ``_cut`` opens for reading and writing
# (O_RDWR), which never waits on a FIFO, and judges what it opened by its inode before reading it;
# trust.py's ``rules_stamp`` reads the package's own source files beside it, no file of a person's
PLAIN_OS_OPEN = {("intent.py", "_add"), ("intent.py", "_cut"), ("trust.py", "rules_stamp")}


def _plain_opens(tree) -> set[tuple[str, int]]:
    """(function, line) of each call in ``tree`` that opens a file by its name and may wait on a FIFO:
    ``open(name)`` (``open(fd)`` of a descriptor already judged is fine) and ``os.open`` of a file (not
    of a folder: O_DIRECTORY fails at once on anything else)."""
    import ast

    found = set()
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call) and n.args):
            func, first = call.func, call.args[0]
            if isinstance(func, ast.Name) and func.id == "open":
                judged = isinstance(first, ast.Subscript) or (isinstance(first, ast.Name) and "fd" in first.id)
                if not judged:
                    found.add((fn.name, call.lineno))
            elif isinstance(func, ast.Attribute) and func.attr == "open" and getattr(func.value, "id", "") == "os" \
                    and "O_DIRECTORY" not in ast.dump(call):
                found.add((fn.name, call.lineno))
    return found


def test_no_reader_in_memory_opens_a_file_by_its_name_where_a_fifo_would_hold_it():
    """Every memory/ reader opens its file with ``regular_file`` (``open_regular``, ``read_regular``):
    a plain ``open`` of a memory file's name waited for good on a FIFO put in its place."""
    import ast

    folder = os.path.join(SRC, "memory")
    found = set()
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), encoding="utf-8") as fh:
                tree = ast.parse(fh.read())
            found |= {(name, fn, line) for fn, line in _plain_opens(tree) if (name, fn) not in PLAIN_OS_OPEN}
    assert found == set(), "open these with lazy_harness.regular_file (or say why not in PLAIN_OS_OPEN)"
