"""Stop: runs after every model turn. Gated (debounce, then growth); never reads the transcript,
never lists a folder. It makes sure the sweep knows the session (one ``stat``; one small write the
first time), so a session killed before its SessionEnd is still found once idle."""

from __future__ import annotations

from lazy_harness import paths, queue
from lazy_harness.hooks import producer
from lazy_harness.queue import submit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def run(payload: dict, env: Mapping[str, str], now: float) -> str:
    cfg, off = producer.loop_state(env)
    if off:
        # why paused, not off: the sweep queues the session once the file is fixed
        return f"skipped: {off}" + (producer.watch(payload, env, quiet=True) if producer.paused(cfg) else "")
    loop = cfg["compound_loop"]
    sid = str(payload.get("session_id") or "")
    if not sid or not payload.get("transcript_path"):
        return "skipped: payload has no session_id or transcript_path"
    # why first, and its failure only noted: the sweep is a safety net; the gate and the enqueue still run
    watched = producer.watch(payload, env, quiet=True)
    reason = queue.gate(paths.queue_dir(env), sid, producer.transcript_of(payload), now,
                        loop["debounce_seconds"], loop["reprocess_min_growth_seconds"])
    if reason:
        return f"skipped: {reason}{watched}"
    return submit.submit(payload, "Stop", False, env, now, cfg)[1] + watched
