"""Transcript records turned into a :class:`View`: the signals, the gate counts and the budgeted text.

What counts (the worker's gates use these):
- ``user_chars`` / ``user_messages``: only what the person typed: ``user`` records whose content is a
  string (or text blocks), with ``promptSource`` ``typed`` or ``sdk``, or ``queued`` with a human
  ``origin`` (typed while a turn ran, sent as the next turn); older records without
  ``promptSource``: any such record that is not a wrapper. Also a message typed while a turn ran and
  taken into it, of which the CLI writes only an ``attachment`` of type ``queued_command`` with
  ``commandMode: "prompt"`` and a human ``origin`` (a ``User:`` entry where it was typed, once: the
  ``queue-operation`` records that hold the same words give none). Never counted: ``isMeta`` records,
  compaction summaries (``isCompactSummary``; shown in the text as context),
  ``isVisibleInTranscriptOnly`` records,
  slash-command and local-command wrappers (``<command-name>``, ``<local-command-stdout>``, ...),
  task notifications (``promptSource: system``), tool results, sub-agent records, queued commands
  other than prompts (``commandMode`` ``bash`` and the like), and every other non-``user`` record
  (``api-request-blob`` and the other ``attachment`` types carry user-role text too).
- ``assistant_messages``: assistant messages holding text, once per ``message.id`` (the CLI writes one
  record per content block).

What gives no text (still counted, as the part before a cursor is):
- a fork's copied conversation (memory/lineage.py), unless the reader is asked to keep it
  (``keep_copied``: the worker does, and leaves out only what its parents' distillations cover or
  leave to themselves, by a cursor: worker/cursor.py): everything up to the last record copied from another session.
  ``copied_from`` names those sessions, in order, either way.
- a ``claude -p`` run's turns (from an ``sdk`` prompt to the next typed one), when the person went on
  typing in it (``claude --resume``): the scripted run is not distilled, as a headless session is not.

Classification (:func:`classify`), on counts over the whole file, never on line 1:
- ``empty``: no user or assistant record at all.
- ``sidechain``: most user/assistant records carry ``isSidechain: true`` (a sub-agent's own file).
- ``interactive`` first when a typed prompt and a ``permission-mode`` or ``mode`` record exist (a
  ``claude -p`` run continued by ``claude --resume``: the person typed in it).
- ``headless``: user records carrying a prompt with an ``sdk*`` entrypoint outnumber ``cli`` ones (the
  entrypoint is counted on prompts only: a tool result says nothing about who drove the session), or
  ``sdk`` prompts outnumber typed ones, or ``queue-operation`` records exist while nothing typed and
  no ``permission-mode`` record does (``claude -p`` writes queue operations; an interactive session
  only when the person types while a turn runs, and then it has typed prompts).
- ``interactive``: otherwise, when a typed prompt, a ``cli`` user record, a ``permission-mode`` or a
  ``mode`` record exists.
- ``unknown``: none of these signals (an older or foreign format); the worker distils only
  ``interactive``.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from lazy_harness.memory.lineage import copied_from
from lazy_harness.worker.conversation import (SUMMARY_CAP, TEXT_CAP, TOOL_ERROR_CAP, Budget, flat_output,
                                               redacted_excerpt, summary_body, text_of, tool_call)

_SEEN_IDS = 256  # assistant message ids remembered for de-duplication (records of one id are adjacent)

_WRAPPERS = ("<command-name>", "<command-message>", "<command-args>", "<local-command-stdout>",
             "<local-command-stderr>", "<local-command-caveat>", "<bash-input>", "<bash-stdout>",
             "<bash-stderr>", "<task-notification>", "<user-memory-input>", "[Request interrupted")
_TYPED_SOURCES = ("typed", "sdk")


@dataclass
class Signals:
    """Counts of the records that tell an interactive session from a headless or sub-agent one."""

    mode: int = 0
    permission_mode: int = 0
    queue_operation: int = 0
    entry_cli: int = 0  # user records with entrypoint "cli"
    entry_sdk: int = 0  # ... "sdk-cli", "sdk-ts", "sdk-py" ...
    entry_other: int = 0  # ... any other or none
    prompt_typed: int = 0
    prompt_sdk: int = 0
    sidechain: int = 0  # user/assistant records with isSidechain true
    conversation: int = 0  # user/assistant records


@dataclass
class View:
    """What the worker needs from one transcript: its kind, the gate counts and a bounded text."""

    path: str
    kind: str = "empty"
    agent: str = "claude"  # whose session: "claude" (this reader) or "codex" (worker/rollout.py)
    signals: Signals = field(default_factory=Signals)
    user_chars: int = 0
    user_messages: int = 0
    assistant_messages: int = 0
    text: str = ""
    entries: int = 0
    elided_entries: int = 0
    elided_chars: int = 0
    tool_calls: int = 0
    tool_errors: int = 0
    redacted_early: int = 0  # credentials a tool's output held, redacted before it was put on one line
    compact_summaries: int = 0
    copied_from: list[str] = field(default_factory=list)  # a fork's: the sessions its copied records came from
    session_id: str = ""
    cwd: str = ""
    git_branch: str = ""
    first_timestamp: str = ""
    last_timestamp: str = ""
    bytes_read: int = 0
    lines: int = 0
    bad_lines: int = 0
    oversized_lines: int = 0
    replaced_lines: int = 0  # lines with invalid UTF-8, decoded with U+FFFD
    damaged: list[str] = field(default_factory=list)  # ``file:line`` of the first damaged lines (rollouts)

    @property
    def messages(self) -> int:
        return self.user_messages + self.assistant_messages

    def describe(self) -> str:
        """What was read, for the task's line in worker.log: ``read 412 lines, 38 entries (3 cut),
        20 tool calls (2 failed), 1 summary``; unreadable, oversized and re-decoded lines when any."""
        out = f"read {self.lines} lines, {self.entries} entries"
        if self.elided_entries:
            out += f" ({self.elided_entries} cut, {self.elided_chars} chars)"
        out += f", {self.tool_calls} tool calls"
        if self.tool_errors:
            out += f" ({self.tool_errors} failed)"
        if self.compact_summaries:
            out += f", {self.compact_summaries} summar{'y' if self.compact_summaries == 1 else 'ies'}"
        for n, what in ((self.bad_lines, "unparsable"), (self.oversized_lines, "oversized"),
                        (self.replaced_lines, "bad UTF-8")):
            if n:
                out += f", {n} {what}"
        if self.damaged:
            out += f" (skipped {', '.join(self.damaged)})"
        return out


def classify(s: Signals) -> str:
    """The session kind from its signals (rules in the module docstring)."""
    if s.conversation == 0:
        return "empty"
    if s.sidechain * 2 > s.conversation:
        return "sidechain"
    if s.prompt_typed and (s.permission_mode or s.mode):
        return "interactive"
    if (s.entry_sdk > s.entry_cli or s.prompt_sdk > s.prompt_typed
            or (s.queue_operation and not s.prompt_typed and not s.permission_mode)):
        return "headless"
    if s.prompt_typed or s.entry_cli or s.permission_mode or s.mode:
        return "interactive"
    return "unknown"


class _Reader:
    """Turns records into signals, counts and budgeted text entries."""

    def __init__(self, view: View, budget_chars: int, keep_copied: bool = False) -> None:
        self.view = view
        self.keep_copied = keep_copied  # a fork's copied records give text like its own
        self.budget_chars = budget_chars
        self.budget = Budget(budget_chars)
        self.entry_cap = max(200, min(TEXT_CAP, budget_chars // 4))
        self.seen: OrderedDict[str, None] = OrderedDict()
        self.quiet = False  # a record before the cursor: counted, no text
        self.copied = False  # a record a fork copied from another session: counted, no text
        self.scripted = False  # within a `claude -p` run's turns: their text is held, dropped at a typed prompt
        self.held = Budget(budget_chars)

    def record(self, r: dict) -> None:
        s = self.view.signals
        kind = r.get("type")
        if kind == "mode":
            s.mode += 1
        elif kind == "permission-mode":
            s.permission_mode += 1
        elif kind == "queue-operation":
            s.queue_operation += 1
        elif kind == "attachment":
            self._queued(r)
        if kind not in ("user", "assistant"):
            return
        s.conversation += 1
        self._meta(r)
        if r.get("isSidechain") is True:
            s.sidechain += 1
            return
        message = r.get("message")
        if not isinstance(message, dict):
            return
        self._copied(r)
        if kind == "user":
            self._user(r, message.get("content"))
        else:
            self._assistant(message)

    def _meta(self, r: dict) -> None:
        v = self.view
        if not v.session_id and isinstance(r.get("sessionId"), str):
            v.session_id = r["sessionId"]
        if not v.cwd and isinstance(r.get("cwd"), str):
            v.cwd = r["cwd"]
        if isinstance(r.get("gitBranch"), str):
            v.git_branch = r["gitBranch"]
        ts = r.get("timestamp")
        if isinstance(ts, str) and ts:
            if not v.first_timestamp or ts < v.first_timestamp:
                v.first_timestamp = ts
            if ts > v.last_timestamp:
                v.last_timestamp = ts

    def _copied(self, r: dict) -> None:
        """A record a fork copied from another session: what came before it was copied too, so the
        text read so far is dropped (a fork's copied records come first), unless ``keep_copied``."""
        parent = copied_from(r)
        self.copied = bool(parent)
        if not parent:
            return
        if parent not in self.view.copied_from:
            self.view.copied_from.append(parent)
        if self.keep_copied:
            self.copied = False
            return
        if self.budget.count or self.held.count:
            self.budget, self.held = Budget(self.budget_chars), Budget(self.budget_chars)

    def _queued(self, r: dict) -> None:
        """A message typed while a turn ran and taken into that turn: the CLI writes no ``user`` record
        for it, only this attachment (its queue operations hold the same words and give no text)."""
        a = r.get("attachment")
        if not isinstance(a, dict) or a.get("type") != "queued_command" or r.get("isSidechain") is True:
            return
        if a.get("commandMode") != "prompt":  # a queued ``!`` command or slash command: no typed words
            return
        self._copied(r)
        self._user({"promptSource": "queued", "origin": a.get("origin"), "entrypoint": r.get("entrypoint")},
                   a.get("prompt"))

    def _user(self, r: dict, content: object) -> None:
        s = self.view.signals
        source = r.get("promptSource")
        origin = r.get("origin")
        if source == "queued" and isinstance(origin, dict) and origin.get("kind") == "human":
            source = "typed"  # why: typed while a turn ran; sent as the next turn, or inside it (_queued)
        if source is not None or _is_prompt(content):  # why: a tool result says nothing of who drove
            entry = r.get("entrypoint")
            if entry == "cli":
                s.entry_cli += 1
            elif isinstance(entry, str) and entry.startswith("sdk"):
                s.entry_sdk += 1
            else:
                s.entry_other += 1
        if source == "typed":
            s.prompt_typed += 1
            if self.held.count:
                self.held = Budget(self.budget_chars)
            self.scripted = False
        elif source == "sdk":
            s.prompt_sdk += 1
            self.scripted = True
        if isinstance(content, list):
            self._tool_results(content)
        text = text_of(content)
        if not text:
            return
        if r.get("isCompactSummary") is True:
            self.view.compact_summaries += 1
            self._add("[summary of the earlier conversation] " + self._excerpt(summary_body(text), SUMMARY_CAP))
            return
        if r.get("isMeta") is True or r.get("isVisibleInTranscriptOnly") is True:
            return
        if source is not None and source not in _TYPED_SOURCES:
            return
        stripped = text.lstrip()
        if stripped.startswith(_WRAPPERS):
            return
        self.view.user_chars += len(stripped.rstrip())
        self.view.user_messages += 1
        self._add("User: " + self._excerpt(text, self.entry_cap))

    def _tool_results(self, blocks: list) -> None:
        for block in blocks:
            if not isinstance(block, dict) or block.get("type") != "tool_result":
                continue
            if block.get("is_error") is True:
                self.view.tool_errors += 1
                error, found = flat_output(text_of(block.get("content")), TOOL_ERROR_CAP)
                self.view.redacted_early += found
                self._add(f"[tool error: {error}]")

    def _assistant(self, message: dict) -> None:
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            return
        has_text = False
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str) and block["text"].strip():
                has_text = True
                self._add("Assistant: " + self._excerpt(block["text"], self.entry_cap))
            elif block.get("type") == "tool_use":
                self.view.tool_calls += 1
                self._add(tool_call(block))
        if has_text:
            mid = message.get("id")
            if not isinstance(mid, str) or not mid:
                self.view.assistant_messages += 1
            elif mid not in self.seen:
                self.seen[mid] = None
                if len(self.seen) > _SEEN_IDS:
                    self.seen.popitem(last=False)
                self.view.assistant_messages += 1

    def _excerpt(self, text: str, cap: int) -> str:
        """``text`` cut to ``cap``, redacted before the cut (conversation.redacted_excerpt); nothing for
        an entry :meth:`_add` drops (a record before the cursor costs no redaction)."""
        if self.quiet or self.copied:
            return ""
        shown, found = redacted_excerpt(text, cap)
        self.view.redacted_early += found
        return shown

    def _add(self, entry: str) -> None:
        if not self.quiet and not self.copied:
            (self.held if self.scripted else self.budget).add(entry)

    def finish(self) -> None:
        v = self.view
        v.kind = classify(v.signals)
        if v.kind != "interactive":  # why: a headless view keeps its text (lh distill --dry-run shows it)
            for entry in (*self.held.head, *self.held.tail):
                self.budget.add(entry)
        v.text = self.budget.text()
        v.entries = self.budget.count
        v.elided_entries = self.budget.elided
        v.elided_chars = self.budget.elided_chars


def _is_prompt(content: object) -> bool:
    """Whether a user record's content is words (a string, or text blocks), not tool results."""
    if isinstance(content, str):
        return bool(content.strip())
    return isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "text" for b in content)
