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
