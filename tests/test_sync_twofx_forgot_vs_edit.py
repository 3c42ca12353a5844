"""A decision forgotten on one machine and reworded by hand on the other: the merge keeps the edit and
the forget mark, so the entry stays forgotten with the new text; the round says so with a
``conflict:`` line naming the run whose undo brings it back, as for a learning. Real git, two machine
homes, one bare remote."""

import json
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import by_hand, marks
from tests.test_sync import Machine, _git

NOW = time.time()
REWORDED = "Use Postgres 16 for the billing queue"


def _setup(tmp_path) -> tuple[Machine, Machine, str]:
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    did = a.add("decision", "Use Postgres for the billing queue")
    a.add("decision", "Use tox")
    a.sync()
    b.sync()
    return a, b, did


def _reword(m: Machine, did: str) -> None:
    path = m.mdir / "decisions.jsonl"
    recs = [json.loads(ln) for ln in path.read_text().splitlines()]
    for rec in recs:
        if rec["id"] == did:
            rec["summary"] = REWORDED
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))


@pytest.mark.parametrize("first", ["a", "b"])
def test_a_decision_forgotten_on_one_machine_and_reworded_on_the_other_is_said(tmp_path, first):
    a, b, did = _setup(tmp_path)
    run = by_hand.forget(str(a.mdir), paths.learnings_dir(None, a.env), "demo", did, "stale", NOW + 1)
    assert run
    _reword(b, did)
    said = []
    for m in ((a, b, a, b) if first == "a" else (b, a, b, a)):
        said += m.sync()["conflicts"]
    assert len(said) == 1, said
    assert did in said[0] and "forgotten" in said[0] and f"lh memory undo {run}" in said[0], said
    for m in (a, b):
        assert REWORDED in (m.mdir / "decisions.jsonl").read_text(), m.home.name
        assert did in marks.hidden(str(m.mdir)), m.home.name
    _, _, problems = by_hand.undo(str(a.mdir), paths.learnings_dir(None, a.env), run, 7, NOW + 2)
    assert problems == []
    for m in (a, b, a, b):
        m.sync()
    for m in (a, b):
        assert did not in marks.hidden(str(m.mdir)) and REWORDED in (m.mdir / "decisions.jsonl").read_text()


def test_a_forget_and_an_edit_of_different_entries_say_nothing(tmp_path):
    a, b, did = _setup(tmp_path)
    other = a.ids("decision")[1]
    assert by_hand.forget(str(a.mdir), paths.learnings_dir(None, a.env), "demo", other, "stale", NOW + 1)
    _reword(b, did)
    said = []
    for m in (a, b, a, b):
        said += m.sync()["conflicts"]
    assert said == []


def test_a_failure_typed_by_hand_without_id_forgotten_and_edited_is_said(tmp_path):
    # why: a line with neither ``id`` nor ``type`` has its file's kind: in failures.jsonl a failure's id
    from lazy_harness.memory import ids

    a, b, _ = _setup(tmp_path)
    summary = "The socket test fails when the port is reused"
    with open(a.mdir / "failures.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"summary": summary, "root_cause": "port reuse"}) + "\n")
    a.sync()
    b.sync()
    fid = ids.entry_id("failure", summary)
    run = by_hand.forget(str(a.mdir), paths.learnings_dir(None, a.env), "demo", fid, "stale", NOW + 1)
    assert run
    path = b.mdir / "failures.jsonl"
    path.write_text(path.read_text().replace('"port reuse"', '"port reuse by a stale server"'))
    said = []
    for m in (a, b, a, b):
        said += m.sync()["conflicts"]
    assert len(said) == 1 and fid in said[0] and f"lh memory undo {run}" in said[0], said
