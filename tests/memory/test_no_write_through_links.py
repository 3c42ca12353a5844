"""A memory file that is a symbolic link (``marks.jsonl`` -> a file outside the memory folders) is
never written through: ``lh memory forget`` and every appended line refuse it in one line naming the
file, and the link's target keeps its bytes (the worker's own writes refuse such a file too)."""

import os
import time

import pytest

from lazy_harness.atomic import append_line
from lazy_harness.memory import marks
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.support import realistic_memory as rm


def test_append_line_refuses_a_link_and_leaves_its_target(tmp_path):
    target = tmp_path / "outside.txt"
    target.write_text("mine\n")
    link = tmp_path / "memory" / "decisions.jsonl"
    link.parent.mkdir()
    link.symlink_to(target)
    with pytest.raises(OSError) as caught:
        append_line(str(link), "{}")
    assert caught.value.filename == str(link) and "symbolic link" in caught.value.strerror
    assert target.read_text() == "mine\n"


def test_a_link_to_a_file_that_does_not_exist_is_not_followed_either(tmp_path):
    target = tmp_path / "made-outside.txt"
    link = tmp_path / "marks.jsonl"
    link.symlink_to(target)
    with pytest.raises(OSError):
        append_line(str(link), "{}")
    assert not target.exists()


def test_forget_refuses_marks_jsonl_linked_outside(isolated_home, tmp_path):
    root = ms.make_project(tmp_path, "proj")
    rm.build(root, os.environ, time.time(), entries=12, name="proj", handoff_items=1)
    listed = invoke("memory", "search", "the", "--project", root, "--all")
    eid = next(w for line in listed.out.splitlines() for w in line.split() if w.startswith("d-"))
    shown = invoke("memory", "show", "--project", root)
    assert shown.code == 0
    from lazy_harness import paths

    mdir = paths.memory_dir(root)
    path = marks.path_of(mdir)
    target = tmp_path / "bashrc"
    target.write_text("export PS1='$ '\n")
    if os.path.exists(path):
        os.unlink(path)
    os.symlink(target, path)
    out = invoke("memory", "forget", eid, "--project", root, "--reason", "test")
    assert out.code == 1
    [line] = [line for line in out.err.splitlines() if line.startswith("lh: ")]
    assert line.startswith(f"lh: {path}: ") and "symbolic link" in line
    assert target.read_text() == "export PS1='$ '\n"
