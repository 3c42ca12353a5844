"""``lh memory usage --reset ID`` and ``lh memory assign ID`` take an id as forget, close and approve
take it (``ids.as_typed``): copied in brackets from handoff.md, typed in upper case, with spaces around."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import aliases, files, ids, usage_log
from tests.cli.lhrun import invoke
from tests.cli.test_assign_dot_key import _unassigned_id
from tests.memory.test_owners import legacy_learning, project
from tests.support import memory_samples as ms

NOW = time.time()


def _typings(eid: str) -> list[str]:
    return [eid.upper(), f"[{eid}]", f" {eid} "]


@pytest.mark.parametrize("how", range(3))
def test_usage_reset_takes_the_id_as_forget_takes_it(tmp_path, how):
    root = ms.make_project(tmp_path, "proj", branch="main")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - ms.DAY, "ship the cli as one wheel", "x")])
    did = ids.of_record(files.read_entries(os.path.join(mdir, files.DECISIONS))[0], "decision")
    typed = _typings(did)[how]
    out = invoke("memory", "usage", "--reset", typed, "--project", root)
    assert out.code == 0, out.err
    assert f"usage of {did} counts anew" in out.out
    assert [rec["id"] for rec in usage_log.read(mdir) if rec["op"] == "reset"] == [did]  # stored as the id


@pytest.mark.parametrize("how", range(3))
def test_assign_takes_the_id_as_forget_takes_it(tmp_path, how):
    work = project(tmp_path / "work")
    project(tmp_path / "clients", session="sess-c")
    legacy_learning()
    lid = _unassigned_id()
    key = os.path.basename(paths.memory_dir(work))
    done = invoke("memory", "assign", _typings(lid)[how], "--project", key)
    assert done.code == 0, done.out + done.err
    assert lid in aliases.owned(paths.memory_dir(work)).adopted
