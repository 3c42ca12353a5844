"""What consolidation and `lh memory forget/close` mark is left out of every reader, and comes back on undo."""

import json
import os
import time
from pathlib import Path

from lazy_harness import config, paths
from lazy_harness.memory import handoff, handoff_answer, ids
from lazy_harness.recall.readback import digest as recall
from lazy_harness.worker import consolidate as job
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import run_hook
from tests.support import fake_claude
from tests.worker.test_consolidate import _learning, _write_entries


def _project(tmp_path) -> tuple[Path, Path, Path]:
    proj = tmp_path / "shop"
    (proj / ".git").mkdir(parents=True)
    # why: the learnings below are written as before project folders were recorded (scope project,
    # origin_session s1); their session's transcript in this project's Claude Code folder proves
    # they are this project's (provenance.legacy_owner, ADR 0024)
    sessions = Path(paths.projects_dir()) / paths.project_key(str(proj))
    sessions.mkdir(parents=True)
    (sessions / "s1.jsonl").write_text("")
    return proj, Path(paths.memory_dir(str(proj))), Path(paths.learnings_dir())


def _context(proj: Path) -> str:
    text, _ = recall.build_context(str(proj), config.defaults(), os.environ, time.time(), "startup")
    return text or ""


def _prompt_context(proj: Path, prompt: str, sid: str) -> str:
    done = run_hook("UserPromptSubmit", {"session_id": sid, "cwd": str(proj), "prompt": prompt,
                                         "hook_event_name": "UserPromptSubmit", "transcript_path": "/x"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout.strip() else ""


def test_marked_entries_are_left_out_of_read_back_recall_and_search_and_return_on_undo(tmp_path, monkeypatch):
    proj, mdir, ldir = _project(tmp_path)
    old, new = _write_entries(mdir, "decision", ["Serve the model with vLLM on the GPU box",
                                                 "Serve the model with llama.cpp on the CPU box instead of vLLM"])
    keep, drop = _write_entries(mdir, "failure", ["Checkout webhook timed out under load",
                                                  "The checkout webhook times out when traffic spikes"])
    _, lid_old = _learning(ldir, "Quantized serving needs the q4 weights", origin="shop")
    _, lid_new = _learning(ldir, "Quantized serving works best with q5 weights", origin="shop", day="2026-11-02")
    fake_claude.use(tmp_path, monkeypatch, answer={
        "supersede": [{"old": old, "new": new, "reason": "moved to CPU serving"}],
        "merge_failures": [{"keep": keep, "drop": drop, "reason": "same incident"}],
        "deprecate_learnings": [{"id": lid_old, "by": lid_new, "reason": "q5 replaced q4"}]})
    before = _context(proj)
    assert "GPU box" in before and "traffic spikes" in before
    result = job.run(str(mdir), str(ldir), "shop", config.defaults(), os.environ, time.time())
    assert result.status == "changed" and len(result.changes) == 3

    after = _context(proj)
    assert "GPU box" not in after and "llama.cpp" in after
    assert "traffic spikes" not in after and "Checkout webhook timed out" in after
    found = invoke("memory", "search", "serving", "vllm", "gpu", "webhook", "traffic", "quantized", "weights",
                   "--project", str(proj)).out
    assert old not in found and drop not in found and lid_old not in found and new in found
    marked = invoke("memory", "search", "serving", "vllm", "gpu", "webhook", "traffic", "quantized", "weights",
                    "--project", str(proj), "--all").out
    assert f"[superseded by {new}]" in marked and f"[merged into {keep}]" in marked
    assert f"[deprecated for {lid_new}]" in marked
    prompt = _prompt_context(proj, "should we serve the model with vLLM on the GPU box again?", "s-1")
    assert old not in prompt

    assert invoke("memory", "undo", "--project", str(proj)).code == 0
    assert "GPU box" in _context(proj) and "traffic spikes" in _context(proj)
    again = invoke("memory", "search", "serving", "vllm", "gpu", "webhook", "traffic", "quantized", "weights",
                   "--project", str(proj)).out
    assert old in again and drop in again and lid_old in again


def test_consolidation_and_lh_memory_close_close_handoff_items_undoably(tmp_path, monkeypatch):
    proj, mdir, ldir = _project(tmp_path)
    mdir.mkdir(parents=True)
    handoff_answer.apply_answer(str(mdir), ["Migrate the payments table", "Write the refunds runbook",
                                     "Add retries to the webhook client"], [],
                         {"session_id": "s1", "task_id": "t1"}, time.time() - 3600, time.time())
    _write_entries(mdir, "decision", ["Payments table migrated to the new schema"])
    first = ids.handoff_id("Migrate the payments table")
    fake_claude.use(tmp_path, monkeypatch, answer={"close_handoff": [{"id": first, "reason": "done per d-"}]})
    result = job.run(str(mdir), str(ldir), "shop", config.defaults(), os.environ, time.time())
    assert result.status == "changed", result.problems
    open_now = [i["text"] for i in handoff.open_items(handoff.load(str(mdir))[0])]
    assert open_now == ["Write the refunds runbook", "Add retries to the webhook client"]
    assert "Migrate the payments table" not in (mdir / "handoff.md").read_text()

    r = invoke("memory", "close", "Write the refunds runbook", "--project", str(proj))
    assert r.code == 0, r.err
    assert [i["text"] for i in handoff.open_items(handoff.load(str(mdir))[0])] == ["Add retries to the webhook client"]
    history = invoke("memory", "show", "--history", "--project", str(proj)).out
    assert "by hand (lh memory close)" in history and "by consolidation: done per d-" in history

    assert invoke("memory", "undo", "--project", str(proj)).code == 0  # the close by hand
    assert invoke("memory", "undo", "--project", str(proj)).code == 0  # the consolidation
    assert sorted(i["text"] for i in handoff.open_items(handoff.load(str(mdir))[0])) == sorted(
        ["Migrate the payments table", "Write the refunds runbook", "Add retries to the webhook client"])
    assert "Migrate the payments table" in (mdir / "handoff.md").read_text()
    r = invoke("memory", "close", "no such item at all", "--project", str(proj))
    assert r.code == 1 and "no open handoff item" in r.err


def test_session_start_remembers_the_live_entries_it_showed_not_the_marked_ones(tmp_path):
    from lazy_harness.recall.prompt import already_shown

    proj, mdir, _ = _project(tmp_path)
    d = _write_entries(mdir, "decision", [f"decision number {n} about the queue" for n in range(12)])
    (mdir / "marks.jsonl").write_text(json.dumps({"op": "forget", "id": d[-1], "reason": "by hand"}) + "\n")
    done = run_hook("SessionStart", {"session_id": "s-live", "cwd": str(proj), "source": "startup",
                                     "transcript_path": "/x"})
    assert done.returncode == 0, done.stderr
    text = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "decision number 11" not in text and "decision number 10" in text
    remembered = already_shown.read(os.environ, "s-live")
    assert d[-1] not in remembered
    assert {i for i in d[:-1] if f"decision number {d.index(i)} about" in text} <= remembered
    assert d[10] in remembered
