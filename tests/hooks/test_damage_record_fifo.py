"""A FIFO in place of the record of damage already logged (``<queue>/state/damaged-lines.json``): a hook
that met a damaged memory line read the record with a plain ``open`` to tell whether the damage was new,
and waited there for a writer until Claude Code killed it: every session started without memory. It is
read as no record (the damage is logged again), never waited on."""

import os
import subprocess
import time

from lazy_harness import paths
from lazy_harness.memory import files, lines
from tests.hooks.hookrun import hook_log
from tests.hooks.test_readback_review_damaged import _start
from tests.support import memory_samples as ms

NOW = time.time()


def test_a_fifo_in_place_of_the_damage_record_does_not_hold_the_start(isolated_home, tmp_path):
    project = ms.make_project(tmp_path, "demo")
    decisions = os.path.join(paths.memory_dir(project), files.DECISIONS)
    ms.write_jsonl(decisions, [ms.decision(NOW - 9000, "ship the ledger export", "r", project="demo")])
    with open(decisions, "a", encoding="utf-8") as fh:
        fh.write('{"ts": "2026-01-01T00:00:00Z", "summary": "cut\n')  # a damaged line
    record = os.path.join(paths.state_dir(), lines.REPORTED)
    os.makedirs(os.path.dirname(record), mode=0o700, exist_ok=True)
    os.mkfifo(record)
    try:
        text = _start(project)
    except subprocess.TimeoutExpired:  # why caught: the hook held in open() until its timeout
        text = None
    assert text is not None and "ship the ledger export" in text
    assert any(decisions in ln for ln in hook_log(paths.claude_dir())), hook_log(paths.claude_dir())
