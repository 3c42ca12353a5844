"""Under Codex CLI the read-back and prompt recall are measured in UTF-8 bytes: above about 2,500 tokens
Codex replaces a hook's text by a head/tail preview and a file path, and a Japanese character is three
bytes (about one token) where an English one is one byte (a quarter of a token). The hooks run as Codex
runs them: a subprocess with ``--agent codex`` after the event and the payload on stdin."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, ids
from tests.hooks.hookrun import hook_log
from tests.hooks.test_codex_hooks import SID, run_codex_hook
from tests.support import memory_samples as ms

NOW = time.time()
CAP = 6000  # bytes of UTF-8 Codex gets whole from one hook (docs/how/codex.md)
# a decision and its rationale in Japanese, each about 60 characters (180 bytes)
JA_SUMMARY = "請求キューはPostgresに置き、夜間のバキュームジョブで古い行を整理する（{i}番目の決定）"
JA_WHY = "運用チームが既にバックアップしているので、別のストアを増やさずに済む。監視も今のままでよい。"
PROMPT = "where should the billing queue live, postgres or redis, for the nightly jobs"


@pytest.fixture
def project(tmp_path, isolated_home):
    return ms.make_project(tmp_path, "api")


def write_config(text: str) -> None:
    cfg = paths.config_file()
    os.makedirs(os.path.dirname(cfg), exist_ok=True)
    with open(cfg, "w") as fh:
        fh.write(text)


def japanese_memory(project: str, n: int = 40, others: int = 0, why: str = JA_WHY) -> list[str]:
    """``n`` decisions written in Japanese (with the English words a prompt would match) and ``others``
    about something else (words every entry holds weigh nothing in a search); the first ``n`` summaries."""
    summaries = [f"billing queue postgres nightly {i}: " + JA_SUMMARY.format(i=i) for i in range(n)]
    unrelated = [f"stylesheet choice {i}: keep the colours in one file" for i in range(others)]
    ms.write_jsonl(os.path.join(paths.memory_dir(project), files.DECISIONS),
                   [ms.decision(NOW - 900 + i, s, why, via="session", session_id=f"s{i:07d}-aaaa")
                    for i, s in enumerate(unrelated + summaries)])
    return summaries


def english_memory(project: str, n: int = 40) -> None:
    ms.write_jsonl(os.path.join(paths.memory_dir(project), files.DECISIONS),
                   [ms.decision(NOW - 900 + i, f"decision {i} about the billing queue " + "words " * 30,
                                "because " * 20, via="session", session_id=f"s{i:07d}-aaaa") for i in range(n)])


def start(project: str, agent_args=("--agent", "codex")) -> str:
    payload = {"session_id": SID, "transcript_path": "", "cwd": project, "hook_event_name": "SessionStart",
               "model": "gpt-5.1-codex", "permission_mode": "default", "source": "startup"}
    r = run_codex_hook("SessionStart", payload, agent_args)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]


def prompt(project: str, agent_args=("--agent", "codex"), sid: str = SID) -> str:
    payload = {"session_id": sid, "transcript_path": "", "cwd": project, "hook_event_name": "UserPromptSubmit",
               "model": "gpt-5.1-codex", "permission_mode": "default", "turn_id": "t-1", "prompt": PROMPT}
    r = run_codex_hook("UserPromptSubmit", payload, agent_args)
    assert r.returncode == 0 and r.stdout, r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]


def whole_entries(text: str, summaries: list[str]) -> list[str]:
    """The summaries whose entry the text names by id; each must be there whole (not cut mid-entry)."""
    named = [s for s in summaries if ids.entry_id("decision", s) in text]
    for s in named:
        assert s in text, f"entry cut: {s}"
    return named


def test_session_start_under_codex_keeps_a_japanese_memory_within_6000_bytes_of_whole_entries(project):
    summaries = japanese_memory(project)
    write_config("[context]\ndecisions = 40\n")  # max_chars stays at its default, 6,000
    codex = start(project)
    claude = start(project, agent_args=())
    assert len(codex.encode("utf-8")) <= CAP < len(claude.encode("utf-8"))
    shown = whole_entries(codex, summaries)
    assert len(shown) >= 8  # still most of what fits, newest first
    assert summaries[-1] in shown
    footer = codex.split("\n")[-1]
    assert footer.startswith("Left out for space:")
    # the person's setting is 6,000: the footer does not name the smaller room the re-render had
    assert "context.max_chars is" not in footer and "Codex CLI" in footer, footer
    line = next(ln for ln in reversed(hook_log(paths.claude_dir())) if "agent=codex" in ln and "SessionStart" in ln)
    assert f"{CAP} bytes" in line  # the cap is named in hooks.log


def test_session_start_under_codex_gives_an_english_memory_the_same_text_as_claude_code(project):
    english_memory(project)
    write_config("[context]\ndecisions = 40\n")
    codex = start(project)
    assert len(codex) > 5000  # the budget was used, and English text of 6,000 characters fits in 6,000 bytes
    assert codex == start(project, agent_args=())


def test_prompt_recall_under_codex_keeps_a_japanese_memory_within_6000_bytes_of_whole_entries(project):
    summaries = japanese_memory(project, n=16, others=60, why=JA_WHY * 3)
    write_config("[recall]\nmax_chars = 4000\nmax_items = 16\nsemantic = false\nresident_minutes = 0\n")
    ms.index_now()
    codex = prompt(project)
    claude = prompt(project, agent_args=(), sid="0199aaaa-0000-7000-8000-000000000002")
    assert len(codex.encode("utf-8")) <= CAP < len(claude.encode("utf-8"))
    assert len(whole_entries(codex, summaries)) >= 3
    line = next(ln for ln in reversed(hook_log(paths.claude_dir())) if "agent=codex" in ln and "UserPromptSubmit" in ln)
    assert f"{CAP} bytes" in line


def test_prompt_recall_under_codex_is_unchanged_at_the_default_budget(project):
    summaries = japanese_memory(project, n=16, others=60, why=JA_WHY * 3)
    write_config("[recall]\nmax_items = 16\nsemantic = false\nresident_minutes = 0\n")  # max_chars 1,500
    ms.index_now()
    codex = prompt(project)
    assert codex == prompt(project, agent_args=(), sid="0199aaaa-0000-7000-8000-000000000002")
    assert whole_entries(codex, summaries)





