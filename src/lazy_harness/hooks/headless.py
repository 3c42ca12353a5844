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


def run(payload: dict, env: Mapping[str, str]) -> bool:
    """A run whose systemMessage nobody sees: under Codex CLI ``codex exec`` (:func:`codex_exec`;
    with ``--ephemeral`` it writes no rollout and the payload's transcript_path is null), under Claude
    Code ``claude -p`` and the Agent SDK (CLAUDE_CODE_ENTRYPOINT ``sdk-...``)."""
    if agent_of(payload) == CODEX:
        path = payload.get("transcript_path")
        return codex_exec(path) if isinstance(path, str) and path else True
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
