"""What the producer hooks share. Enqueue-and-spawn is :func:`lazy_harness.worker.spawn.submit`
(the queue layer's, so ``lh knowledge handoff-now`` uses it without importing a hook)."""

import os


def loop_enabled(env) -> dict | None:
    """The config when the compound loop is on, else None."""
    from lazy_harness import config

    cfg = config.load_fast(env)
    return cfg if cfg["compound_loop"]["enabled"] else None


def off_reason(env) -> str:
    """Why the loop is off, for hooks.log: an invalid config.toml is not a switched-off loop."""
    from lazy_harness import config

    problem = config.invalid(config.load_fast(env))
    return f"config invalid: lh config validate ({problem})" if problem else "compound loop disabled"


def transcript_of(payload: dict) -> str:
    return os.path.abspath(str(payload.get("transcript_path") or ""))
