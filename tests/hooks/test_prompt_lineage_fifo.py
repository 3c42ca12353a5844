"""A FIFO in place of a session's lineage record (``<queue>/state/<session>.lineage``: the sessions it
was forked from): the prompt hook read it with a plain ``open`` and waited there for a writer until
Claude Code killed it, at every prompt of that session. It is read as no record now."""

import os
import subprocess

from lazy_harness.memory import lineage
from tests.hooks.test_user_prompt import PROMPT, ask, project  # noqa: F401 (the fixture)

SID = "5d0c7a41-2b3e-4f6a-8c9d-0e1f2a3b4c5d"


def test_a_fifo_in_place_of_the_lineage_record_does_not_hold_the_prompt(project):  # noqa: F811
    record = lineage.state_file(None, SID)
    os.makedirs(os.path.dirname(record), mode=0o700, exist_ok=True)
    os.mkfifo(record)
    try:
        out = ask(project, PROMPT, sid=SID)
    except subprocess.TimeoutExpired:  # why caught: the hook held in open() until its timeout
        out = None
    assert out is not None and "advisory locks" in out
