"""Read a Codex CLI rollout (``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl``) into the same bounded
:class:`View` a Claude Code transcript gives, so the rest of the pipeline does not care which agent ran.

What becomes text (records are ``{"timestamp", "type", "payload"}``; fixtures in tests/fixtures/codex):
- ``response_item`` messages of role ``user`` whose ``content_item_kinds`` say ``user.text`` (what the
  person typed; provenance ``{"type": "user"}``): ``User: ...``, counted for the gates. A user message
  with no such metadata (an older CLI) counts unless it is a block the CLI writes itself (the
  environment context, the project's AGENTS.md, user instructions).
- ``response_item`` messages of role ``assistant``: ``Assistant: ...``.
- ``function_call`` (``[tool exec_command: ls]``) and ``function_call_output``, cut short; an output
  saying ``Process exited with code N`` with N not 0 is a tool error.
- ``compacted`` records: the summary of the earlier conversation, without Codex's opening sentences
  ("Another language model started to solve this problem..."). The compaction turn's own assistant
  message (record ``metadata.compaction_output``) holds the same summary and is left out: it is no
  answer and is not counted.
Never: developer messages (the CLI's instructions and every hook's ``additionalContext``, ours
included), the environment block, ``hooks.additional_context`` items in any role, a message opening
with our own fence line, ``event_msg`` records (they repeat the messages), reasoning.

Who drove each turn: an ``event_msg`` ``task_started`` names it in ``turn_attribution.turn_trigger``
(``user``: typed in the TUI; ``exec``: ``codex exec``, ``codex exec resume`` included). One file can hold
both: a ``codex exec`` session later resumed in the TUI, or a TUI session continued by ``codex exec
resume``; neither adds a ``session_meta``. A turn's messages, tool calls and outputs belong to the last
trigger named (a turn without ``turn_attribution``, such as ``/compact``'s, keeps the one before); a
turn with no trigger yet, or one neither ``user`` nor ``exec``, is judged by ``session_meta`` as below
(so a rollout from a CLI without ``turn_attribution`` reads as before). In an interactive view the
``exec`` turns give no text and do not count for the gates (``user_chars``, ``user_messages``,
``assistant_messages``, tool calls), as a ``claude -p`` run's turns in a session later typed in do not.

Kind: ``empty`` when nothing was typed and nothing answered (no typed user message, no assistant
message, no tool call: a TUI opened for a ``!`` shell command, or only ``session_meta``), as a Claude
Code transcript without a user or assistant record is; the worker skips it without a model call.
Otherwise from ``session_meta``: ``headless`` for ``codex exec`` (source ``exec`` or originator
``codex_exec``) and for the harness's own runs (``thread_source`` ``lazy-harness``), which are never
distilled; ``interactive`` for the TUI (source ``cli``, or ``vscode`` through the app-server daemon);
``sidechain`` for a sub-agent's thread (source an object naming one); ``unknown`` otherwise. Then the
turns, for a ``headless`` or ``interactive`` session that is not the harness's own: ``interactive`` when
a prompt was typed in a ``user`` turn (an exec session resumed in the TUI), ``headless`` when prompts
were given only in ``exec`` turns (a TUI session with nothing typed, then ``codex exec resume``). A
view that is not interactive keeps every turn's text and counts (``lh distill --dry-run`` shows them).

Bad input is handled as for transcripts (transcript_lines.py): a damaged line is skipped and
counted, and its ``file:line`` is named in the view's description, which worker.log shows. A line cut by
a kill with the resumed session's next record appended to it (whatever record was cut) is counted and
named too, and the appended record is read.
A resumed session appends to the same file; the cursor (worker/cursor.py) is a byte offset, so a
second distillation reads only what was appended.
"""

from __future__ import annotations

import json
import os
import re
from typing import TYPE_CHECKING

from lazy_harness import paths
from lazy_harness.memory.fence import FENCE
from lazy_harness.worker.conversation import (SUMMARY_CAP, TOOL_ERROR_CAP, Budget, flat_output,
                                               redacted_excerpt, summary_body, tool_call)
from lazy_harness.worker.transcript_lines import MAX_LINE_BYTES, TranscriptError, _open, _parse, iter_lines
from lazy_harness.worker.transcript_records import View

if TYPE_CHECKING:
    from lazy_harness.memory.shapes import Env

AGENT = "codex"
OWN_THREAD_SOURCE = "lazy-harness"  # --thread-source of the harness's own `codex exec` runs
TYPED = "user.text"
HOOK_CONTEXT = "hooks.additional_context"
# why the AGENTS.md heading: the CLI writes the project's AGENTS.md as a user message of its own,
# ``# AGENTS.md instructions for <cwd>`` then ``<INSTRUCTIONS>`` (``<user_instructions>`` before that)
_CLI_BLOCKS = ("<environment_context", "<user_instructions", "<turn_aborted", "<user_shell_command",
               "# AGENTS.md instructions for ")
_EXIT_CODE = re.compile(r"(?:Process exited with code|Exit code:?)\s*(-?\d+)")
_PARSED = (b'"session_meta"', b'"response_item"', b'"compacted"', b'"task_started"')
_OPENING = b'{"timestamp":'  # every rollout record's first key (transcript_lines.after_torn looks for it too)
USER_TRIGGER, EXEC_TRIGGER = "user", "exec"  # turn_attribution.turn_trigger of a typed turn, a codex exec one
# Codex's opening of a compaction summary (it addresses the next model); the summary follows its end
_SUMMARY_LEAD = "Another language model started to solve this problem"
_SUMMARY_LEAD_END = "use the information in this summary to assist with your own analysis:"
_MAX_NAMED = 5  # damaged lines named one by one; more are counted
SNIFF_BYTES = 4 * 1024 * 1024  # as transcript.SNIFF_BYTES


def codex_home(env: Env | None = None) -> str:
    """``$CODEX_HOME``, else ``~/.codex`` (``paths.codex_home``: the hooks' install and the worker agree)."""
    return paths.codex_home(env)


def sessions_dir(env: Env | None = None) -> str:
    """Where the Codex CLI writes its rollouts: the only place a Codex task's transcript may lie."""
    return os.path.join(codex_home(env), "sessions")


def session_meta(path: str) -> dict | None:
    """The ``session_meta`` payload when ``path`` starts like a Codex rollout, else None (for telling a
    rollout from a Claude Code transcript named on the command line)."""
    try:
        with _open(path) as fh:
            first = next(iter_lines(fh, MAX_LINE_BYTES), None)
    except TranscriptError:
        return None
    try:
        record = json.loads(first) if first else None
    except (ValueError, RecursionError):
        return None
    if isinstance(record, dict) and record.get("type") == "session_meta" and isinstance(record.get("payload"), dict):
        return record["payload"]
    return None


def sniff_kind(path: str, max_bytes: int = SNIFF_BYTES) -> str:
    """The kind judged on the first ``max_bytes`` of the rollout at ``path`` (as transcript.sniff_kind:
    cheap, for picking among many sessions; ``empty`` included, which ``session_meta`` alone cannot
    tell), or ``unreadable``."""
    try:
        return read_view(path, 1000, stop_after=max_bytes).kind
    except TranscriptError:
        return "unreadable"


def read_view(path: str, budget_chars: int = 100_000, max_line_bytes: int = MAX_LINE_BYTES,
              text_from: int = 0, stop_after: int | None = None) -> View:
    """Stream the rollout at ``path`` into a :class:`View` (``text_from``: as transcript.read_view;
    ``stop_after``: no line after that many bytes is read); raises transcript_lines.TranscriptError
    only when it cannot be opened."""
    view = View(path=path, agent=AGENT)
    reader = _Reader(view, max(budget_chars, 1000))
    with _open(path) as fh:
        # why shrink: a prompt typed beside pasted screenshots (base64 data URLs in the same message) passed
        # the line cap and was dropped with them; without them the words are read
        for raw in iter_lines(fh, max_line_bytes, shrink=True):
            view.lines += 1
            if raw is None:
                view.oversized_lines += 1
                reader.damaged(view.lines)
            elif raw.strip() and (any(tag in raw[:200] for tag in _PARSED) or raw.find(_OPENING, 1) > 0):
                # why the opening: a line cut by a kill (most often a long record the reader skips, a token
                # count, a turn_context) gets the resumed session's next record appended; that record,
                # a prompt maybe, is past the first 200 bytes, and only a parse (after_torn) finds it
                bad = view.bad_lines
                record = _parse(raw, view)
                if record is None or view.bad_lines > bad:
                    reader.damaged(view.lines)
                if record is None:
                    continue
                reader.quiet = text_from > 0 and fh.tell() <= text_from
                try:
                    reader.record(record)
                except RecursionError:
                    view.bad_lines += 1
                    reader.damaged(view.lines)
            elif raw.strip() and not (raw.lstrip().startswith(b"{") and raw.rstrip().endswith(b"}")):
                # why: records the reader does not use are not parsed (event_msg lines are large), but one
                # that is not even shaped like an object is damage all the same
                view.bad_lines += 1
                reader.damaged(view.lines)
            if stop_after is not None and fh.tell() >= stop_after:
                break
        view.bytes_read = fh.tell()
    reader.finish()
    return view


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "\n".join(str(b["text"]) for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))


def _kinds(payload: dict) -> list[str]:
    meta = payload.get("internal_chat_message_metadata_passthrough")
    found = meta.get("content_item_kinds") if isinstance(meta, dict) else None
    return [k for k in found if isinstance(k, str)] if isinstance(found, list) else []


def kind_of(meta: dict | None) -> str:
    """The session kind from its ``session_meta`` payload alone (rules in the module docstring; the
    reader then looks at who drove each turn)."""
    if not isinstance(meta, dict):
        return "unknown"
    source, origin = meta.get("source"), meta.get("originator")
    if source == "exec" or origin == "codex_exec" or meta.get("thread_source") == OWN_THREAD_SOURCE:
        return "headless"
    if isinstance(source, dict) and any("agent" in str(k).lower() for k in source):
        return "sidechain"
    if source in ("cli", "vscode"):
        return "interactive"
    return "unknown"


class _Reader:
    """Turns rollout records into the view's counts and budgeted text entries."""

    def __init__(self, view: View, budget_chars: int) -> None:
        self.view = view
        self.budget = Budget(budget_chars)  # the turns a person drove
        self.whole = Budget(budget_chars)  # every turn: the text of a view that is not interactive
        self.held = View(path=view.path, agent=AGENT)  # the gate counts of the exec turns
        self.trigger: str | None = None  # the current turn's turn_trigger
        self.user_turn_prompts = 0
        self.entry_cap = max(200, min(4000, budget_chars // 4))
        self.meta: dict | None = None
        self.quiet = False
        self.named: list[int] = []

    def damaged(self, line: int) -> None:
        if len(self.named) < _MAX_NAMED:
            self.named.append(line)

    def record(self, r: dict) -> None:
        payload = r.get("payload")
        if not isinstance(payload, dict):
            return
        self._time(r.get("timestamp"))
        kind = r.get("type")
        if kind == "session_meta":
            self._session(payload)
        elif kind == "event_msg":
            if payload.get("type") == "task_started":
                self._turn(payload)
        elif kind == "compacted":
            summary = payload.get("message")
            if isinstance(summary, str) and summary.strip():
                self.view.compact_summaries += 1
                self._add("[summary of the earlier conversation] " + self._excerpt(_summary(summary), SUMMARY_CAP))
        elif kind == "response_item":
            extra = r.get("metadata")
            if isinstance(extra, dict) and extra.get("compaction_output") is True:
                return  # why: the compaction's summary, given again by the ``compacted`` record: no answer
            self._item(payload)

    def _turn(self, p: dict) -> None:
        """A turn starts: who drove it (``turn_attribution`` missing: the turn before's trigger goes on)."""
        attribution = p.get("turn_attribution")
        if isinstance(attribution, dict):
            trigger = attribution.get("turn_trigger")
            self.trigger = trigger if isinstance(trigger, str) else None

    @property
    def scripted(self) -> bool:
        """Whether the current turn is a ``codex exec`` one (by its trigger, else by ``session_meta``)."""
        if self.trigger in (USER_TRIGGER, EXEC_TRIGGER):
            return self.trigger == EXEC_TRIGGER
        return kind_of(self.meta) == "headless"

    @property
    def counts(self) -> View:
        """Where the current turn's gate counts go: the view, or the exec turns' held counts."""
        return self.held if self.scripted else self.view

    def _session(self, p: dict) -> None:
        if self.meta is None:
            self.meta = p
        v = self.view
        if not v.session_id and isinstance(p.get("id"), str):
            v.session_id = p["id"]
        if not v.cwd and isinstance(p.get("cwd"), str):
            v.cwd = p["cwd"]
        git = p.get("git")
        if isinstance(git, dict) and isinstance(git.get("branch"), str):
            v.git_branch = git["branch"]

    def _time(self, ts: object) -> None:
        v = self.view
        if isinstance(ts, str) and ts:
            if not v.first_timestamp or ts < v.first_timestamp:
                v.first_timestamp = ts
            v.last_timestamp = max(v.last_timestamp, ts)

    def _item(self, p: dict) -> None:
        kind = p.get("type")
        if kind == "message":
            self._message(p)
        elif kind in ("function_call", "custom_tool_call", "local_shell_call"):
            self.view.signals.conversation += 1
            self.counts.tool_calls += 1
            self._add(tool_call({"name": p.get("name") or kind, "input": _arguments(p)}))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            self._output(p.get("output"))

    def _message(self, p: dict) -> None:
        role, kinds = p.get("role"), _kinds(p)
        text = _text(p.get("content"))
        if role not in ("user", "assistant") or HOOK_CONTEXT in kinds or not text.strip():
            return
        if text.lstrip().startswith(FENCE):
            return
        if role == "assistant":
            self.view.signals.conversation += 1
            self.counts.assistant_messages += 1
            self._add("Assistant: " + self._excerpt(text, self.entry_cap))
            return
        typed = TYPED in kinds if kinds else not text.lstrip().startswith(_CLI_BLOCKS)
        if not typed:
            return  # why: the CLI's own blocks (environment, a ``!`` shell command) are no conversation
        self.view.signals.conversation += 1
        if self.scripted:
            self.view.signals.prompt_sdk += 1
        else:
            self.view.signals.prompt_typed += 1
        if self.trigger == USER_TRIGGER:
            self.user_turn_prompts += 1
        self.counts.user_chars += len(text.strip())
        self.counts.user_messages += 1
        self._add("User: " + self._excerpt(text, self.entry_cap))

    def _output(self, output: object) -> None:
        if isinstance(output, dict):
            output = output.get("content") or output.get("output") or ""
        text = output if isinstance(output, str) else _text(output)
        if not text.strip():
            return
        found_code = _EXIT_CODE.search(text[:2000])
        code = found_code.group(1) if found_code else "0"
        failed = code != "0"
        body = text.split("Output:\n", 1)[-1] if "Output:\n" in text[:2000] else text
        if not body.strip():
            if failed:  # why: ``test -f``, ``grep -q`` fail silently; the header alone says so
                self.counts.tool_errors += 1
                self._add(f"[tool error: exit {code}]")
            return
        shown, found = flat_output(body, TOOL_ERROR_CAP)
        self.view.redacted_early += found
        if failed:
            self.counts.tool_errors += 1
            self._add(f"[tool error: exit {code}: {shown}]")
        else:
            self._add(f"[tool output: {shown}]")

    def _excerpt(self, text: str, cap: int) -> str:
        """``text`` cut to ``cap``, redacted before the cut (conversation.redacted_excerpt); nothing for
        an entry :meth:`_add` drops (a record before the cursor costs no redaction)."""
        if self.quiet:
            return ""
        shown, found = redacted_excerpt(text, cap)
        self.view.redacted_early += found
        return shown

    def _add(self, entry: str) -> None:
        if not self.quiet:
            self.whole.add(entry)
            if not self.scripted:
                self.budget.add(entry)

    def _kind(self) -> str:
        """The view's kind: ``session_meta``'s, then who drove the turns (rules in the module docstring)."""
        s = self.view.signals
        if s.conversation == 0:
            return "empty"
        base = kind_of(self.meta)
        if base not in ("headless", "interactive") or (self.meta or {}).get("thread_source") == OWN_THREAD_SOURCE:
            return base
        if self.user_turn_prompts:
            return "interactive"
        if s.prompt_sdk and not s.prompt_typed:
            return "headless"
        return base

    def finish(self) -> None:
        v, held = self.view, self.held
        v.kind = self._kind()
        budget = self.budget
        if v.kind != "interactive":  # why: a view that is not distilled keeps every turn (--dry-run shows it)
            budget = self.whole
            v.user_chars += held.user_chars
            v.user_messages += held.user_messages
            v.assistant_messages += held.assistant_messages
            v.tool_calls += held.tool_calls
            v.tool_errors += held.tool_errors
        v.text = budget.text()
        v.entries = budget.count
        v.elided_entries = budget.elided
        v.elided_chars = budget.elided_chars
        v.damaged = [f"{v.path}:{n}" for n in self.named]


def _summary(text: str) -> str:
    """A compaction summary without Codex's opening sentences, then as conversation.summary_body."""
    if text.lstrip().startswith(_SUMMARY_LEAD):
        at = text.find(_SUMMARY_LEAD_END, 0, 2000)
        if at >= 0:
            text = text[at + len(_SUMMARY_LEAD_END):]
    return summary_body(text).strip()


def _arguments(p: dict) -> dict:
    """A tool call's arguments as the tool line shows them (``cmd`` as the command)."""
    raw = p.get("arguments", p.get("input", p.get("action")))
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return {"command": raw}
    if not isinstance(raw, dict):
        return {}
    command = raw.get("cmd", raw.get("command"))
    if isinstance(command, list):
        command = " ".join(str(c) for c in command)
    return {"command": command, **{k: v for k, v in raw.items() if k not in ("cmd", "command")}} if command else raw
