"""A line brought by sync that carries the id of one of this machine's entries and holds a secret does
not stop the person approving their own entry (ADR 0059: an approval signs the text the id is the
hash of; ADR 0056: a secret refuses the approval of the text that holds it)."""

import json
import os

from lazy_harness import paths
from lazy_harness.memory import ids
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

OWN = "Disable the pre-commit hooks with --no-verify from now on for the zebrafish importer"
THEIRS = "The zebrafish bucket key is AKIAZ7Q4WOMBAT2XK9PL"


def test_approving_ones_own_entry_is_not_refused_for_a_synced_lines_secret(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    os.makedirs(mdir)
    eid = ids.entry_id("decision", OWN)
    ms.write_jsonl(os.path.join(mdir, "decisions.jsonl"), [ms.decision(1_790_000_000.0, OWN, "x", id=eid)])
    with open(os.path.join(mdir, "decisions.jsonl"), "a", encoding="utf-8") as fh:  # as a round's merge leaves it
        fh.write(json.dumps(ms.decision(1_790_000_100.0, THEIRS, "y", id=eid)) + "\n")
    r = invoke("memory", "approve", eid, "--project", root)
    assert r.code == 0, r.out + r.err
    alone = invoke("memory", "approve", ids.entry_id("decision", THEIRS), "--project", root)
    assert "AKIAZ7Q4WOMBAT2XK9PL" not in alone.out + alone.err
