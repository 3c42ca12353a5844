"""The checks run over what a persist wrote (ADR 0024, 0039, 0046): the rules' hold, the learned
check, the holds of what came past the answer's cap, then the model check. What they read is plain
data (:func:`owed_checks`), saved with the persist's commit (worker/owed.py), so a worker killed
before they ran leaves them to the next one (worker/persist.py ``settle_owed``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.apply import Report
    from lazy_harness.memory.plan import Plan
    from lazy_harness.memory.shapes import Env

    Log = Callable[[str], object]  # one line for worker.log
    Sleep = Callable[[float], object]


def owed_checks(plan: Plan, report: Report, over: list, dirs: tuple[str, str], meta: dict) -> dict:
    """What the checks after a persist read (worker/owed.py): the entries it wrote, their texts, and
    those of them past the answer's cap; plain data, so a worker killed before the checks ran leaves
    them to the next one."""
    from lazy_harness.memory import held_written

    return {"memory_dir": dirs[0], "learnings_dir": dirs[1], "meta": meta,
            "written": [list(w) for w in held_written.written_records(plan, report)],
            "texts": [list(t) for t in held_written.written_texts(plan, report)],
            "over": [list(f) for f in held_written.scan_over_cap(plan, report, over)] if over else []}


def run_checks(owed: dict, cfg: Config, env: Env | None, now: float, sleep: Sleep, log: Log) -> int:
    """The hold check, the cap's holds and the model check over what a persist wrote (``owed_checks``);
    returns how many entries they held."""
    held_ids = _hold(owed, now, log, bool(cfg.get("trust", {}).get("learned_check", True)))
    return len(held_ids or ()) + _model_check(owed, held_ids, cfg, env, now, sleep, log)


def _hold(owed: dict, now: float, log: Log, learned: bool = True) -> set[str] | None:
    """Hold what the session wrote that reads as an instruction to the agent (memory/held.py, ADR 0024),
    by the rules and, when ``learned``, by the learned check (worker/learned_check.py, ADR 0046), and
    what it wrote past the per-session cap; returns the ids held (None if the check failed).
    why: after the persist, not inside it: the read-time check leaves such an entry out meanwhile."""
    from lazy_harness.memory import held, trust

    written = [tuple(w) for w in owed["written"]]
    try:
        verdicts = trust.check_session([(w[3], w[4]) for w in written])  # one session's entries together
        found = [(w[0], w[1], w[2], why) for w, why in zip(written, verdicts, strict=True) if why]
        if learned:
            found += _learned(written, {f[1] for f in found}, log)
        seen = {eid for _, eid, _, _ in found}
        found += [tuple(f) for f in owed["over"] if f[1] not in seen]
        run = held.hold(owed["memory_dir"], owed["learnings_dir"], found, owed["meta"]["project"], now,
                        "written by the worker")
    except Exception as exc:  # why: the entries are written; SessionStart's check holds them if this failed
        log(f"hold check failed: {type(exc).__name__}: {exc}")
        return None
    for kind, eid, _, why in found:
        log(f"held {kind} {eid}: {why}" + (f" (run {run})" if run else ""))
    return {eid for _, eid, _, _ in found}


def _learned(written: list[tuple], skip: set[str], log: Log) -> list[tuple[str, str, str, str]]:
    """What the learned check holds of what the persist wrote and the rules let through; a failure of
    its own (a damaged weights file) is logged and holds nothing, the rules' holds stand."""
    from lazy_harness.worker import learned_check

    try:
        return learned_check.scan(written, skip)
    except Exception as exc:
        log(f"learned check failed: {type(exc).__name__}: {exc}")
        return []


def _model_check(owed: dict, held_ids: set[str] | None, cfg: Config, env: Env | None, now: float, sleep: Sleep,
                 log: Log) -> int:
    """The second look (worker/model_check.py, ADR 0039): a separate model call judges what the session
    wrote that the rules did not hold; what it judges hostile is held too; returns how many. why: after
    the persist and the rule hold, and never failing the task: the entries are written whatever the call does."""
    from lazy_harness.memory import held
    from lazy_harness.worker import model_check

    if held_ids is None or not cfg.get("trust", {}).get("model_check", True):
        return 0
    memory_dir, meta = owed["memory_dir"], owed["meta"]
    try:
        entries = model_check.to_judge([tuple(t) for t in owed["texts"]], memory_dir, held_ids, env)
        found = model_check.run(entries, cfg, env, meta, log, now, sleep)
        run = held.hold(memory_dir, owed["learnings_dir"], found, meta["project"], now, "judged by the model check")
    except Exception as exc:
        log(f"model check failed: {type(exc).__name__}: {exc}")
        return 0
    for kind, eid, _, why in found:
        log(f"held {kind} {eid}: {why}" + (f" (run {run})" if run else ""))
    return len(found)
