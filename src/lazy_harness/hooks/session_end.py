"""SessionEnd: fires once when a session really ends. Same enqueue as Stop, without its gates."""

from __future__ import annotations

from lazy_harness.hooks import producer
from lazy_harness.queue import submit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

REASON_CHARS = 60  # of the payload's reason in hooks.log (Claude Code's longest: bypass_permissions_disabled)


def shown_reason(reason: object) -> str:
    """The payload's ``reason`` as hooks.log shows it: ``?`` when missing or empty (as SessionStart shows a
    missing source), else on one line of at most ``REASON_CHARS`` characters, whatever its type."""
    if reason is None or reason == "":
        return "?"
    from lazy_harness import logfile  # why here: entry.main imports it for the log line anyway

    # why one_line: logfile.write takes out \n, \r and controls, but not U+2028, U+2029 or a blank run
    # (str.splitlines and editors break a line at the first two); and it caps a reason of any size
    try:
        return logfile.one_line(reason, REASON_CHARS) or "?"
    except (RecursionError, ValueError):  # why: a list nested hundreds deep; the task is queued already
        return "?"


def run(payload: dict, env: Mapping[str, str], now: float) -> str:
    cfg, off = producer.loop_state(env)
    if off and not producer.paused(cfg):
        return f"skipped: {off}"
    watched = producer.watch(payload, env, quiet=True)  # the sweep's net, should the task find no transcript
    if off:  # paused by an invalid config.toml: watched above, so the sweep queues it once fixed
        return f"skipped: {off}{watched}"
    name, decision = submit.submit(payload, "SessionEnd", True, env, now, cfg)
    return f"{decision} reason={shown_reason(payload.get('reason'))}{watched}" if name else decision + watched
