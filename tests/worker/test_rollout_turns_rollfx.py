"""Who drove each turn of a Codex rollout, and what a ``/compact`` leaves in it.

The rollouts (tests/fixtures/codex), recorded from the real codex-cli 0.171.0 against the Responses
stand-in with lazy-harness's hooks installed (paths read /home/user):
- ``exec_then_tui.jsonl``: ``codex exec "summarise the repo layout"``, then ``codex --no-daemon resume
  <id>`` with two typed prompts (one ``session_meta``, source ``exec``; turn triggers exec, user, user).
- ``tui_then_exec_resume.jsonl``: ``codex --no-daemon`` with one typed prompt, then ``codex exec resume
  <id> "SCRIPTED-CI-RUN: ..."`` (source ``cli``; triggers user, exec).
- ``compacted_tui.jsonl``: ``codex --no-daemon``, a prompt, ``/compact``, a prompt (the compaction's turn
  carries no ``turn_attribution``; its summary is an assistant message marked ``compaction_output`` and a
  ``compacted`` record). The stand-in gives the same answer to every request, the summary included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lazy_harness import config, paths
from lazy_harness.worker import rollout
from tests.support import fake_codex

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "codex"
EXEC_PROMPT = "summarise the repo layout"
LONG = ("We need to decide where the billing retry queue lives; Postgres gives us the nightly backup and "
        "transactional enqueue with the invoice row, Redis is faster but we would lose jobs on failover. "
        "I lean Postgres with SKIP LOCKED")
SECOND = ("Also keep the dead letters in the same table with a failed_at column, "
          "and alert after three failures in an hour")
TUI_PROMPT = "hello, what is in this folder"
SCRIPTED = "SCRIPTED-CI-RUN: "
SUMMARY_LEAD = "Another language model started to solve this problem"


def fixture(name: str) -> str:
    path = FIXTURES / name
    assert path.exists(), f"recorded fixture {name} missing"
    return str(path)


def records(name: str) -> list[dict]:
    return [json.loads(line) for line in Path(fixture(name)).read_text().splitlines() if line.strip()]


def write(tmp_path: Path, recs: list[dict], name: str = "rollout.jsonl") -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return str(path)


def without_attribution(recs: list[dict]) -> list[dict]:
    """The same rollout as a CLI from before ``turn_attribution`` would have written it."""
    out = json.loads(json.dumps(recs))
    for r in out:
        if isinstance(r.get("payload"), dict):
            r["payload"].pop("turn_attribution", None)
    return out


# -- a session started by `codex exec`, then typed in ---------------------------------------------


def test_exec_session_resumed_in_the_tui_is_interactive_with_only_the_typed_turns() -> None:
    view = rollout.read_view(fixture("exec_then_tui.jsonl"))

    assert view.kind == "interactive"
    assert "User: " + LONG in view.text and "User: " + SECOND in view.text
    assert EXEC_PROMPT not in view.text
    assert view.user_messages == 2
    assert view.user_chars == len(LONG) + len(SECOND)
    assert view.assistant_messages == 2  # the exec turn's answer is left out of the gates too
    assert view.text.count("Assistant: ") == 2


def test_tui_session_continued_by_exec_resume_leaves_the_scripted_turn_out() -> None:
    view = rollout.read_view(fixture("tui_then_exec_resume.jsonl"))

    assert view.kind == "interactive"
    assert "User: " + TUI_PROMPT in view.text
    assert SCRIPTED not in view.text
    assert view.user_messages == 1
    assert view.user_chars == len(TUI_PROMPT)
    assert view.assistant_messages == 1
    assert view.text.count("Assistant: ") == 1


def test_a_rollout_whose_turns_are_all_exec_stays_headless_and_keeps_its_text() -> None:
    view = rollout.read_view(fixture("exec.jsonl"))

    assert view.kind == "headless"
    assert view.user_messages == 1 and view.assistant_messages == 1
    assert "User: We decided to keep the billing queue in Postgres" in view.text  # lh distill --dry-run shows it


def test_a_tui_session_with_only_an_exec_resume_turn_is_headless(tmp_path: Path) -> None:
    recs = records("tui_then_exec_resume.jsonl")
    second = [i for i, r in enumerate(recs) if (r.get("payload") or {}).get("type") == "task_started"][1]
    view = rollout.read_view(write(tmp_path, [recs[0], *recs[second:]]))

    assert view.kind == "headless"
    assert SCRIPTED in view.text


@pytest.mark.parametrize(("name", "kind", "typed"), [
    ("exec_then_tui.jsonl", "headless", 3),  # session_meta decides, as before turn_attribution existed
    ("tui_then_exec_resume.jsonl", "interactive", 2),
])
def test_rollouts_without_turn_attribution_keep_the_session_meta_kind(tmp_path: Path, name: str, kind: str,
                                                                      typed: int) -> None:
    view = rollout.read_view(write(tmp_path, without_attribution(records(name))))

    assert view.kind == kind
    assert view.user_messages == typed


def test_an_unknown_turn_trigger_is_left_to_session_meta(tmp_path: Path) -> None:
    recs = records("tui_then_exec_resume.jsonl")
    for r in recs:
        attribution = (r.get("payload") or {}).get("turn_attribution")
        if isinstance(attribution, dict) and attribution.get("turn_trigger") == "exec":
            attribution["turn_trigger"] = "some_new_client"
    view = rollout.read_view(write(tmp_path, recs))

    assert view.kind == "interactive"
    assert SCRIPTED in view.text and view.user_messages == 2


def test_after_the_cursor_only_typed_turns_give_text(tmp_path: Path) -> None:
    path = fixture("exec_then_tui.jsonl")
    lines = Path(path).read_bytes().split(b"\n")
    second_user = [i for i, line in enumerate(lines) if b'"turn_trigger": "user"' in line][1]
    offset = sum(len(line) + 1 for line in lines[:second_user])

    later = rollout.read_view(path, text_from=offset)

    assert "User: " + SECOND in later.text
    assert LONG not in later.text and EXEC_PROMPT not in later.text
    assert later.user_messages == 2 and later.kind == "interactive"


def test_a_compaction_in_the_typed_part_of_an_exec_started_session_keeps_its_summary(tmp_path: Path) -> None:
    recs = records("exec_then_tui.jsonl")
    compact = [r for r in records("compacted_tui.jsonl")
               if r["type"] == "compacted" or (r.get("metadata") or {}).get("compaction_output")
               or ((r.get("payload") or {}).get("type") == "task_started" and "turn_attribution" not in r["payload"])]
    view = rollout.read_view(write(tmp_path, recs + compact))

    assert view.kind == "interactive"
    assert view.compact_summaries == 1
    assert view.text.count("[summary of the earlier conversation]") == 1


# -- /compact ---------------------------------------------------------------------------------------


def test_a_compaction_gives_one_summary_without_codex_boilerplate_and_no_extra_answer() -> None:
    view = rollout.read_view(fixture("compacted_tui.jsonl"))

    assert view.kind == "interactive"
    assert view.user_messages == 2
    assert view.assistant_messages == 2
    assert view.text.count("Assistant: ") == 2
    assert view.compact_summaries == 1
    assert view.text.count("[summary of the earlier conversation]") == 1
    assert SUMMARY_LEAD not in view.text and "other language model" not in view.text
    summary = view.text.split("[summary of the earlier conversation]", 1)[1].split("\n", 1)[0]
    assert "Noted, Postgres it is." in summary


# -- the worker's gates -----------------------------------------------------------------------------


def run_task(path: str, sid: str, gates: dict | None = None) -> tuple[str, dict]:
    """The task queued and run by the worker's own step (worker/one_task.py): (status, its done/ record)."""
    from lazy_harness import queue
    from lazy_harness.worker import one_task

    cfg = config.defaults()
    cfg["worker"]["distiller"] = "codex"
    cfg["compound_loop"].update(gates or {})
    mdir = Path(paths.memory_root()) / "project"
    mdir.mkdir(parents=True, exist_ok=True)
    fields = {"session_id": sid, "session_jsonl": path, "event": "SessionEnd", "cwd": "/home/user/project",
              "memory_dir": str(mdir), "agent": "codex"}
    q = paths.queue_dir()
    name = queue.enqueue(q, fields)
    status = one_task.process_one(q, name, cfg, None)
    assert status is not None
    [done] = [p for p in Path(queue.folder(q, queue.DONE)).iterdir() if p.name.startswith(name.split(".")[0])]
    return status, queue.read_task(str(done))


def placed(name: str) -> tuple[str, str]:
    """The fixture copied where Codex keeps rollouts; (path, session id)."""
    recs = records(name)
    sid = recs[0]["payload"]["id"]
    folder = Path(rollout.sessions_dir()) / "2026" / "11" / "30"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-2026-11-30T14-44-51-{sid}.jsonl"
    path.write_text(Path(fixture(name)).read_text())
    return str(path), sid


def test_the_worker_distils_the_typed_turns_of_an_exec_started_session(isolated_home, tmp_path, monkeypatch):
    fake = fake_codex.use(tmp_path, monkeypatch)
    path, sid = placed("exec_then_tui.jsonl")

    status, record = run_task(path, sid)

    assert status == "processed", record
    sent = [call["stdin"] for call in fake_codex.calls(fake)]
    assert any(SECOND in text for text in sent), sent
    assert not any(EXEC_PROMPT in text for text in sent)


def test_an_exec_resume_turn_does_not_count_toward_the_length_gate(isolated_home, tmp_path, monkeypatch):
    fake = fake_codex.use(tmp_path, monkeypatch)
    path, sid = placed("tui_then_exec_resume.jsonl")

    status, record = run_task(path, sid)  # typed: 29 characters; the scripted turn: over 200

    assert status == "skipped", record
    assert f"typed {len(TUI_PROMPT)} <" in record.get("reason", ""), record
    assert fake_codex.calls(fake) == []
