"""Stop: runs after every model turn. Gated (debounce, then growth); never reads the transcript."""

from lazy_harness import paths, queue
from lazy_harness.hooks import producer


def run(payload: dict, env, now: float) -> str:
    cfg = producer.loop_enabled(env)
    if cfg is None:
        return f"skipped: {producer.off_reason(env)}"
    loop = cfg["compound_loop"]
    sid = str(payload.get("session_id") or "")
    if not sid or not payload.get("transcript_path"):
        return "skipped: payload has no session_id or transcript_path"
    reason = queue.gate(paths.queue_dir(env), sid, producer.transcript_of(payload), now,
                        loop["debounce_seconds"], loop["reprocess_min_growth_seconds"])
    if reason:
        return f"skipped: {reason}"
    return producer.submit(payload, "Stop", False, env, now)[1]
