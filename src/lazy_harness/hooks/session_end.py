"""SessionEnd: fires once when a session really ends. Same enqueue as Stop, forced (no gates)."""

from lazy_harness.hooks import producer


def run(payload: dict, env, now: float) -> str:
    if producer.loop_enabled(env) is None:
        return f"skipped: {producer.off_reason(env)}"
    reason = payload.get("reason")
    name, decision = producer.submit(payload, "SessionEnd", True, env, now)
    return f"{decision} reason={reason}" if name else decision
