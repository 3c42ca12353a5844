"""Two more readers of memory/aliases.py opened with a plain ``open``: the consent file of a project's
aliases (read by every reader of its aliases, the session start's among them) and the newest transcripts
of a Claude Code project folder (whose ``cwd`` tells whose a keyless learning is: lh memory show, lh memory
unassigned). A FIFO in either's place held the reader in open() until a writer came; each is now passed
over as a file that cannot be read."""

import json
import os

from lazy_harness.memory import aliases, last_key
from tests.support.fifo_wait import call_beside


def test_a_fifo_in_place_of_the_consent_file_reads_as_no_consent_without_waiting(isolated_home):
    fifo = aliases.consent_file("demo-key")
    last_key.private_folder(os.path.dirname(fifo))
    os.mkfifo(fifo)

    assert call_beside([fifo], aliases._consents, fifo) == set()


def test_a_fifo_named_as_the_newest_transcript_is_passed_over_for_the_next(tmp_path):
    folder = tmp_path / "-home-me-demo"
    folder.mkdir()
    older = folder / "older.jsonl"
    older.write_text(json.dumps({"type": "user", "cwd": "/home/me/demo"}) + "\n")
    os.utime(older, (1_700_000_000, 1_700_000_000))
    fifo = str(folder / "newest.jsonl")
    os.mkfifo(fifo)

    assert call_beside([fifo], aliases.transcript_cwd, str(folder)) == "/home/me/demo"
