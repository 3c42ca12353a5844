"""The project names of a memory folder (``lh memory unassigned``, ``lh memory folders``, the keyless
owners' reading) are read from the first lines of decisions.jsonl and failures.jsonl with a plain
``open``: a FIFO in either's place held the command until a writer came. It is now passed over as an
unreadable file was, and the other file still names the project."""

import json
import os

import pytest

from lazy_harness.memory import aliases
from tests.support.fifo_wait import call_beside


@pytest.mark.parametrize("fifo_name, other", [("decisions.jsonl", "failures.jsonl"),
                                              ("failures.jsonl", "decisions.jsonl")])
def test_a_fifo_named_as_an_entry_file_is_passed_over_and_the_other_still_names_the_project(tmp_path, fifo_name,
                                                                                          other):
    fifo = str(tmp_path / fifo_name)
    os.mkfifo(fifo)
    (tmp_path / other).write_text(json.dumps({"summary": "a", "project": "demo"}) + "\n")

    assert call_beside([fifo], aliases.project_names, str(tmp_path)) == {"demo"}
