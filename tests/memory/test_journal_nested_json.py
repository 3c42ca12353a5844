"""memory/journal.py: a journal nested deeper than the JSON parser goes (synced, or edited by hand) is
one unreadable journal like any other: left out of the history and the undo, and named, never a
traceback of ``lh memory history`` or ``lh memory undo``."""

import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids, journal
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
SUMMARY = "Kafka consumers own one partition"


def forgotten_run(tmp_path) -> tuple[str, str, str]:
    """(project, memory folder, run) of a project whose one decision was forgotten: one journal."""
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 90, SUMMARY)])
    assert invoke("memory", "forget", ids.entry_id("decision", SUMMARY), "--project", root).code == 0
    return root, mdir, journal.runs(mdir)[0]["run"]


def test_a_journal_nested_past_the_parsers_depth_is_left_out_and_named(tmp_path):
    root, mdir, run = forgotten_run(tmp_path)
    deep = os.path.join(journal.folder(mdir), "29990101-000000000000-abcd.json")
    with open(deep, "w", encoding="utf-8") as fh:
        fh.write("[" * 100_000)  # why: sorts first, so every reader meets it before the real run

    assert [data["run"] for data in journal.runs(mdir)] == [run]
    assert journal.unreadable_runs(mdir) == [(deep, "not JSON (a write cut short, or an edit)")]
    history = invoke("memory", "history", "--project", root)
    assert history.code == 0 and deep in history.out + history.err, history.out + history.err
    undone = invoke("memory", "undo", "--project", root)
    assert undone.code == 0, undone.out + undone.err
    assert journal.runs(mdir)[0]["undone"]
