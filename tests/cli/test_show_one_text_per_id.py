"""A decision or failure line copied and reworded by hand, its ``id`` kept, is one entry in ``lh memory show``
and on the page, under the text SessionStart gives; a line brought by sync that merely carries the id of
one of this machine's entries is listed in neither (ADR 0059: one rule, ``memory.standing``)."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, ids
from lazy_harness.ui import memory_lists
from tests.cli.lhrun import invoke
from tests.recall.test_twotexts_readers_agree import start
from tests.support import memory_samples as ms

NOW = time.time()
SUMMARY = "Use a file queue between hooks and worker"
REWORDED = "Use a capybara file queue between hooks and worker, v2"
KINDS = {"decision": (files.DECISIONS, ms.decision, "Decisions"), "failure": (files.FAILURES, ms.failure, "Failures")}


@pytest.fixture
def project(tmp_path):
    return ms.make_project(tmp_path, "proj")


def _write(project: str, kind: str, *recs: dict) -> str:
    name = KINDS[kind][0]
    path = os.path.join(paths.memory_dir(project), name)
    ms.write_jsonl(path, list(recs))
    return path


def _listed(project: str, kind: str, eid: str) -> list[str]:
    """The lines of ``lh memory show --all`` under ``kind``'s heading naming ``eid``."""
    out = invoke("memory", "show", "--project", project, "--all")
    assert out.code == 0, out.err
    heading = KINDS[kind][2]
    part = out.out.split(f"\n{heading} (", 1)[1].split("\n\n", 1)[0]
    return [ln for ln in part.splitlines() if ln.strip().startswith(eid + " ")]


@pytest.mark.parametrize("kind", KINDS)
def test_a_line_copied_and_reworded_is_listed_once_as_sessionstart_gives_it(project, kind):
    eid = ids.entry_id(kind, SUMMARY)
    first = KINDS[kind][1](NOW - 2 * ms.DAY, SUMMARY, "hooks must stay fast", id=eid)
    path = _write(project, kind, first, {**first, "summary": REWORDED})
    [shown] = [ln for ln in start(project).splitlines() if eid in ln]
    assert "capybara" in shown
    [line] = _listed(project, kind, eid)
    assert "capybara" in line, line
    [rec] = [r for r in memory_lists.records(path) if r["id"] == eid]
    assert rec["summary"] == REWORDED


def test_a_synced_line_claiming_this_machines_id_is_listed_nowhere(project):
    eid = ids.entry_id("decision", SUMMARY)
    mine = ms.decision(NOW - 2 * ms.DAY, SUMMARY, "hooks must stay fast", id=eid, via="session",
                       machine=os.uname().nodename)
    theirs = {**mine, "summary": REWORDED, "machine": "laptop-2"}
    path = _write(project, "decision", mine, theirs)
    [shown] = [ln for ln in start(project).splitlines() if eid in ln]
    assert "capybara" not in shown
    [line] = _listed(project, "decision", eid)
    assert "capybara" not in line and SUMMARY in line, line
    [rec] = [r for r in memory_lists.records(path) if r["id"] == eid]
    assert rec["summary"] == SUMMARY
