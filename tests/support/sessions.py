"""Place a recorded transcript where Claude Code would have written it, for a project in tmp_path."""

import json
import os
from pathlib import Path

from lazy_harness import paths

TRANSCRIPTS = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"
ROLLOUTS = Path(__file__).resolve().parent.parent / "fixtures" / "codex"
PLACEHOLDER = "/home/user/project"


def fixture_session_id(name: str) -> str:
    for line in (TRANSCRIPTS / name).read_text(encoding="utf-8").splitlines():
        try:
            sid = json.loads(line).get("sessionId")
        except ValueError:
            continue
        if sid:
            return sid
    raise AssertionError(f"{name}: no sessionId")


def place(project: Path, name: str = "interactive.jsonl", session_id: str | None = None) -> dict:
    """Copy fixture ``name`` into ``<projects>/<key of project>/<session id>.jsonl`` with its paths
    pointed at ``project``; returns a hook payload for it."""
    text = (TRANSCRIPTS / name).read_text(encoding="utf-8")
    original = fixture_session_id(name)
    sid = session_id or original
    text = text.replace(PLACEHOLDER, str(project)).replace(original, sid)
    folder = Path(paths.projects_dir()) / paths.project_key(str(project))
    folder.mkdir(parents=True, exist_ok=True)
    transcript = folder / f"{sid}.jsonl"
    transcript.write_text(text, encoding="utf-8")
    return {"session_id": sid, "transcript_path": str(transcript), "cwd": str(project),
            "hook_event_name": "SessionEnd", "reason": "prompt_input_exit"}


def wait_finished(queue_dir: str, timeout: float = 30.0, count: int = 1) -> list[str]:
    """Wait until ``count`` tasks sit in done/ or failed/ and nothing is pending or processing."""
    import time

    deadline = time.monotonic() + timeout
    finished: list[str] = []
    while time.monotonic() < deadline:
        finished = []
        for which in ("done", "failed"):
            folder = os.path.join(queue_dir, which)
            if os.path.isdir(folder):
                finished += [os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".task")]
        busy = [n for n in os.listdir(queue_dir) if n.endswith(".task")] if os.path.isdir(queue_dir) else []
        proc = os.path.join(queue_dir, "processing")
        busy += os.listdir(proc) if os.path.isdir(proc) else []
        if len(finished) >= count and not busy:
            return sorted(finished)
        time.sleep(0.01)  # a poll of a few folders: cheap
    raise AssertionError(f"only {len(finished)} of {count} tasks finished in {timeout} s: {finished}")


def place_rollout(project: Path, name: str = "interactive.jsonl", day: str = "2026/11/28",
                  codex_home: Path | None = None) -> tuple[str, str]:
    """The recorded Codex rollout ``name`` where Codex keeps it (``<codex home>/sessions/<day>/``), its
    paths pointed at ``project``: (session id, path)."""
    text = (ROLLOUTS / name).read_text(encoding="utf-8").replace(PLACEHOLDER, str(project))
    sid = json.loads(text.splitlines()[0])["payload"]["id"]
    folder = Path(codex_home or paths.codex_home()) / "sessions" / day
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-2026-11-28T23-58-47-{sid}.jsonl"
    path.write_text(text, encoding="utf-8")
    return sid, str(path)
