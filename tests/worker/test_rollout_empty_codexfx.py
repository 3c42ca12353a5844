"""A Codex rollout in which nothing was typed and nothing answered is ``empty``, as a Claude Code transcript
with no user or assistant record is: the worker skips it with the same worker.log line and never asks
the model, whatever the gates (``min_user_chars`` / ``min_messages`` at 0 included).

The rollouts: what codex-cli 0.171.0 wrote for ``codex --no-daemon``, ``!echo hi``, ``/exit`` (a
``session_meta`` and the CLI's ``<user_shell_command>`` block, ``shell.user_command``; its
base_instructions cut), and the CLI's other blocks of a turn that never got a prompt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lazy_harness import config, paths
from lazy_harness.worker import rollout
from tests.support import fake_codex

SID = "01a22c3a-62ab-7e21-83ca-d650de17c1d7"
META = {"timestamp": "2026-11-30T11:32:39.663Z", "ordinal": 0, "type": "session_meta", "payload": {
    "session_id": SID, "id": SID, "timestamp": "2026-11-30T11:32:33.590Z", "cwd": "/home/user/project",
    "originator": "codex-tui", "cli_version": "0.171.0", "source": "cli", "thread_source": "user",
    "model_provider": "mock", "base_instructions": {"text": "(cut)"}}}
SHELL = {"timestamp": "2026-11-30T11:32:39.701Z", "ordinal": 3, "type": "response_item", "payload": {
    "type": "message", "id": "msg_01a22c3a-7a95-74f1-b1ed-c645aada2a66", "role": "user", "content": [
        {"type": "input_text", "text": "<user_shell_command>\n<command>\necho hi\n</command>\n<result>\nExit code: "
         "0\nDuration: 0.0191 seconds\nOutput:\nhi\n\n</result>\n</user_shell_command>"}],
    "internal_chat_message_metadata_passthrough": {
        "turn_id": "01a22c3a-7a6b-77c0-8c9c-39c8f4041953", "create_time": 1796038359.701412,
        "content_item_kinds": ["shell.user_command"],
        "content_item_metadata": [{"provenance": {"type": "harness", "hook": False}}]}}}


def message(role: str, text: str, kinds: list[str] | None = None) -> dict:
    payload: dict = {"type": "message", "role": role, "content": [{"type": "input_text", "text": text}]}
    if kinds is not None:
        payload["internal_chat_message_metadata_passthrough"] = {"content_item_kinds": kinds}
    return {"timestamp": "2026-11-30T11:32:40.000Z", "type": "response_item", "payload": payload}


NO_PROMPT = {
    "shell command only": [META, SHELL],
    "the CLI's blocks only": [META, message("developer", "<permissions instructions>", ["permissions.instructions"]),
                              message("user", "<environment_context><cwd>/x</cwd></environment_context>",
                                      ["environments.environment_context"]),
                              message("developer", "memory from a hook", ["hooks.additional_context"])],
    "an older CLI's blocks": [META, message("user", "<environment_context>/x</environment_context>"),
                              message("user", "<user_shell_command>ls</user_shell_command>")],
    "session_meta only": [META],
}


def write(folder: Path, records: list, name: str = f"rollout-2026-11-30T11-32-33-{SID}.jsonl") -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


@pytest.mark.parametrize("case", sorted(NO_PROMPT))
def test_a_rollout_with_nothing_typed_or_answered_is_empty(tmp_path, case):
    view = rollout.read_view(write(tmp_path, NO_PROMPT[case]))
    assert view.kind == "empty"
    assert view.user_messages == 0 and view.assistant_messages == 0


def test_a_typed_prompt_or_an_answer_still_makes_it_interactive(tmp_path):
    typed = rollout.read_view(write(tmp_path, [META, SHELL, message("user", "what failed?", ["user.text"])], "a.jsonl"))
    answered = rollout.read_view(write(tmp_path, [META, message("assistant", "Nothing failed.")], "b.jsonl"))
    assert typed.kind == "interactive" and answered.kind == "interactive"


def run_task(path: str, sid: str, agent: str | None, gates: dict) -> tuple[str, dict]:
    """The task queued and run by the worker's own step (worker/one_task.py): (status, its done/ record)."""
    from lazy_harness import queue
    from lazy_harness.worker import one_task

    cfg = config.defaults()
    cfg["worker"]["distiller"] = "codex"
    cfg["compound_loop"].update(gates)
    mdir = Path(paths.memory_root()) / "project"
    mdir.mkdir(parents=True, exist_ok=True)
    fields = {"session_id": sid, "session_jsonl": path, "event": "SessionEnd", "cwd": "/home/user/project",
              "memory_dir": str(mdir), **({"agent": agent} if agent else {})}
    q = paths.queue_dir()
    name = queue.enqueue(q, fields)
    status = one_task.process_one(q, name, cfg, None)
    assert status is not None
    [done] = [p for p in Path(queue.folder(q, queue.DONE)).iterdir() if p.name.startswith(name.split(".")[0])]
    return status, queue.read_task(str(done))


@pytest.mark.parametrize("gates", [{}, {"min_user_chars": 0, "min_messages": 0}])
def test_the_worker_skips_an_empty_rollout_as_an_empty_transcript_and_asks_no_model(
        isolated_home, tmp_path, monkeypatch, gates):
    fake = fake_codex.use(tmp_path, monkeypatch)
    claude_sid = "0b7c2a5e-1111-4222-8333-944445555666"
    claude = write(Path(paths.projects_dir()) / "-home-user-project",
                   [{"type": "summary", "summary": "nothing", "leafUuid": "u-1"}], f"{claude_sid}.jsonl")
    expected = run_task(claude, claude_sid, None, gates)
    assert expected[0] == "skipped", expected
    codex = write(Path(rollout.sessions_dir()) / "2026" / "11" / "30", [META, SHELL])
    status, record = run_task(codex, SID, "codex", gates)
    assert (status, record.get("reason")) == (expected[0], expected[1].get("reason"))
    assert fake_codex.calls(fake) == []
    log = Path(paths.logs_dir(), "worker.log").read_text().splitlines()
    said = [line for line in log if f"task {record['task_id']}: skipped: " in line]
    assert said and record["reason"] in said[0], log


def test_sniff_kind_tells_an_empty_rollout_from_an_interactive_one(tmp_path):
    recorded = Path(__file__).resolve().parent.parent / "fixtures" / "codex" / "interactive.jsonl"
    assert rollout.kind_of(rollout.session_meta(write(tmp_path, [META, SHELL], "e.jsonl"))) == "interactive"
    assert rollout.sniff_kind(write(tmp_path, [META, SHELL], "e.jsonl")) == "empty"
    assert rollout.sniff_kind(str(recorded)) == "interactive"
    assert rollout.sniff_kind(str(tmp_path / "gone.jsonl")) == "unreadable"


def test_sniff_kind_reads_only_a_prefix(tmp_path):
    path = write(tmp_path, [META, SHELL] + [message("assistant", "late answer")], "late.jsonl")
    cut = len(Path(path).read_bytes().rsplit(b"\n", 2)[0])  # up to the answer's line
    assert rollout.sniff_kind(path, max_bytes=cut - 1) == "empty"
    assert rollout.sniff_kind(path) == "interactive"
