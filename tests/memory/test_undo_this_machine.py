"""A plain ``lh memory undo`` undoes the newest change made on this machine: a run synced from another
machine (its journal names that machine's id) is passed over, said so, and undone here only when named."""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids, journal
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()


def _forgotten(root: str) -> set[str]:
    out = invoke("memory", "show", "--project", root).out
    return {ln.split()[0] for ln in out.splitlines() if ln.endswith("[forgotten]")}


def _from_another_machine(mdir: str, run: str) -> None:
    path = os.path.join(journal.folder(mdir), f"{run}.json")
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    assert data["machine"] == journal.machine() and len(data["machine"]) == 16
    data["machine"] = "0123456789abcdef"
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh)


def test_a_plain_undo_undoes_this_machines_change_and_names_the_other_machines(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    mine, theirs = "Kafka consumers own one partition", "Offsets are committed by hand"
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 90, mine), ms.decision(NOW - 80, theirs)])
    d_mine, d_theirs = ids.entry_id("decision", mine), ids.entry_id("decision", theirs)
    assert invoke("memory", "forget", d_mine, "--project", root).code == 0
    assert invoke("memory", "forget", d_theirs, "--project", root).code == 0
    newest = journal.runs(mdir)[0]["run"]
    _from_another_machine(mdir, newest)
    r = invoke("memory", "undo", "--project", root)
    assert r.code == 0, r.out + r.err
    assert _forgotten(root) == {d_theirs}
    assert f"run {newest} (forget) was made on another machine" in r.err and f"lh memory undo {newest}" in r.err
    assert invoke("memory", "undo", newest, "--project", root).code == 0
    assert _forgotten(root) == set()


def test_a_journal_of_an_earlier_version_without_a_machine_is_undone_as_before(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 90, "Kafka consumers own one partition")])
    did = ids.entry_id("decision", "Kafka consumers own one partition")
    assert invoke("memory", "forget", did, "--project", root).code == 0
    run = journal.runs(mdir)[0]["run"]
    path = os.path.join(journal.folder(mdir), f"{run}.json")
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    del data["machine"]
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh)
    assert invoke("memory", "undo", "--project", root).code == 0
    assert _forgotten(root) == set()
