"""What the Stop and SessionEnd benchmarks share: a project with a transcript where Claude Code keeps
it, hook payloads, a queue history of finished tasks, and checks that a run took the path it was
meant to take (read from the last line of hooks.log)."""

import json
import os
import sys
import time

import harness

from lazy_harness import paths, queue


def project(env: dict, root: str, name: str) -> tuple[str, str]:
    """A project folder and its transcript folder under the HOME of ``env``."""
    proj = os.path.join(root, name)
    os.makedirs(os.path.join(proj, ".git"), exist_ok=True)
    folder = os.path.join(paths.projects_dir(env), paths.project_key(proj))
    os.makedirs(folder, exist_ok=True)
    return proj, folder


def small_transcript(folder: str, sid: str) -> str:
    path = os.path.join(folder, f"{sid}.jsonl")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "permission-mode", "permissionMode": "auto", "sessionId": sid}) + "\n")
        fh.write(json.dumps({"type": "user", "promptSource": "typed", "sessionId": sid,
                             "message": {"role": "user", "content": "Add a retry to the queue worker. " * 40}}) + "\n")
    return path


def payload(sid: str, transcript: str, cwd: str, event: str = "Stop") -> bytes:
    """The JSON Claude Code sends on stdin (fields as recorded in tests/fixtures/transcripts)."""
    data = {"session_id": sid, "transcript_path": transcript, "cwd": cwd, "hook_event_name": event,
            "permission_mode": "auto"}
    if event == "Stop":
        data.update(stop_hook_active=False, last_assistant_message="Done: the worker now retries twice.")
    else:
        data["reason"] = "prompt_input_exit"
    return json.dumps(data).encode()


def fill_history(env: dict, tasks: int = 50_000, sessions: int = 20_000, failed: int = 500) -> None:
    """``tasks`` finished tasks in done/, ``failed`` in failed/, and the state files their sessions
    leave behind (``.done``, ``.pending``, ``.lock``), written directly (no fsync) to be quick."""
    q = paths.queue_dir(env)
    queue.ensure_layout(q)
    base = time.time() - 365 * 86400
    for i in range(tasks + failed):
        sid = f"{i % sessions:08x}-0000-4000-8000-{i:012x}"
        t = base + i * 600
        name = f"{int(t * 1e9)}-{sid[:8]}{queue.SUFFIX}"
        fields = {"cwd": f"/home/user/project-{i % 40}", "session_jsonl": f"/home/user/.claude/projects/x/{sid}.jsonl",
                  "session_id": sid, "memory_dir": f"/home/user/.claude/projects/-home-user-project-{i % 40}/memory",
                  "timestamp": "2025-06-01T10:00:00+00:00", "event": "SessionEnd", "forced": "1",
                  "task_id": name[:-5], "outcome": "processed", "reason": "distilled",
                  "finished": "2025-06-01T10:01:00+00:00", "written": "2 decisions, 1 failure, handoff"}
        which = queue.FAILED if i >= tasks else queue.DONE
        with open(os.path.join(q, which, name), "w", encoding="utf-8") as fh:
            fh.write(queue.format_task(fields))
        if which == queue.FAILED:
            with open(os.path.join(q, which, name + ".error"), "w", encoding="utf-8") as fh:
                fh.write("model call failed 3 time(s)\n")
        if i < sessions:
            state = os.path.join(q, queue.STATE, sid)
            for kind, text in (("done", f"{t!r}\n{t + 60!r}\n"), ("pending", f"{name}\n{t!r}\n"), ("lock", "")):
                with open(f"{state}.{kind}", "w", encoding="utf-8") as fh:
                    fh.write(text)


def last_log_line(env: dict) -> str:
    path = os.path.join(paths.logs_dir(env), "hooks.log")
    with open(path, "rb") as fh:
        fh.seek(max(0, os.fstat(fh.fileno()).st_size - 4096))
        return fh.read().decode("utf-8", "replace").rstrip("\n").rsplit("\n", 1)[-1]


def expect(env: dict, sid: str, decision: str, wait_worker: bool = False):
    """A check for harness.run_once: the hook logged ``decision`` for ``sid`` (and its worker is gone)."""
    def check(proc) -> None:
        line = last_log_line(env)
        if f"session={sid}" not in line or decision not in line:
            sys.exit(f"expected {decision!r} for {sid}, the hook logged: {line}")
        if wait_worker:
            harness.wait_gone(harness.spawned_pid(os.path.join(paths.logs_dir(env), "hooks.log")))
    return check
