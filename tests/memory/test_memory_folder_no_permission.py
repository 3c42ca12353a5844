"""A memory folder or a learnings month folder this user may not read (a folder ``sudo lh`` made, its
mode changed) was read as empty by every reader, and ``lh memory check`` (exit 0, "0 file(s) checked")
and ``lh doctor`` ("ok") said nothing of it: its entries were gone from every session without a word.
Both name the folder now, and ``check`` exits 1.
why monkeypatched: the tests may run as root, whom no mode stops; the kernel's refusal is what
``os.access`` reports for a normal user."""

import json
import os
import time

import pytest

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()


def _deny(monkeypatch, folder: str) -> None:
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if p == folder else real(p, mode, **kw))


@pytest.fixture
def project(isolated_home, tmp_path, monkeypatch) -> tuple[str, str]:
    root = ms.make_project(str(tmp_path), "demo")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, "decisions.jsonl"), [ms.decision(NOW - 900, "Pin the protobuf version")])
    ms.write_learning(paths.learnings_dir(), "Retry uploads with backoff", "demo", NOW - 86400 * 40)
    monkeypatch.chdir(root)
    return root, mdir


def test_check_and_doctor_name_a_memory_folder_that_cannot_be_read(project, monkeypatch):
    _, mdir = project
    _deny(monkeypatch, mdir)
    done = invoke("memory", "check")
    assert done.code == 1, done.out
    assert f"{mdir}: cannot be read: a folder this user cannot read (its permissions)" in done.out
    doctor = invoke("doctor")
    assert any(line.startswith("warn  memory files: ") and mdir in line for line in doctor.out.splitlines()), doctor.out


def test_check_and_doctor_name_a_month_folder_of_learnings_that_cannot_be_read(project, monkeypatch):
    [month] = [os.path.join(paths.learnings_dir(), m) for m in os.listdir(paths.learnings_dir())]
    _deny(monkeypatch, month)
    done = invoke("memory", "check")
    assert done.code == 1, done.out
    assert f"{month}: cannot be read: a folder this user cannot read (its permissions)" in done.out
    assert "1 damaged learning(s)" in done.out
    doctor = invoke("doctor")
    assert f"{month}: cannot be read" in doctor.out, doctor.out


def test_a_readable_project_checks_clean(project):
    done = invoke("memory", "check")
    assert done.code == 0, done.out
    assert "cannot be read" not in done.out


def test_forget_of_a_decision_whose_file_cannot_be_read_names_the_file(project):
    _, mdir = project
    path = os.path.join(mdir, "decisions.jsonl")
    eid = json.loads(invoke("memory", "search", "protobuf", "--json").out.splitlines()[0])["id"]
    os.replace(path, path + ".moved")
    os.symlink(path + ".gone", path)  # a link to nothing: no reader can open it
    done = invoke("memory", "forget", eid)
    assert done.code == 1
    assert done.err.startswith(f"lh: no decision {eid} read: {path} cannot be read: a link to "), done.err
    assert "lh memory check" in done.err
