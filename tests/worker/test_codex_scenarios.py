"""Codex CLI sessions as a real user has them: screenshots pasted beside a prompt, a session resumed in
another folder, an older CLI's rollout, a command failing in silence, the built-in local shell."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

from lazy_harness.worker import rollout

TYPED = "We decided to keep the billing queue in Postgres rather than Redis, for the outbox pattern."


def _meta() -> dict:
    return {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta",
            "payload": {"id": "sess-1", "cwd": "/home/user/project", "originator": "codex-tui", "source": "cli"}}


def _item(payload: dict) -> dict:
    return {"timestamp": "2026-01-01T00:00:01Z", "type": "response_item", "payload": payload}


def _write(tmp_path: Path, records: list[dict]) -> str:
    path = tmp_path / "rollout-2026-01-01T00-00-00-sess-1.jsonl"
    # why separators: the real CLI writes compact JSON
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))
    return str(path)


def _screenshot(n_bytes: int, seed: int) -> str:
    return "data:image/png;base64," + base64.b64encode(os.urandom(n_bytes // 4 * 3 + seed)).decode()


def test_a_typed_prompt_beside_pasted_screenshots_over_the_line_cap_is_read(tmp_path: Path) -> None:
    """Codex keeps a pasted image inside the typed user message, as a base64 data URL (``input_image``
    ``image_url``): two screenshots of 2.5 MB each put the line over the 4 MiB cap, and the prompt typed
    beside them was dropped with the line (Claude Code's reader leaves such images out and reads the words)."""
    content = [{"type": "input_text", "text": TYPED},
               {"type": "input_image", "image_url": _screenshot(2_500_000, 1)},
               {"type": "input_image", "image_url": _screenshot(2_500_000, 2)}]
    user = _item({"type": "message", "role": "user", "content": content,
                  "internal_chat_message_metadata_passthrough": {"content_item_kinds": ["user.text", "user.image",
                                                                                        "user.image"]}})
    answer = _item({"type": "message", "role": "assistant",
                    "content": [{"type": "output_text", "text": "Understood: Postgres with an outbox."}]})
    path = _write(tmp_path, [_meta(), user, answer])
    assert os.path.getsize(path) > 5_000_000

    view = rollout.read_view(path)

    assert "User: " + TYPED in view.text
    assert view.user_messages == 1
    assert view.user_chars == len(TYPED)
    assert view.oversized_lines == 0


def test_a_screenshot_whose_data_url_head_straddles_a_read_piece_is_left_out_too(tmp_path: Path) -> None:
    """The long line is copied in 64 KiB pieces: a data URL cut between two pieces just after its
    ``data:im`` is still known for an image once the next piece comes (and the words are still read)."""
    from lazy_harness.worker import transcript_lines

    images = [_screenshot(4_500_000, 1)]  # why one: kept, it alone is over the cap

    def line(pad: str) -> str:
        content = [{"type": "input_text", "text": TYPED + pad}] + [{"type": "input_image", "image_url": u}
                                                                   for u in images]
        return json.dumps(_item({"type": "message", "role": "user", "content": content}), separators=(",", ":"))

    head = line("").index('"image_url":"') + len('"image_url":"')
    pad = " " * (transcript_lines._PIECE - 7 - head)  # the value starts 7 bytes before a piece ends
    assert line(pad)[transcript_lines._PIECE - 7:transcript_lines._PIECE] == "data:im"
    path = tmp_path / "rollout-2026-01-01T00-00-00-sess-1.jsonl"
    path.write_text(json.dumps(_meta(), separators=(",", ":")) + "\n" + line(pad) + "\n")

    view = rollout.read_view(str(path))

    assert TYPED in view.text
    assert view.user_messages == 1 and view.oversized_lines == 0


def test_a_session_resumed_in_another_folder_is_swept_into_that_folders_memory(isolated_home, tmp_path):
    """``codex resume`` with "Use current directory" runs the session in the new folder: its hooks, its
    Stop tasks and its read-back use that folder's memory (docs/how/codex.md). The sweep's record of the
    session kept the folder of the first hook that noted it, so the turns after the resume that no Stop
    queued (debounced; the TUI's daemon sends no SessionEnd) were swept into the first folder's memory."""
    import time

    from lazy_harness import paths, queue
    from lazy_harness.queue import sweep
    from tests.hooks.hookrun import enable_loop, worker_lock_held
    from tests.hooks.test_codex_hooks import run_codex_hook
    from tests.support.sessions import place_rollout

    enable_loop(isolated_home, idle_minutes=10)
    first, later = tmp_path / "api", tmp_path / "api-v2"
    first.mkdir()
    later.mkdir()
    sid, path = place_rollout(first)
    with worker_lock_held(paths.claude_dir()) as q:
        for cwd, source in ((first, "startup"), (later, "resume")):
            r = run_codex_hook("SessionStart", {"session_id": sid, "transcript_path": path, "cwd": str(cwd),
                                                "hook_event_name": "SessionStart", "source": source})
            assert r.returncode == 0, r.stderr
        stamp = os.path.join(q, "state", ".sweep")
        if os.path.exists(stamp):
            os.utime(stamp, (0, 0))
        [name] = sweep.sweep(q, time.time() + 3600, idle_seconds=600)
        task = queue.read_task(os.path.join(q, name))

    assert task["cwd"] == str(later)
    assert task["memory_dir"] == paths.memory_dir(str(later))


def test_a_rollout_without_metadata_leaves_the_agents_md_block_out_of_what_the_person_typed(tmp_path: Path) -> None:
    """A rollout of a CLI that writes no ``content_item_kinds`` (the reader's fallback: a user message counts
    unless it is one of the CLI's own blocks) holds the project's AGENTS.md as a user message of its own,
    ``# AGENTS.md instructions for <cwd>`` then ``<INSTRUCTIONS>``: it was read as the person's words (the
    gates counted it, the model was given it as the person's) in every session of a project with one."""
    agents = ("# AGENTS.md instructions for /home/user/project\n\n<INSTRUCTIONS>\n"
              + "Always run the linters before you commit and never touch the vendored folder. " * 20
              + "\n</INSTRUCTIONS>")
    environment = "<environment_context>\n  <cwd>/home/user/project</cwd>\n</environment_context>"
    records = [_meta()] + [_item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": t}]})
                           for t in (agents, environment, TYPED)]
    records.append(_item({"type": "message", "role": "assistant",
                          "content": [{"type": "output_text", "text": "Understood: Postgres with an outbox."}]}))
    view = rollout.read_view(_write(tmp_path, records))

    assert "AGENTS.md" not in view.text and "linters" not in view.text
    assert "User: " + TYPED in view.text
    assert (view.user_messages, view.user_chars) == (1, len(TYPED))


def test_a_command_that_failed_without_output_is_a_tool_error(tmp_path: Path) -> None:
    """``test -f``, ``grep -q``, ``git diff --quiet``: exit 1 and nothing printed. Codex says so in the
    output's header only (``Process exited with code 1``, an empty ``Output:``); the reader left out every
    output with an empty body before it looked at the code, so the failure was neither counted nor shown
    (a Claude Code tool_result with ``is_error`` and no content is both)."""
    call = _item({"type": "function_call", "name": "exec_command", "call_id": "c1",
                  "arguments": json.dumps({"cmd": "test -f config/prod.yaml"})})
    output = _item({"type": "function_call_output", "call_id": "c1",
                    "output": "Chunk ID: eb09a8\nWall time: 0.0000 seconds\nProcess exited with code 1\n"
                              "Original token count: 0\nOutput:\n"})
    records = [_meta(), _item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": TYPED}],
                               "internal_chat_message_metadata_passthrough": {"content_item_kinds": ["user.text"]}}),
               call, output]
    view = rollout.read_view(_write(tmp_path, records))

    assert view.tool_errors == 1
    assert "[tool error: exit 1" in view.text


def test_a_local_shell_call_is_an_act_of_the_agent_as_the_reader_says(tmp_path: Path) -> None:
    """Codex records a command run through the built-in local shell tool as a ``local_shell_call`` with its
    command in ``action``: the rollout reader shows it as a tool call, but the evidence of a memory entry's
    use (what the agent did) skipped the line, so an entry the agent acted on that way was never used."""
    from lazy_harness.worker import evidence

    command = ["bash", "-lc", "psql -c 'select pg_advisory_lock(42)'"]
    shell = {"timestamp": "2026-01-01T00:00:02Z", "type": "response_item",
             "payload": {"type": "local_shell_call", "call_id": "c1", "status": "completed",
                         "action": {"type": "exec", "command": command}}}
    path = _write(tmp_path, [_meta(), shell])

    assert "[tool local_shell_call: bash -lc psql" in rollout.read_view(path).text
    assert any("pg_advisory_lock(42)" in text for _, text, _ in evidence.acts(path))
