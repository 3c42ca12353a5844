"""The worker's readers that still opened a file with a plain ``open``: a FIFO in its place held the
worker there until a writer came, and with it the queue of every other session. A session's cursor and
the record of what its forks covered (``<queue>/state/<session>.cursor``, ``.covered``), the memory
files the consolidation gate counts sessions in, the project's learnings read for the consolidation
prompt and for the usage of an entry. Each now opens it as the memory readers do: read as no file."""

import os

import pytest

from lazy_harness.memory import files
from lazy_harness.worker import consolidate_gates, consolidate_prompt, cursor
from tests.support.fifo_wait import call_beside

SID = "5d0c7a41-2b3e-4f6a-8c9d-0e1f2a3b4c5d"


@pytest.mark.parametrize("suffix", [".cursor", cursor.COVERED])
def test_a_fifo_in_place_of_a_sessions_cursor_reads_as_none(isolated_home, suffix):
    fifo = cursor._file(None, SID, suffix)
    os.makedirs(os.path.dirname(fifo), exist_ok=True)
    os.mkfifo(fifo)
    read = cursor._cursor if suffix == ".cursor" else cursor._covered
    assert call_beside([fifo], read, None, SID) in ({}, [])


def test_a_fifo_in_place_of_a_transcript_has_no_check_nor_last_record(tmp_path):
    fifo = str(tmp_path / f"{SID}.jsonl")
    os.mkfifo(fifo)
    assert call_beside([fifo], cursor._check, fifo, 10) is None
    assert call_beside([fifo], cursor._last_uuid, fifo, 10) == ""


def test_the_consolidation_gate_counts_no_session_in_a_fifo(tmp_path):
    fifo = str(tmp_path / files.DECISIONS)
    os.mkfifo(fifo)
    assert call_beside([fifo], consolidate_gates.sessions_since, str(tmp_path), None) == 0


def test_the_consolidation_prompt_passes_over_a_fifo_named_as_a_learning(isolated_home, tmp_path):
    month = tmp_path / "learnings" / "2026-01"
    month.mkdir(parents=True)
    fifo = str(month / "2026-01-01-wheel.md")
    os.mkfifo(fifo)
    heads = call_beside([fifo], consolidate_prompt._learning_heads, str(tmp_path / "learnings"), "demo",
                        str(tmp_path / "mem"))
    assert heads == []
