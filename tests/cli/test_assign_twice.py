"""``lh memory assign ID`` run again: to the same project it is done already and says so (exit 0,
nothing written twice); to another project it names the project that has it, instead of calling an
assigned learning "not an unassigned project learning"."""

import os

from lazy_harness import paths
from lazy_harness.memory import aliases
from tests.cli.lhrun import invoke
from tests.cli.test_assign_dot_key import _unassigned_id
from tests.memory.test_owners import legacy_learning, project


def _adoptions(root: str) -> list[dict]:
    return [r for r in aliases.records(paths.memory_dir(root)) if r.get("op") == aliases.ADOPT]


def test_assigning_again_to_the_same_project_says_it_is_done_and_writes_nothing(tmp_path):
    work, _ = project(tmp_path / "work"), project(tmp_path / "clients", session="sess-c")
    legacy_learning()
    lid = _unassigned_id()
    key = os.path.basename(paths.memory_dir(work))
    assert invoke("memory", "assign", lid, "--project", key).code == 0
    again = invoke("memory", "assign", lid, "--project", str(work))
    assert again.code == 0, again.out + again.err
    assert f"{lid} is {key}'s already" in again.out
    assert len(_adoptions(work)) == 1


def test_assigning_to_another_project_names_the_one_that_has_it(tmp_path):
    work, client = project(tmp_path / "work"), project(tmp_path / "clients", session="sess-c")
    legacy_learning()
    lid = _unassigned_id()
    key = os.path.basename(paths.memory_dir(work))
    assert invoke("memory", "assign", lid, "--project", key).code == 0
    other = invoke("memory", "assign", lid, "--project", str(client))
    assert other.code == 1
    said = other.out + other.err
    assert f"{lid} is {key}'s already" in said and "not an unassigned" not in said
    assert paths.memory_dir(work) in said
    assert lid not in aliases.owned(paths.memory_dir(client)).adopted


def test_an_id_no_learning_has_is_still_refused_as_before(tmp_path):
    project(tmp_path / "work")
    refused = invoke("memory", "assign", "l-0123abcd", "--project", str(tmp_path / "work"))
    assert refused.code == 1 and "not an unassigned project learning" in refused.out + refused.err
