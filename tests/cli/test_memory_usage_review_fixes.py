"""``lh memory usage`` after review r3 (ADR 0036): the entries that cost the most for the least use
leave out what readers leave out (forgotten, merged, superseded, held), and each row has a title."""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.atomic import append_line
from lazy_harness.memory import files, ids, marks, usage_log
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
BIG = "Vendor every wheel into the offline mirror before a release build"
SMALL = "Keep the staging database on the same minor version as production"


def test_a_forgotten_entry_is_not_listed_as_costly_and_each_row_has_a_title(tmp_path, monkeypatch, isolated_home):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    mdir = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 900, BIG), ms.decision(NOW - 800, SMALL)])
    big, small = ids.entry_id("decision", BIG), ids.entry_id("decision", SMALL)
    line = usage_log.line
    usage_log.append(mdir, [line("shown", NOW - 60, session=f"s{k}", id=i, chars=n)
                            for k in range(3) for i, n in ((big, 900), (small, 300))])
    before = invoke("memory", "usage")
    assert before.code == 0, before.err
    costly = before.out.split("most characters for the least use:")[1]
    assert big in costly and "Vendor every wheel into the offline mirror" in costly, costly
    append_line(marks.path_of(mdir), json.dumps({"op": "forget", "id": big, "reason": "by hand",
                                                 "ts": usage_log.stamp(NOW), "run": "r1"}))
    after = invoke("memory", "usage")
    assert after.code == 0, after.err
    costly = after.out.split("most characters for the least use:")[1]
    assert big not in costly and small in costly, costly
    assert "Keep the staging database" in costly.splitlines()[1], costly
    assert big in after.out.split("most characters for the least use:")[0]  # the record itself still lists it
