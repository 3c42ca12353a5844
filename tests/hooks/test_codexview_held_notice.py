"""SessionStart's notice of held entries is true whatever held them: an entry held past the
per-session cap (or by the learned check) does not read as instructions or hold a secret, so the
notice names no reason and sends the person to ``lh memory held``, which says why."""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, held, held_written, ids
from tests.hooks.hookrun import run_hook
from tests.support import memory_samples as ms

NOW = time.time()


def test_the_held_notice_claims_no_reason_for_an_entry_held_past_the_cap(tmp_path):
    root = ms.make_project(tmp_path, "api")
    mdir = paths.memory_dir(root)
    records = [ms.decision(NOW - ms.DAY, f"Keep the billing queue vacuum at night, rule {i}", "quiet hours",
                           project="api") for i in range(3)]
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), records)
    over = [("decision", ids.of_record(rec, "decision"), "", held_written.OVER_CAP) for rec in records[1:]]
    assert held.hold(mdir, paths.learnings_dir(), over, "api", NOW, "seeded")
    r = run_hook("SessionStart", {"session_id": "s-1", "cwd": root, "source": "startup"})
    assert r.returncode == 0, r.stderr
    said = json.loads(r.stdout)["systemMessage"]
    assert "lazy-harness held 2 memory entries of api" in said, said
    assert "instructions" not in said and "secret" not in said, said
    assert "lh memory held" in said and "lh memory approve ID" in said, said
    assert all(i in said for _, i, _, _ in over), said
