"""Files written by their name with a plain open for writing, which waits for a FIFO's reader as one for
reading waits for its writer: the session start's pull stamp (SessionStart held), the sweep's stamp
(every hook that sweeps), the answerer's back-off marker and pid file (the prompt hook), the learned
check's weights (the worker). Each is now opened through ``regular_file``: refused at once, named."""

import os
from types import SimpleNamespace

import pytest

from lazy_harness.hooks import start_pull
from lazy_harness.queue import sweep
from lazy_harness.recall.resident import client
from lazy_harness.worker import learned_check
from tests.support.fifo_wait import HUNG, call_beside


def test_the_session_start_names_a_fifo_in_place_of_its_pull_stamp_and_goes_on(tmp_path):
    fifo = str(tmp_path / ".sync-pull")
    os.mkfifo(fifo)
    # why this process's environment (the test's HOME): a pull started anyway must not reach the real home
    told = SimpleNamespace(env=dict(os.environ), now=1.0, cfg={"sync": {"pull_budget_ms": 0}}, person=[])
    said = call_beside([fifo], start_pull.pull, told, fifo)
    assert said.startswith(f" (pull not started: {fifo}: "), said
    assert said.endswith("; hint: move it aside)")


def test_a_fifo_in_place_of_the_sweeps_stamp_is_named_without_waiting(tmp_path):
    fifo = str(tmp_path / "sweep.stamp")
    os.mkfifo(fifo)
    with pytest.raises(OSError) as caught:
        call_beside([fifo], sweep._stamp, fifo, "", 1.0)
    assert fifo in str(caught.value)


def test_the_answerers_files_a_fifo_holds_are_passed_over(tmp_path):
    for name in (client.PID_NAME, client.BACKOFF_NAME):
        os.mkfifo(tmp_path / name)
    fifos = [str(tmp_path / n) for n in (client.PID_NAME, client.BACKOFF_NAME)]
    assert call_beside(fifos, client.pid_in, str(tmp_path)) is None
    assert call_beside(fifos, client.back_off, str(tmp_path), 1.0) != HUNG


def test_a_fifo_named_as_the_learned_checks_weights_is_refused(tmp_path):
    fifo = str(tmp_path / "weights.json")
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a learned check weights file"):
        call_beside([fifo], learned_check.Model, fifo)
