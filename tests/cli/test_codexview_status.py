"""``lh status``'s watched list (sessions the idle sweep watches, not queued yet) marks a Codex CLI
session ``(Codex)``, as the list of queued sessions does: its hook noted the agent for the sweep."""

import json
import os
import subprocess
import sys

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.cli.test_status import SIDS
from tests.hooks.hookrun import enable_loop
from tests.support import memory_samples as ms


def _session_start(sid: str, transcript: str, cwd: str, *agent: str) -> None:
    r = subprocess.run([sys.executable, "-m", "lazy_harness.hooks", "SessionStart", *agent],
                       input=json.dumps({"session_id": sid, "transcript_path": transcript, "cwd": cwd,
                                         "hook_event_name": "SessionStart", "source": "startup"}).encode(),
                       capture_output=True, env=dict(os.environ), timeout=20)
    assert r.returncode == 0, r.stderr


def test_a_watched_codex_session_is_marked_codex(tmp_path, monkeypatch):
    here = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(here)
    enable_loop(os.environ["HOME"])
    folder = os.path.join(paths.codex_home(), "sessions", "2026", "11", "28")
    os.makedirs(folder)
    rollout = os.path.join(folder, f"rollout-2026-11-28T23-10-00-{SIDS[0]}.jsonl")
    with open(rollout, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "session_meta", "payload": {"id": SIDS[0], "originator": "codex-tui",
                                                                  "source": "cli", "cwd": here}}) + "\n")
    transcript = tmp_path / f"{SIDS[1]}.jsonl"
    transcript.write_text("{}\n")
    _session_start(SIDS[0], rollout, here, "--agent", "codex")
    _session_start(SIDS[1], str(transcript), here)
    r = invoke("status")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    start = next(i for i, s in enumerate(lines) if s.startswith("watched (the idle sweep"))
    watched = {line.split()[2]: line for line in lines[start + 1:start + 3]}
    assert watched[SIDS[0][:8]].split()[3] == "(Codex)", watched
    assert "(Codex)" not in watched[SIDS[1][:8]], watched
