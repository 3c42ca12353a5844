"""A Codex CLI session's digest: :mod:`digest`'s text rendered again within the room Codex CLI gives a
hook's output (its SessionStart hook and ``lh memory show --agent codex``). Hot path, as :mod:`digest`."""

from __future__ import annotations

from lazy_harness.recall.readback.digest import digest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.shapes import Env

# why: Codex CLI replaces a hook's output above about 2,500 tokens with a preview; tokens follow bytes
# more than characters: 6,000 bytes stay near 2,000 tokens in any script (codex 0.171.0)
CODEX_CONTEXT_BYTES = 6000
CODEX_FITS = 3  # renders again at most, each with less room, to bring a text within CODEX_CONTEXT_BYTES


def codex_fit(cwd: str, cfg: Config, env: Env, now: float, source: str, text: str | None, stats: dict | None,
              session: str | tuple[str, ...] = "", trouble: Callable[[], tuple[int, str | None]] | None = None
              ) -> tuple[str | None, dict | None, str]:
    """While ``text``'s UTF-8 is over CODEX_CONTEXT_BYTES, render it again with ``context.max_chars``
    scaled down by as much, at most CODEX_FITS times: (text, stats, the words for hooks.log)."""
    size = len(text.encode("utf-8")) if text else 0
    again = ""
    for _ in range(CODEX_FITS):
        if size <= CODEX_CONTEXT_BYTES or stats is None:
            break
        budget = int(stats["max_chars"]) * CODEX_CONTEXT_BYTES * 97 // (size * 100)
        smaller: Config = {**cfg, "context": {**cfg["context"], "max_chars": budget}}
        text, stats = digest(cwd, smaller, env, now, source, session, trouble)
        if text:  # why: the footer would name this smaller room as the person's context.max_chars
            text = text.replace(f"(context.max_chars is {budget})", "(the room Codex CLI gives a hook's text)")
        size = len(text.encode("utf-8")) if text else 0
        again = f", rendered again within {budget} chars"
    over = "; over it still: Codex shows a preview" if size > CODEX_CONTEXT_BYTES else ""
    return text, stats, f" (codex: {size}/{CODEX_CONTEXT_BYTES} bytes{again}{over})" if text else ""
