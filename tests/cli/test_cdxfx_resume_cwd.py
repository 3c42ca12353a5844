"""A Codex session resumed from another folder (``codex exec resume <id>`` run there, or the TUI's
resume with "Use current directory") works in that folder from then on: Codex gives the hooks that
cwd, and writes it in the resumed turn's ``turn_context`` (the ``session_meta`` keeps the folder it
started in). ``lh knowledge handoff-now`` takes the session's project from the last ``turn_context``,
as the hooks' tasks do."""

import json
import os

from lazy_harness import paths, queue
from lazy_harness.cli import sessions
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop, worker_lock_held
from tests.support.sessions import PLACEHOLDER, ROLLOUTS


def place_resumed(started_in, resumed_in):
    """The recorded resumed.jsonl (a TUI session, then ``codex resume``), started in ``started_in`` and
    its resumed turn run in ``resumed_in``: the real CLI writes that folder in the resumed turn's
    ``turn_context`` (seen with ``codex exec resume`` from another folder, codex-cli 0.171.0)."""
    lines = (ROLLOUTS / "resumed.jsonl").read_text(encoding="utf-8").replace(PLACEHOLDER, str(started_in)).splitlines()
    last = max(n for n, line in enumerate(lines) if json.loads(line)["type"] == "turn_context")
    record = json.loads(lines[last])
    record["payload"]["cwd"] = str(resumed_in)
    lines[last] = json.dumps(record, separators=(",", ":"))
    sid = json.loads(lines[0])["payload"]["id"]
    folder = os.path.join(paths.codex_home(), "sessions", "2026", "11", "28")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"rollout-2026-11-28T23-58-47-{sid}.jsonl")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return sid, path


def folders(tmp_path):
    a, b = tmp_path / "projA", tmp_path / "projB"
    a.mkdir()
    b.mkdir()
    return a, b


def test_handoff_now_in_the_resume_folder_takes_the_session_there(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    a, b = folders(tmp_path)
    sid, rollout = place_resumed(a, b)
    monkeypatch.chdir(b)
    with worker_lock_held(paths.claude_dir()) as q:
        r = invoke("knowledge", "handoff-now")
        assert r.code == 0, r.err
        [name] = queue.pending(q)
        task = queue.read_task(os.path.join(q, name))
    assert (task["session_id"], task["session_jsonl"], task["agent"]) == (sid, rollout, "codex")
    assert task["cwd"] == str(b) and task["memory_dir"] == paths.memory_dir(str(b))


def test_handoff_now_in_the_start_folder_leaves_a_session_resumed_elsewhere(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    a, b = folders(tmp_path)
    place_resumed(a, b)
    monkeypatch.chdir(a)
    r = invoke("knowledge", "handoff-now")
    assert r.code == 1 and "no interactive Claude Code session found" in r.err, r.out + r.err


def test_a_rollout_without_turn_context_keeps_its_session_meta_folder(isolated_home, tmp_path):
    a, b = folders(tmp_path)
    _, rollout = place_resumed(a, b)
    assert sessions.session_cwd(rollout) == str(b)
    with open(rollout, encoding="utf-8") as fh:
        kept = [line for line in fh if json.loads(line)["type"] != "turn_context"]
    with open(rollout, "w", encoding="utf-8") as fh:
        fh.writelines(kept)
    assert sessions.session_cwd(rollout) == str(a)


def test_the_last_turn_context_is_found_across_read_blocks(isolated_home, tmp_path):
    a, b = folders(tmp_path)
    _, rollout = place_resumed(a, b)
    assert sessions.last_turn_cwd(rollout, block=7) == str(b)  # lines split across many small reads
    assert sessions.last_turn_cwd(rollout, limit=10) is None  # not within the last 10 bytes: the caller falls back


def test_lh_distill_files_a_resumed_rollout_where_handoff_now_does(isolated_home, tmp_path, monkeypatch):
    """``lh distill <rollout>`` without --project takes the folder the hooks and handoff-now take."""
    from tests.support import fake_codex

    enable_loop(isolated_home, retry_backoff_seconds=0, min_user_chars=10)
    fake_codex.use(tmp_path, monkeypatch)  # no claude on PATH: auto picks codex
    a, b = folders(tmp_path)
    _, rollout = place_resumed(a, b)
    seen = []
    from lazy_harness.worker import pipeline

    def distill(fields, *args, **kwargs):
        seen.append(fields["cwd"])
        raise SystemExit(0)  # why: only the folder chosen is looked at here

    monkeypatch.setattr(pipeline, "distill", distill)
    r = invoke("distill", rollout)
    assert seen == [str(b)], (r.code, r.err)
