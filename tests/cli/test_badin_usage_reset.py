"""``lh memory usage --reset ID`` resets only an entry the project has (in its memory files, the
learnings, or its usage log): an id no entry has (a typo, another project's id) is refused with one
line naming the id and the folder, and an empty value is a usage error; neither writes anything."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, handoff, ids, learnings, usage_log
from tests.cli.lhrun import invoke
from tests.cli.test_badin_missing_project import snapshot
from tests.support import memory_samples as ms

NOW = time.time()
SHOWN_ONLY = "d-0000abcd"  # in the usage log only (its entry rewritten or removed by hand since)


@pytest.fixture
def world(tmp_path, monkeypatch, isolated_home):
    proj, other = ms.make_project(str(tmp_path), "app"), ms.make_project(str(tmp_path), "other")
    mdir, omdir = paths.memory_dir(proj), paths.memory_dir(other)
    dec = ms.decision(NOW - 60, "Keep the pool small", "it times out")
    fail = ms.failure(NOW - 60, "The deploy hung on a lock", "take the lock with a timeout")
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [dec])
    ms.write_jsonl(os.path.join(mdir, files.FAILURES), [fail])
    foreign = ms.decision(NOW - 60, "Use the other project's queue", "theirs", project="other")
    ms.write_jsonl(os.path.join(omdir, files.DECISIONS), [foreign])
    ms.write_handoff(mdir, ["finish the migration"], "s-1", NOW - 120, project="app")
    lpath = ms.write_learning(paths.learnings_dir(), "Pin the minor version", "app", NOW - 60)
    usage_log.append(mdir, [usage_log.line("session", NOW - 30, session="s1", chars=100),
                            usage_log.line("shown", NOW - 30, session="s1", id=SHOWN_ONLY, chars=100)])
    [item] = handoff.open_items(handoff.load(mdir)[0])
    monkeypatch.chdir(proj)
    return {"mdir": mdir, "ldir": paths.learnings_dir(), "decision": ids.of_record(dec, "decision"),
            "failure": ids.of_record(fail, "failure"), "learning": learnings.id_of(lpath),
            "handoff": item["id"], "foreign": ids.of_record(foreign, "decision")}


def usage_bytes(mdir: str) -> bytes:
    with open(usage_log.path_of(mdir), "rb") as fh:
        return fh.read()


@pytest.mark.parametrize("which", ["typo", "foreign"])
def test_an_id_no_entry_of_the_project_has_is_refused_and_nothing_written(world, tmp_path, which):
    eid = "d-00000000" if which == "typo" else world["foreign"]
    before, log = snapshot(tmp_path), usage_bytes(world["mdir"])
    r = invoke("memory", "usage", "--reset", eid)
    assert r.code == 1, (r.out, r.err)
    assert r.out == "" and r.err.count("\n") == 1 and "Traceback" not in r.err, r.err
    assert r.err.startswith(f"lh: no decision {eid} in {world['mdir']}"), r.err
    assert usage_bytes(world["mdir"]) == log
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("value", ["", "   "], ids=["empty", "blank"])
def test_an_empty_id_is_a_usage_error(world, tmp_path, value):
    before = snapshot(tmp_path)
    r = invoke("memory", "usage", "--reset", value)
    assert r.code == 2, (r.out, r.err)
    assert r.out == "" and "--reset" in r.err and "Traceback" not in r.err, r.err
    assert r.err.strip().splitlines()[-1].startswith("Error:"), r.err
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("kind", ["decision", "failure", "learning", "handoff", "shown-only"])
def test_an_entry_the_project_has_is_reset(world, kind):
    eid = SHOWN_ONLY if kind == "shown-only" else world[kind]
    log = usage_bytes(world["mdir"])
    r = invoke("memory", "usage", "--reset", eid)
    assert r.code == 0, r.err
    assert eid in r.out
    added = usage_bytes(world["mdir"])[len(log):].decode()
    assert added.count("\n") == 1 and '"reset"' in added and eid in added
