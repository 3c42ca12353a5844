"""Issue 37, part 4: an answer's items past the per-session cap (20 learnings, decisions, failures)
are not dropped with a count in worker.log: they are written held (``lh memory held`` lists them,
``lh memory approve`` lets one in, SessionStart tells the person once), and worker.log names them."""

import contextlib
import json
import os

import pytest

from lazy_harness import logfile, paths
from lazy_harness.memory import held_review, held_written
from lazy_harness.worker import answer
from tests.cli.lhrun import invoke
from tests.reliability import rig
from tests.support import fake_claude


def test_validate_returns_the_items_past_the_cap_and_names_them():
    out, problems = answer.validate({"learnings": [{"title": f"learning {i}", "learning": "x"} for i in range(65)]})
    assert [i["title"] for i in out["learnings"]] == [f"learning {i}" for i in range(20)]
    over = out[answer.OVER_CAP]
    assert [s for s, _ in over] == ["learnings"] * answer.MAX_OVER
    assert [i["title"] for _, i in over] == [f"learning {i}" for i in range(20, 20 + answer.MAX_OVER)]
    [line] = problems
    assert "kept the first 20" in line and "40 more written held for review (lh memory held)" in line
    assert "'learning 20'" in line and "5 more dropped: 'learning 60'" in line


def test_an_answer_under_the_cap_has_no_over_cap_key():
    out, problems = answer.validate({"learnings": [{"title": "t", "learning": "x"}]})
    assert answer.OVER_CAP not in out and problems == []


@pytest.fixture
def drained(tmp_path):
    with contextlib.ExitStack() as stack:
        base = tmp_path / "rig"
        base.mkdir()
        home, model = stack.enter_context(rig.private_home(base))
        proj = rig.project(base, "api")
        tok = rig.new_token()
        learnings = [{"title": f"Learning {n} about the {tok} queue", "learning": f"What was learnt, number {n}.",
                      "scope": "project", "tags": ["queue"]} for n in range(25)]
        fake_claude.control(model, mode="ok", answers={tok: {"learnings": learnings, "decisions": [], "failures": [],
                                                                "handoff": []}}, need_token=True)
        payload = rig.session(proj, tok)
        rig.end_sessions_then_drain([payload])
        yield {"project": str(proj), "token": tok, "memory": rig.memory(proj)}


def test_learnings_past_the_cap_are_written_held_named_in_the_log_and_approvable(drained):
    proj, tok = drained["project"], drained["token"]
    listing = held_review.listing(drained["memory"], paths.learnings_dir())
    titles = sorted(h["text"] for h in listing)
    assert titles == sorted(f"Learning {n} about the {tok} queue" for n in range(20, 25))
    assert {h["kind"] for h in listing} == {"learning"}
    assert all(held_written.OVER_CAP in h["reason"] for h in listing)
    log = rig.read(logfile.log_path(logfile.WORKER))
    assert "kept the first 20; 5 more written held for review" in log and f"'Learning 24 about the {tok} queue'" in log
    shown = invoke("memory", "held", "--project", proj)
    assert shown.code == 0 and f"Learning 22 about the {tok} queue" in shown.out
    lid = next(h["id"] for h in listing if h["text"].startswith("Learning 22 "))
    assert invoke("memory", "approve", lid, "--project", proj).code == 0
    assert len(held_review.listing(drained["memory"], paths.learnings_dir())) == 4
    written = [p for p in rig.learning_files() if tok in open(p, encoding="utf-8").read()]
    assert len(written) == 25  # all kept: none lost


def test_session_start_tells_the_person_of_the_held_ones_once(drained):
    payload = {"session_id": rig.new_sid(), "cwd": drained["project"], "hook_event_name": "SessionStart",
               "source": "startup", "transcript_path": "/nonexistent.jsonl"}
    first = json.loads(rig.hook_with_output("SessionStart", payload).stdout or b"{}")
    said = json.dumps(first)
    assert "5 memory entries" in said and "held" in said
    assert "Learning 22 about" not in first.get("hookSpecificOutput", {}).get("additionalContext", "")
    again = json.loads(rig.hook_with_output("SessionStart", {**payload, "session_id": rig.new_sid()}).stdout or b"{}")
    assert "5 memory entries" not in json.dumps(again)
    assert os.path.isdir(drained["memory"])
