"""The index's writer and ``store.connect`` make the index's folder private and refuse one that another
user owns or may write (ADR 0031), whoever calls them: the person's memory is never written into a
file another user can read. A reader (the prompt hook, ``create=False``) is not checked again here:
the hook looked at every folder before it got this far."""

import os
import stat

import pytest

from lazy_harness import private
from lazy_harness.errors import LhError
from lazy_harness.memory import files
from lazy_harness.recall.index import store, writer
from tests.support import memory_samples as ms


def memory(tmp_path) -> str:
    mdir = str(tmp_path / "mem")
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(1_750_000_000.0, "Keep the secret plan here")])
    return mdir


def open_folder(tmp_path) -> str:
    folder = str(tmp_path / "recall")
    os.mkdir(folder)
    os.chmod(folder, 0o777)
    return folder


def test_the_writer_refuses_a_folder_open_to_others(tmp_path):
    folder = open_folder(tmp_path)
    with pytest.raises(LhError) as got:
        writer.update(os.path.join(folder, "index.sqlite"), [memory(tmp_path)], None)
    assert folder in str(got.value) and "open to group or others" in str(got.value)
    assert os.listdir(folder) == []


def test_connect_refuses_a_folder_of_another_user(tmp_path, monkeypatch):
    folder = str(tmp_path / "recall")
    os.mkdir(folder, 0o700)
    real = private.problem
    monkeypatch.setattr(private, "problem", lambda path, strict=False, uid=None: real(
        path, strict, os.geteuid() + 1 if path == folder else uid))
    with pytest.raises(LhError) as got:
        store.connect(os.path.join(folder, "index.sqlite"))
    assert folder in str(got.value) and "belongs to uid" in str(got.value)
    assert os.listdir(folder) == []


def test_the_writer_makes_a_missing_folder_private(tmp_path):
    folder = str(tmp_path / "a" / "recall")
    got = writer.update(os.path.join(folder, "index.sqlite"), [memory(tmp_path)], None)
    assert got is not None and got[0] == 1
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(os.path.dirname(folder)).st_mode) == 0o700


def test_a_reader_is_not_checked_again(tmp_path, monkeypatch):
    """The prompt hook's open (``create=False``) costs no look at the folder: its caller checked it."""
    folder = str(tmp_path / "recall")
    path = os.path.join(folder, "index.sqlite")
    writer.update(path, [memory(tmp_path)], None)

    def looked(*args, **kwargs):
        raise AssertionError("the reader looked at the folder")

    monkeypatch.setattr(private, "problem", looked)
    monkeypatch.setattr(private, "make", looked)
    conn = store.connect(path, create=False)
    try:
        assert conn.execute("SELECT count(*) FROM entry").fetchone()[0] == 1
    finally:
        conn.close()
