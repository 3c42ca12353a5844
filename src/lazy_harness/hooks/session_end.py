"""SessionEnd: fires once when a session really ends. Same enqueue as Stop, without its gates."""

from __future__ import annotations

from lazy_harness import paths
from lazy_harness.hooks import producer
from lazy_harness.queue import submit, sweep

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def run(payload: dict, env: Mapping[str, str], now: float) -> str:
    cfg, off = producer.loop_state(env)
    if off and not producer.paused(cfg):
        return f"skipped: {off}"
    reason = payload.get("reason")
    try:
        sweep.watch(paths.queue_dir(env), payload)  # the sweep's net, should the task find no transcript
    except OSError:
        pass
    if off:  # paused by an invalid config.toml: watched above, so the sweep queues it once fixed
        return f"skipped: {off}"
    name, decision = submit.submit(payload, "SessionEnd", True, env, now, cfg)
    return f"{decision} reason={reason}" if name else decision
