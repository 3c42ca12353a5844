"""``lh memory search`` says which entries came from another machine (``sync from laptop-2``), as the
session's read-back does: a person deciding what to forget or approve sees where a hit came from. An
entry of this machine says nothing more. The JSON output carries the same words."""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
THEIRS = "Run the billing migrations before the worker deploy"
OURS = "Keep the billing worker on one queue"


def test_a_hit_that_came_by_sync_names_the_machine(tmp_path):
    project = ms.make_project(tmp_path, "billing")
    ms.write_jsonl(os.path.join(paths.memory_dir(project), files.DECISIONS), [
        ms.decision(NOW - 3 * ms.DAY, THEIRS, "a column was missing", project="billing", via="session",
                    machine="laptop-2"),
        ms.decision(NOW - 2 * ms.DAY, OURS, "order matters", project="billing", via="session",
                    machine=os.uname().nodename)])
    out = invoke("memory", "search", "--project", project, "billing", "worker")
    assert out.code == 0, out.err
    theirs = next(line for line in out.out.splitlines() if ids.entry_id("decision", THEIRS) in line)
    ours = next(line for line in out.out.splitlines() if ids.entry_id("decision", OURS) in line)
    assert "[sync from laptop-2" in theirs and "\x1b" not in theirs, theirs
    assert "sync from" not in ours, ours
    rows = [json.loads(line) for line in invoke("memory", "search", "--project", project, "--json", "billing",
                                                 "worker").out.splitlines()]
    by_id = {r["id"]: r for r in rows}
    assert by_id[ids.entry_id("decision", THEIRS)]["came_from"].startswith("sync from laptop-2")
    assert "came_from" not in by_id[ids.entry_id("decision", OURS)]
