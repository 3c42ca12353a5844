"""Whether a session start is a headless run, whose ``systemMessage`` nobody sees (``claude -p``, the
Agent SDK, ``codex exec``): what SessionStart tells the person once is then sent but not marked told
(docs/how/read-back.md, "Told once, to a person"). Loaded only when a start has something to tell."""

from __future__ import annotations

from lazy_harness.queue.task import CODEX, agent_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

# why: Claude Code sets CLAUDE_CODE_ENTRYPOINT for its hooks: "cli" in the terminal, "sdk-cli" under
# claude -p (2.1.197, 2.1.332), whose text and json output show a hook's systemMessage to nobody;
# "sdk-ts" and "sdk-py" are the Agent SDK's, a program's run like -p
HEADLESS_ENTRYPOINT = "sdk-"
# why: the rollout's first line (session_meta) is about 22 KB, its base instructions last; originator
# and source come within the first few hundred bytes after the cwd (twice), each at most PATH_MAX
CODEX_META_BYTES = 16384
# why: the starting turn's task_started is followed, before SessionStart runs, only by that turn's
# developer blocks, its environment and its turn_context (resumed.jsonl): a few KB to tens of KB
CODEX_TAIL_BYTES = 131072


def run(payload: dict, env: Mapping[str, str]) -> bool:
    """A run whose systemMessage nobody sees: under Codex CLI ``codex exec`` (:func:`codex_exec`;
    with ``--ephemeral`` it writes no rollout and the payload's transcript_path is null), under Claude
    Code ``claude -p`` and the Agent SDK (CLAUDE_CODE_ENTRYPOINT ``sdk-...``)."""
    if agent_of(payload) == CODEX:
        path = payload.get("transcript_path")
        if not isinstance(path, str) or not path:
            return True
        # why: a resume appends to the rollout of whoever started the session, whose session_meta says
        # that run's kind (``codex exec resume`` of a TUI session read as a person, who never saw what
        # was marked told); the resumed turn's own trigger says who drives it now
        trigger = resumed_trigger(path) if payload.get("source") == "resume" else None
        return trigger == "exec" if trigger in ("exec", "user") else codex_exec(path)
    return str(env.get("CLAUDE_CODE_ENTRYPOINT") or "").startswith(HEADLESS_ENTRYPOINT)


def codex_exec(path: str) -> bool:
    """True when the rollout's first record, ``session_meta`` (written before SessionStart runs),
    names ``codex exec``: originator ``codex_exec`` or source ``exec``. At most CODEX_META_BYTES of a
    regular file are read; one missing, not a file or unreadable counts as interactive."""
    from lazy_harness.regular_file import read_regular  # why: a FIFO in the rollout's place must not hold the hook

    try:
        head = read_regular(path, CODEX_META_BYTES)
    except OSError:
        return False
    # why bytes, not JSON: the line is longer than what is read; a quote inside a JSON string is
    # escaped, so only the record's own keys match
    meta = head.split(b"\n", 1)[0].replace(b'": "', b'":"')
    return b'"type":"session_meta"' in meta and (b'"originator":"codex_exec"' in meta or b'"source":"exec"' in meta)


def resumed_trigger(path: str) -> str | None:
    """``turn_attribution.turn_trigger`` of the rollout's last ``task_started`` (the turn SessionStart runs
    in: written before the hook), ``user`` or ``exec``; None when the last CODEX_TAIL_BYTES hold none,
    it names none, or the file cannot be read."""
    import json

    from lazy_harness.regular_file import open_regular

    try:
        fd, st = open_regular(path)
        with open(fd, "rb") as fh:
            fh.seek(max(0, st.st_size - CODEX_TAIL_BYTES))
            tail = fh.read(CODEX_TAIL_BYTES)
    except OSError:
        return None
    at = max(tail.rfind(b'"type":"task_started"'), tail.rfind(b'"type": "task_started"'))
    if at < 0:
        return None
    end = tail.find(b"\n", at)
    try:
        record = json.loads(tail[tail.rfind(b"\n", 0, at) + 1:end if end >= 0 else len(tail)])
        trigger = record["payload"]["turn_attribution"]["turn_trigger"]
    except (ValueError, TypeError, KeyError, RecursionError):  # why: a line cut by the window, or another shape
        return None
    return trigger if isinstance(trigger, str) else None
