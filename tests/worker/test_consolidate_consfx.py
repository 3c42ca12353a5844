"""Consolidation as a reviewer broke it (review 4): a held open handoff item offered to the model and
closed by it, a decision line copied by hand and reworded hidden with the text the model saw, and a
decision the team went back to that could never replace the one that had replaced it."""

import json
import os
import sys
import time
from pathlib import Path

import pytest

from lazy_harness.memory import held, marks, store
from lazy_harness.recall.readback import digest as recall
from lazy_harness.worker import consolidate as job
from tests.cli.lhrun import invoke
from tests.support import fake_claude

NOW = time.time()


def _cfg() -> dict:
    from lazy_harness import config

    return config.defaults()


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path, Path]:
    from lazy_harness import paths

    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer={})
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".git").mkdir()
    mdir = Path(paths.memory_dir(str(proj)))
    ldir = Path(paths.learnings_dir())
    ldir.mkdir(parents=True, exist_ok=True)
    return bin_dir, proj, mdir, ldir


def _meta(proj: Path, mdir: Path, sid: str = "s0") -> dict:
    return {"project": "proj", "session_id": sid, "task_id": f"t-{sid}", "cwd": str(proj),
            "project_folder": mdir.name}


def _persist(answer: dict, proj: Path, mdir: Path, ldir: Path, sid: str, when: float) -> None:
    store.persist(answer, str(mdir), str(ldir), _meta(proj, mdir, sid), when)


def _session_start(proj: Path) -> str:
    ctx, _ = recall.build_context(str(proj), _cfg(), os.environ, time.time(), "startup")
    return ctx or ""


# --- a held open handoff item ----------------------------------------------------------------------

def _two_items(world: tuple) -> tuple[str, str]:
    bin_dir, proj, mdir, ldir = world
    _persist({"decisions": [{"summary": "Use vLLM"}, {"summary": "Use llama.cpp"}],
              "handoff": ["finish the parser", "write docs"]}, proj, mdir, ldir, "s0", NOW - 3600)
    items = {e.text: e.id for e in job.candidates(str(mdir), str(ldir), "proj").handoff}
    return items["finish the parser"], items["write docs"]


def test_a_held_handoff_item_is_not_shown_to_the_model_nor_closed_by_it(world):
    bin_dir, proj, mdir, ldir = world
    hid, other = _two_items(world)
    assert held.hold(str(mdir), str(ldir), [("handoff", hid, "", "looks like an instruction")], "proj",
                     NOW - 1800, "test")
    fake_claude.control(bin_dir, mode="ok", answer={"close_handoff": [{"id": hid, "reason": "done"}]})
    r = invoke("memory", "consolidate", "--project", str(proj))
    assert r.code == 0, r.err
    prompt = fake_claude.calls(bin_dir)[0]["stdin"]
    assert "finish the parser" not in prompt and "write docs" in prompt
    assert hid in r.err  # the close is refused with a problem line naming it
    assert hid in invoke("memory", "held", "--project", str(proj)).out


def test_a_handoff_item_held_during_the_model_call_is_not_closed(world):
    bin_dir, proj, mdir, ldir = world
    hid, other = _two_items(world)
    real = bin_dir / "claude-real"
    os.rename(bin_dir / "claude", real)
    (bin_dir / "side.py").write_text(
        "import time\nfrom lazy_harness.memory import held\n"
        f"held.hold({str(mdir)!r}, {str(ldir)!r}, [('handoff', {hid!r}, '', 'an instruction')], 'proj', "
        "time.time(), 'test')\n")
    (bin_dir / "claude").write_text(f'#!/bin/sh\nif [ "$1" != "--version" ]; then "{sys.executable}" '
                                    f'"{bin_dir}/side.py" || exit 7; fi\nexec "{real}" "$@"\n')
    (bin_dir / "claude").chmod(0o755)
    fake_claude.control(bin_dir, mode="ok", answer={"close_handoff": [{"id": hid, "reason": "done"},
                                                                      {"id": other, "reason": "done"}]})
    res = job.run(str(mdir), str(ldir), "proj", _cfg(), os.environ, NOW)
    assert res.status == "changed", res
    assert hid in invoke("memory", "held", "--project", str(proj)).out
    still_open = {e.id for e in job.candidates(str(mdir), str(ldir), "proj").handoff}
    assert other not in still_open
    journal = json.loads((mdir / "journal" / f"{res.run}.json").read_text())
    assert any(hid in line and "not applied" in line for line in journal["changes"]), journal["changes"]
    from lazy_harness.memory import handoff

    state, _ = handoff.load(str(mdir))
    assert state[hid].is_open


# --- one decision id, two texts ----------------------------------------------------------------------

def test_a_decision_copied_by_hand_and_reworded_is_left_out_and_not_hidden(world):
    bin_dir, proj, mdir, ldir = world
    _persist({"decisions": [{"summary": "Use vLLM for serving"}, {"summary": "Use llama.cpp for serving"}]},
             proj, mdir, ldir, "s0", NOW - 3600)
    lines = (mdir / "decisions.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    copy = dict(first, summary="Keep the vLLM admin dashboard on port 9000 for ops")
    (mdir / "decisions.jsonl").write_text("\n".join([*lines, json.dumps(copy)]) + "\n")
    assert "port 9000" in _session_start(proj)
    offered = [e.id for e in job.candidates(str(mdir), str(ldir), "proj").decisions]
    assert first["id"] not in offered
    other = [d for d in offered if d != first["id"]][0]
    fake_claude.control(bin_dir, mode="ok", answer={"supersede": [{"old": first["id"], "new": other,
                                                                   "reason": "switched"}]})
    r = invoke("memory", "consolidate", "--project", str(proj))
    prompt = fake_claude.calls(bin_dir)[0]["stdin"] if fake_claude.calls(bin_dir) else ""
    assert "Use vLLM for serving" not in prompt and "port 9000" not in prompt
    assert f"decision {first['id']} left out" in r.err, r.err
    assert first["id"] not in marks.hidden(str(mdir))
    ctx = _session_start(proj)
    # not hidden: the id's last line stands for it at the start, as in every reader (ADR 0059)
    assert "port 9000" in ctx and "Use vLLM for serving" not in ctx


def test_an_exact_copy_of_a_decision_line_is_still_offered_once(world):
    bin_dir, proj, mdir, ldir = world
    _persist({"decisions": [{"summary": "Use vLLM for serving"}, {"summary": "Use llama.cpp for serving"}]},
             proj, mdir, ldir, "s0", NOW - 3600)
    lines = (mdir / "decisions.jsonl").read_text().splitlines()
    (mdir / "decisions.jsonl").write_text("\n".join([*lines, lines[0]]) + "\n")
    c = job.candidates(str(mdir), str(ldir), "proj")
    assert len(c.decisions) == 2 and not c.left_out


# --- a decision the team went back to -----------------------------------------------------------------

def test_a_decision_made_again_can_supersede_the_one_that_replaced_it(world):
    bin_dir, proj, mdir, ldir = world
    _persist({"decisions": [{"summary": "Serve with vLLM"}]}, proj, mdir, ldir, "s1", NOW - 7200)
    _persist({"decisions": [{"summary": "Serve with llama.cpp instead of vLLM"}]}, proj, mdir, ldir, "s2",
             NOW - 6000)
    a, b = [e.id for e in job.candidates(str(mdir), str(ldir), "proj").decisions]
    fake_claude.control(bin_dir, mode="ok", answer={"supersede": [{"old": a, "new": b, "reason": "switched"}]})
    assert job.run(str(mdir), str(ldir), "proj", _cfg(), os.environ, NOW - 5000).status == "changed"
    _persist({"decisions": [{"summary": "Serve with vLLM"}]}, proj, mdir, ldir, "s3", NOW - 3000)  # a restore
    assert a not in marks.hidden(str(mdir))
    assert [e.id for e in job.candidates(str(mdir), str(ldir), "proj").decisions] == [b, a]  # a is the newer
    fake_claude.control(bin_dir, mode="ok", answer={"supersede": [{"old": b, "new": a, "reason": "back to vLLM"}]})
    res = job.run(str(mdir), str(ldir), "proj", _cfg(), os.environ, NOW)
    assert res.status == "changed", res
    assert marks.hidden(str(mdir)).get(b, {}).get("by") == a
    prompt = fake_claude.calls(bin_dir)[-1]["stdin"]
    assert prompt.index("Serve with llama.cpp") < prompt.index("Serve with vLLM")
    ctx = _session_start(proj)
    assert "Serve with vLLM" in ctx and "llama.cpp instead of vLLM" not in ctx


def test_the_decision_replaced_before_the_restore_cannot_replace_it_again(world):
    bin_dir, proj, mdir, ldir = world
    _persist({"decisions": [{"summary": "Serve with vLLM"}]}, proj, mdir, ldir, "s1", NOW - 7200)
    _persist({"decisions": [{"summary": "Serve with llama.cpp instead of vLLM"}]}, proj, mdir, ldir, "s2",
             NOW - 6000)
    a, b = [e.id for e in job.candidates(str(mdir), str(ldir), "proj").decisions]
    fake_claude.control(bin_dir, mode="ok", answer={"supersede": [{"old": a, "new": b, "reason": "switched"}]})
    job.run(str(mdir), str(ldir), "proj", _cfg(), os.environ, NOW - 5000)
    _persist({"decisions": [{"summary": "Serve with vLLM"}]}, proj, mdir, ldir, "s3", NOW - 3000)
    res = job.run(str(mdir), str(ldir), "proj", _cfg(), os.environ, NOW)  # the same answer again
    assert res.status == "unchanged"
    assert any(a in p and "ignored" in p for p in res.problems), res.problems
    assert a not in marks.hidden(str(mdir))
