"""lazy-harness: memory for Claude Code sessions."""

__version__ = "0.2.0"

# The names every layer shares, here so that a hook can read them without loading the queue (each
# module a hook loads costs it 0.1 to 0.2 ms): the agents a session can be of, the payload field the
# hook sets for Codex CLI (``queue.task``), and the variable the worker sets in the environment of its
# own ``claude -p`` call, whose hooks then do nothing (``hooks.entry``, ``worker.llm``).
CLAUDE, CODEX = "claude", "codex"
PAYLOAD_AGENT = "lh_agent"
WORKER_MARKER = "LH_WORKER_CALL"
