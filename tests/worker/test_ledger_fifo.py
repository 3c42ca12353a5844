"""The ledger read with a plain ``open`` (its recent entries for the spending caps and ``lh cost``, its
damaged lines for ``lh cost``): a FIFO in its place held the worker's budget check and the command in
open() until a writer came. It now reads as an unreadable ledger did: no entries, no damaged lines."""

import os
import subprocess

from lazy_harness import paths
from lazy_harness.cost import ledger
from tests.cli.lhrun import lh_script
from tests.support.fifo_wait import call_beside, release


def _fifo_ledger() -> str:
    path = paths.ledger_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.mkfifo(path)
    return path


def test_a_fifo_in_the_ledgers_place_reads_as_no_entries_without_waiting(isolated_home):
    fifo = _fifo_ledger()

    assert call_beside([fifo], ledger.read_since, 0) == []
    assert call_beside([fifo], ledger.unread) == ([], [])


def test_lh_cost_answers_with_a_fifo_in_the_ledgers_place(isolated_home, tmp_path):
    fifo = _fifo_ledger()
    try:
        # why a timeout: it is the failure this test guards (a hang), not a measure of speed
        result = subprocess.run([*lh_script(), "cost"], capture_output=True, text=True, timeout=20, cwd=tmp_path)
    except subprocess.TimeoutExpired:
        result = None
    finally:
        release(fifo)
    assert result is not None, "lh cost still waited on the FIFO after 20 s"
    assert result.returncode in (0, 1) and "Traceback" not in result.stderr, result.stderr
