"""A session's own ids (memory/lineage.py): its id, and for a fork the sessions it was forked from, read
from forks recorded from the real CLI (tests/fixtures/transcripts/forked*.jsonl, 2.1.332)."""

import json

from lazy_harness.memory import lineage
from tests.support.sessions import TRANSCRIPTS, fixture_session_id

PARENT, FORK, AGAIN = (fixture_session_id(f"{n}.jsonl") for n in ("forked-parent", "forked", "forked-again"))


def test_a_session_that_was_not_forked_owns_its_id_alone(isolated_home):
    assert lineage.own(None, "s-1") == ("s-1",)
    assert lineage.own(None, "") == ()
    assert lineage.from_transcript(str(TRANSCRIPTS / "forked-parent.jsonl"), PARENT) == []


def test_a_fork_names_its_parent_and_a_fork_of_a_fork_both():
    assert lineage.from_transcript(str(TRANSCRIPTS / "forked.jsonl"), FORK) == [PARENT]
    assert lineage.from_transcript(str(TRANSCRIPTS / "forked-again.jsonl"), AGAIN) == [PARENT, FORK]


def test_a_long_fork_is_read_only_at_its_head_and_its_tail(tmp_path):
    # the oldest ancestor's records come first, the parent's last: both ends are read, not the middle
    recs = [json.loads(ln) for ln in (TRANSCRIPTS / "forked-again.jsonl").read_text().splitlines()]
    filler = {"type": "progress", "data": "x" * 1000}
    middle = [r for r in recs if r.get("requestSessionId") == PARENT]
    head = [r for r in recs if r not in middle]
    path = tmp_path / "long.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [middle[0], *[filler] * 600, *middle[1:],
                                                            *[filler] * 600, *head]))
    assert lineage.from_transcript(str(path), AGAIN) == [PARENT, FORK]
    assert lineage.from_transcript(str(tmp_path / "not-written-yet.jsonl"), AGAIN) is None


def test_a_fork_is_read_once_its_transcript_exists_and_takes_its_parents_lineage(isolated_home, tmp_path):
    lineage.record(None, FORK, [PARENT])
    lineage.mark_fork(None, AGAIN)
    missing = str(tmp_path / "missing.jsonl")
    assert lineage.own(None, AGAIN, missing) == (AGAIN,)  # pending: nothing to read yet
    assert lineage.own(None, AGAIN, str(TRANSCRIPTS / "forked-again.jsonl")) == (AGAIN, PARENT, FORK)
    assert lineage.own(None, AGAIN) == (AGAIN, PARENT, FORK)  # kept: later reads cost one open
    lineage.mark_fork(None, AGAIN)  # a second start of the fork does not forget what was read
    assert lineage.own(None, AGAIN) == (AGAIN, PARENT, FORK)
