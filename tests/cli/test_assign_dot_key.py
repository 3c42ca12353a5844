"""``lh memory assign ID --project .`` (or ``..``): a folder, the working directory's project, never a
memory key: ``.`` and ``..`` are folders of every memory root, and taking them for keys wrote the
adoption into the memory root itself (or the data folder) and assigned nothing (ADR 0035)."""

import os

from lazy_harness import paths
from lazy_harness.memory import aliases
from tests.cli.lhrun import invoke
from tests.memory.test_owners import OLD, legacy_learning, project


def _unassigned_id() -> str:
    listed = invoke("memory", "unassigned")
    assert OLD in listed.out, listed.out
    return listed.out.split("lh memory assign ", 1)[1].split()[0]


def _adopted_by(root: str) -> frozenset:
    return aliases.owned(paths.memory_dir(root)).adopted


def test_project_dot_assigns_to_the_working_directorys_project(tmp_path, monkeypatch):
    work, client = project(tmp_path / "work"), project(tmp_path / "clients", session="sess-c")
    legacy_learning()
    lid = _unassigned_id()
    monkeypatch.chdir(client)
    done = invoke("memory", "assign", lid, "--project", ".")
    assert done.code == 0, done.out + done.err
    mroot = paths.memory_root()
    assert not os.path.exists(os.path.join(mroot, aliases.FILE))  # nothing written into the memory root
    assert lid in _adopted_by(client) and lid not in _adopted_by(work)
    assert os.path.basename(paths.memory_dir(client)) in done.out
    assert OLD not in invoke("memory", "unassigned").out


def test_project_dot_dot_is_the_parent_folder_not_the_data_folder(tmp_path, monkeypatch):
    work, _ = project(tmp_path / "work"), project(tmp_path / "clients", session="sess-c")
    legacy_learning()
    lid = _unassigned_id()
    inside = os.path.join(work, "src")
    os.makedirs(inside)
    monkeypatch.chdir(inside)
    done = invoke("memory", "assign", lid, "--project", "..")
    assert done.code == 0, done.out + done.err
    data = os.path.dirname(paths.memory_root())
    assert not os.path.exists(os.path.join(data, aliases.FILE))  # the data folder is no memory folder
    assert lid in _adopted_by(work)


def test_a_key_is_a_memory_folder_by_its_name_and_an_empty_target_is_refused(tmp_path):
    work, _ = project(tmp_path / "work"), project(tmp_path / "clients", session="sess-c")
    legacy_learning()
    lid = _unassigned_id()
    refused = invoke("memory", "assign", lid, "--project", "")
    assert refused.code == 1 and "neither a memory key" in refused.err + refused.out
    assert not os.path.exists(os.path.join(paths.memory_root(), aliases.FILE))
    key = os.path.basename(paths.memory_dir(work))
    done = invoke("memory", "assign", lid, "--project", key)
    assert done.code == 0 and lid in _adopted_by(work), done.out + done.err
