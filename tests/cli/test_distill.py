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
    assert paths.memory_dir(str(project)) in result.err  # the session's cwd names the project
    assert fake_claude.calls(bin_dir) == []
    assert not os.path.exists(paths.memory_dir(str(project)))


def test_distill_writes_the_sessions_memory(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home, retry_backoff_seconds=0)
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
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
