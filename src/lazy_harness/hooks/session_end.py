"""SessionEnd: fires once when a session really ends. Same enqueue as Stop, forced (no gates)."""

from lazy_harness import paths, queue
from lazy_harness.hooks import producer
from lazy_harness.worker import spawn


def run(payload: dict, env, now: float) -> str:
    if producer.loop_enabled(env) is None:
        return f"skipped: {producer.off_reason(env)}"
    reason = payload.get("reason")
    try:
        queue.watch(paths.queue_dir(env), payload)  # the sweep's net, should the task find no transcript
    except OSError:
        pass
    name, decision = spawn.submit(payload, "SessionEnd", True, env, now)
    return f"{decision} reason={reason}" if name else decision
