"""What the producer hooks share. Enqueue-and-spawn is :func:`lazy_harness.queue.submit.submit`
(the queue layer's, so ``lh knowledge handoff-now`` uses it without importing a hook, and no
producer imports the worker). The config :func:`loop_state` loads is passed down to it: one read.

One policy for an invalid config.toml (a wrong value or a syntax error; ADR 0016): distillation
pauses. Producers queue nothing and start no worker, but the session is still watched, so the sweep
queues it once the file is fixed; the worker, started anyway, leaves every task pending. A
config.toml refused unread (ADR 0031; hooks/entry.py) is the same pause: the session is watched.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.config.typed import Config


def loop_state(env: Mapping[str, str]) -> tuple[Config, str | None]:
    """(the config, why this producer queues nothing or None when it may queue)."""
    from lazy_harness import config

    cfg = config.load_fast(env)
    problem = config.invalid(cfg)
    if problem:
        return cfg, f"config invalid: lh config validate ({problem}); distillation paused, session watched"
    if not cfg["compound_loop"]["enabled"]:
        return cfg, "compound loop disabled"
    return cfg, None


def paused(cfg: Config) -> bool:
    """True when an invalid config.toml pauses distillation (nothing queued, no worker started)."""
    from lazy_harness import config

    return config.invalid(cfg) is not None


def watch(payload: dict, env: Mapping[str, str], quiet: bool = False) -> str:
    """Make sure the sweep knows the session (Stop and SessionEnd each time, ``quiet``: no words
    when it is; and while config.toml is refused and not read, hooks/entry.py, so it is queued once the
    file is fixed). Returns words for hooks.log: a record that could not be written (a full disk, a
    denied folder) is named there, and the next hook of the session tries again."""
    from lazy_harness import paths
    from lazy_harness.queue import sweep

    if not payload.get("session_id") or not payload.get("transcript_path"):
        return ""
    try:
        sweep.watch(paths.queue_dir(env), payload, env)
    except OSError as exc:  # why: the sweep is a safety net; the hook still exits 0 and logs this
        return f"; session not watched: {exc}"
    return "" if quiet else "; session watched"


def transcript_of(payload: dict) -> str:
    return os.path.abspath(str(payload.get("transcript_path") or ""))
