"""``lh memory show --agent codex``: what a Codex CLI session gets, fitted as its hooks fit it (the
SessionStart digest within 6,000 bytes of UTF-8, prompt recall within 2,000 characters); the first
lines say whose view it is."""

import json
import os
import subprocess
import sys
import time

from lazy_harness import paths
from lazy_harness.memory import files
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import hook_log
from tests.recall.test_show_prompt_session_whyfx import OTHERS, PROMPTS
from tests.support import memory_samples as ms

NOW = time.time()
SID = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"


def _codex_hook(event: str, payload: dict) -> str | None:
    """The additionalContext a Codex CLI hook prints (run as Codex runs it: ``--agent codex``)."""
    r = subprocess.run([sys.executable, "-m", "lazy_harness.hooks", event, "--agent", "codex"],
                       input=json.dumps({"session_id": SID, "transcript_path": "", "hook_event_name": event,
                                         **payload}).encode(), capture_output=True, env=dict(os.environ), timeout=20)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else None


def _japanese_memory(tmp_path) -> str:
    """A memory whose digest is near 6,000 characters and three times as many bytes."""
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    item = "請求キューのバキュームジョブの実行時刻を確認して夜間に移す"
    ms.write_handoff(mem, [f"未完了の項目 {i}: {item}" for i in range(30)], "sess-ja", NOW - ms.DAY)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - (40 - i) * ms.DAY, f"決定 {i:02d}: 請求データベースのバキュームは毎晩三時に実行する",
                    "昼間の実行でキューが止まり、請求処理が遅れたため") for i in range(30)])
    return root


def test_show_context_for_codex_is_what_the_codex_session_start_hook_prints(tmp_path):
    root = _japanese_memory(tmp_path)
    claude = invoke("memory", "show", "--project", root, "--section", "context")
    codex = invoke("memory", "show", "--project", root, "--section", "context", "--agent", "codex")
    assert claude.code == 0 and codex.code == 0, claude.err + codex.err
    hook = _codex_hook("SessionStart", {"cwd": root, "source": "startup"})
    assert hook is not None and len(hook.encode()) <= 6000, hook_log(paths.claude_dir())[-1:]
    first, text = codex.out.split("\n", 1)
    assert "Codex CLI" in first and "6000 bytes" in first, first
    assert text == hook + "\n"
    assert len(claude.out) > len(text)  # Claude Code's view holds more
    assert "Claude Code" not in claude.err, claude.err  # Codex's hooks are not installed: no word on it


def test_show_context_names_whose_view_it_is_where_codex_is_installed_too(tmp_path, monkeypatch):
    from lazy_harness.cli import memory_show

    root = _japanese_memory(tmp_path)
    monkeypatch.setattr(memory_show, "_codex_installed", lambda: True)
    claude = invoke("memory", "show", "--project", root, "--section", "context")
    assert claude.code == 0, claude.err
    assert "Claude Code" in claude.err.splitlines()[0] and "--agent codex" in claude.err, claude.err
    assert not claude.out.startswith("(what the next")  # stdout is the hook's text alone


def test_show_prompt_for_codex_cuts_recall_to_2000_as_the_prompt_hook_does(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS), [
        ms.decision(NOW - (i + 1) * ms.DAY, f"Deploy scheduler rule {i}: hold the postgres lock while deploying",
                    "the deploy scheduler ran twice when " + "the postgres lock was let go early, " * 6)
        for i in range(8)] + [ms.decision(NOW - 20 * ms.DAY, f"The {what} keeps its settings in one file", "simple")
                              for what in OTHERS])
    os.makedirs(os.path.dirname(paths.config_file()), exist_ok=True)
    with open(paths.config_file(), "w", encoding="utf-8") as fh:
        fh.write("[context]\ndecisions = 1\n[recall]\nsemantic = false\nmax_items = 10\nmax_chars = 4000\n"
                 "min_score = 0.5\nresident_minutes = 0\n")
    ms.index_now()
    claude = invoke("memory", "show", "--project", root, "--prompt", PROMPTS[0])
    out = invoke("memory", "show", "--project", root, "--prompt", PROMPTS[0], "--agent", "codex")
    assert out.code == 0 and claude.code == 0, out.err + claude.err
    assert _codex_hook("SessionStart", {"cwd": root, "source": "startup"})  # a new session's first prompt follows
    hook = _codex_hook("UserPromptSubmit", {"cwd": root, "prompt": PROMPTS[0]})
    assert hook is not None
    cut = "(codex: recall.max_chars 4000 cut to 2000, within 6000 bytes)"
    assert cut in hook_log(paths.claude_dir())[-1]
    lines = out.out.splitlines()
    assert lines[0].startswith("(Codex CLI: what a new session's first prompt gets"), lines[0]
    assert claude.out.startswith("(Claude Code: what a new session's first prompt gets"), claude.out
    assert lines[1] == cut, out.out
    assert out.out.split("\n", 2)[2].split("\n\n==== why", 1)[0] == hook
    assert len(claude.out.split("\n", 1)[1].split("\n\n==== why", 1)[0]) > 2000  # Claude Code's 4,000 room


def test_show_agent_codex_with_a_claude_session_is_refused(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    sid = "5f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f47"
    transcripts = os.path.join(paths.projects_dir(), "-proj")
    os.makedirs(transcripts)
    with open(os.path.join(transcripts, sid + ".jsonl"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "user", "sessionId": sid}) + "\n")
    out = invoke("memory", "show", "--project", root, "--prompt", PROMPTS[0], "--session", sid, "--agent", "codex")
    assert out.code == 2 and "Claude Code session" in out.err, (out.out, out.err)
