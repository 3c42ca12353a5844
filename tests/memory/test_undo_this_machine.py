"""A plain ``lh memory undo`` undoes the newest change made on this machine. Journals are synced, so a
journal's own fields cannot say where it was made; the runs made here are listed in the state folder,
which nothing syncs (memory/runs_here.py). A journal that came by sync is passed over, said so, and
undone here only when named; one planted to sort first (a run name in 2999) is never taken."""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids, journal, runs_here
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
MINE, THEIRS = "Kafka consumers own one partition", "Offsets are committed by hand"


def _forgotten(root: str) -> set[str]:
    out = invoke("memory", "show", "--project", root).out
    return {ln.split()[0] for ln in out.splitlines() if ln.endswith("[forgotten]")}


def _as_synced(mdir: str, run: str, new_run: str | None = None) -> str:
    """The journal of ``run`` as if it came with synced memory (or from an earlier version, which kept
    no list): not listed here, and renamed to ``new_run``."""
    path = os.path.join(journal.folder(mdir), f"{run}.json")
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    os.remove(path)
    data["run"] = new_run or run
    with open(os.path.join(journal.folder(mdir), f"{data['run']}.json"), "w", encoding="utf-8") as fh:
        json.dump(data, fh)
    listed = os.path.join(paths.state_dir(), runs_here.RUNS_FILE)
    with open(listed, encoding="ascii") as fh:
        kept = [line for line in fh if line.strip() != run]
    with open(listed, "w", encoding="ascii") as fh:
        fh.writelines(kept)
    return data["run"]


def _two_forgets(tmp_path) -> tuple[str, str, str, str]:
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 90, MINE), ms.decision(NOW - 80, THEIRS)])
    d_mine, d_theirs = ids.entry_id("decision", MINE), ids.entry_id("decision", THEIRS)
    assert invoke("memory", "forget", d_mine, "--project", root).code == 0
    assert invoke("memory", "forget", d_theirs, "--project", root).code == 0
    return root, mdir, d_mine, d_theirs


def test_a_plain_undo_undoes_this_machines_change_and_names_the_synced_one(tmp_path):
    root, mdir, d_mine, d_theirs = _two_forgets(tmp_path)
    synced = _as_synced(mdir, journal.runs(mdir)[0]["run"])
    r = invoke("memory", "undo", "--project", root)
    assert r.code == 0, r.out + r.err
    assert _forgotten(root) == {d_theirs}
    assert f"run {synced} (forget) was not made here" in r.err and f"lh memory undo {synced}" in r.err
    assert invoke("memory", "undo", synced, "--project", root).code == 0
    assert _forgotten(root) == set()


def test_a_planted_journal_that_sorts_first_is_never_taken(tmp_path):
    root, mdir, d_mine, d_theirs = _two_forgets(tmp_path)
    planted = _as_synced(mdir, journal.runs(mdir)[0]["run"], "29991231-235959000000-ffff")
    assert invoke("memory", "undo", "--project", root).code == 0
    assert _forgotten(root) == {d_theirs}  # the person's own newest (the forget of MINE) was undone
    assert next(r for r in journal.runs(mdir) if r["run"] == planted)["undone"] is None


def test_a_journal_of_an_earlier_version_is_named_and_undone_by_its_run(tmp_path):
    """Listed nowhere (the version before kept no list): a plain undo cannot tell it from one synced
    in, so it passes over it with a line naming its run, and the run undoes it."""
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 90, MINE)])
    assert invoke("memory", "forget", ids.entry_id("decision", MINE), "--project", root).code == 0
    run = journal.runs(mdir)[0]["run"]
    _as_synced(mdir, run)
    os.remove(os.path.join(paths.state_dir(), runs_here.RUNS_FILE))
    r = invoke("memory", "undo", "--project", root)
    assert r.code == 1 and f"lh memory undo {run}" in r.out + r.err, r.out + r.err
    assert _forgotten(root) == {ids.entry_id("decision", MINE)}
    assert invoke("memory", "undo", run, "--project", root).code == 0
    assert _forgotten(root) == set()
