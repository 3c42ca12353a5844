import json
import os

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop
from tests.support import fake_claude
from tests.support.sessions import place


def test_dry_run_prints_the_prompt_and_calls_nothing(isolated_home, tmp_path, monkeypatch):
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    project = tmp_path / "proj"
    project.mkdir()
    payload = place(project)
    result = invoke("distill", payload["transcript_path"], "--dry-run")
    assert result.code == 0, result.err
    assert "untrusted session data" in result.out  # the fenced conversation
    assert "echo hi" in result.out  # a tool call of the recorded session
    assert "# prompt:" in result.err and "decisions.jsonl" in result.err
    # a decision of the answer may replace one listed (ADR 0060): where that mark would go is said too
    assert os.path.join(paths.memory_dir(str(project)), "marks.jsonl") in result.err
    assert paths.memory_dir(str(project)) in result.err  # the session's cwd names the project
    assert fake_claude.calls(bin_dir) == []
    assert not os.path.exists(paths.memory_dir(str(project)))


def test_distill_writes_the_sessions_memory(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home, retry_backoff_seconds=0)
    fake_claude.use(tmp_path, monkeypatch)
    project = tmp_path / "proj"
    project.mkdir()
    payload = place(project)
    result = invoke("distill", payload["transcript_path"])
    assert result.code == 0, result.err
    assert result.out.startswith("processed: distilled")
    decisions = os.path.join(paths.memory_dir(str(project)), "decisions.jsonl")
    [line] = open(decisions).read().splitlines()
    assert json.loads(line)["summary"] == fake_claude.DEFAULT_ANSWER["decisions"][0]["summary"]


def test_distill_of_a_missing_file_is_one_line(isolated_home, tmp_path):
    result = invoke("distill", str(tmp_path / "nope.jsonl"))
    assert result.code == 1
    assert result.err.strip() == f"lh: {tmp_path / 'nope.jsonl'}: no such transcript"


def test_distill_stamps_items_with_the_session_time_and_reports_unknown_closes(isolated_home, tmp_path, monkeypatch):
    from lazy_harness.memory import handoff, ids

    enable_loop(isolated_home, retry_backoff_seconds=0)
    answer = {**fake_claude.DEFAULT_ANSWER, "handoff": ["open from the session"],
              "handoff_closed": ["h-00000000"]}
    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer=answer)
    project = tmp_path / "proj"
    project.mkdir()
    payload = place(project)
    session_time = 1_700_000_000.25
    os.utime(payload["transcript_path"], (session_time, session_time))
    result = invoke("distill", payload["transcript_path"])
    assert result.code == 0, result.err
    assert "  answer: handoff_closed: no open item 'h-00000000'; ignored" in result.out
    assert f"open    {os.path.join(paths.memory_dir(str(project)), 'handoff.jsonl')}  " \
           f"[{ids.handoff_id('open from the session')}] open from the session" in result.out
    [rec] = handoff.read_records(paths.memory_dir(str(project)))
    assert rec["ts"] == handoff.stamp(session_time) and rec["session_id"] == payload["session_id"]
    assert fake_claude.calls(bin_dir)
    # processed again with nothing new: no model call, nothing written twice (the restated-item
    # "keep" path of the store is covered in tests/memory/test_handoff.py)
    calls = len(fake_claude.calls(bin_dir))
    again = invoke("distill", payload["transcript_path"])
    assert again.code == 0 and "nothing new since the last distillation" in again.out
    assert len(fake_claude.calls(bin_dir)) == calls
    assert len(handoff.read_records(paths.memory_dir(str(project)))) == 1


def test_dry_run_of_a_session_already_distilled_shows_the_whole_prompt_with_whole(isolated_home, tmp_path,
                                                                                   monkeypatch):
    enable_loop(isolated_home, retry_backoff_seconds=0)
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    project = tmp_path / "proj"
    project.mkdir()
    payload = place(project)
    assert invoke("distill", payload["transcript_path"]).code == 0
    again = invoke("distill", payload["transcript_path"], "--dry-run")
    assert again.code == 0 and again.out == ""
    assert "nothing new since the last distillation" in again.err and "--whole" in again.err
    whole = invoke("distill", payload["transcript_path"], "--dry-run", "--whole")
    assert whole.code == 0, whole.err
    assert "untrusted session data" in whole.out and "echo hi" in whole.out
    assert len(fake_claude.calls(bin_dir)) == 1  # the first distillation only


def test_distill_of_a_codex_rollout_reads_it_as_one(isolated_home, tmp_path, monkeypatch):
    from pathlib import Path

    from tests.support import fake_codex

    enable_loop(isolated_home, retry_backoff_seconds=0, min_user_chars=50)
    fake = fake_codex.use(tmp_path, monkeypatch)  # no claude on PATH: auto picks codex
    project = tmp_path / "proj"
    project.mkdir()
    fixture = Path(__file__).resolve().parent.parent / "fixtures" / "codex" / "interactive.jsonl"
    rollout_file = tmp_path / "rollout.jsonl"
    rollout_file.write_text(fixture.read_text().replace("/home/user/project", str(project)))

    result = invoke("distill", str(rollout_file))

    assert result.code == 0, result.err
    [call] = fake_codex.calls(fake)
    assert "one finished Codex CLI session" in call["stdin"]
    assert "User: We decided to keep the billing queue in Postgres" in call["stdin"]
    decisions = os.path.join(paths.memory_dir(str(project)), "decisions.jsonl")  # the rollout's cwd
    [line] = open(decisions).read().splitlines()
    assert json.loads(line)["agent"] == "codex"
    assert json.loads(line)["session_id"] == json.loads(fixture.read_text().splitlines()[0])["payload"]["id"]


def test_two_runs_in_one_second_get_their_own_task_ids(isolated_home, tmp_path, monkeypatch):
    """The task id names the record of the checks a persist owes (worker/owed.py): two `lh distill`
    started in the same second once shared it, and one record was written over the other's."""
    import time

    from lazy_harness.worker import pipeline

    project = tmp_path / "proj"
    project.mkdir()
    payload = place(project)
    seen = []

    def distill(fields, *args, **kwargs):
        seen.append(fields["task_id"])
        raise SystemExit(0)

    monkeypatch.setattr(pipeline, "distill", distill)
    monkeypatch.setattr(time, "time", lambda: 1796000000.0)
    for _ in range(2):
        invoke("distill", payload["transcript_path"])
    assert len(seen) == 2 and seen[0] != seen[1], seen
