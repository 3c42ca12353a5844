"""UserPromptSubmit: give the model the memory entries that match what the user just typed.

Runs before every prompt the user types, so it stays cheap: nothing for a slash command or a prompt
under ``recall.min_prompt_chars``; otherwise the index is searched as it is (``lazy_harness.recall``;
with ``recall.semantic`` the candidates' kept vectors are compared with the prompt's). The hook never
writes the index: the worker and the commands that change memory keep it up to date (ADR 0042); with
no index to search it asks the worker for one (an index task). For a memory of 3,000
entries or more the resident answerer does that work (``recall.resident``, ADR 0029): the hook asks
it first and does the work itself when none answers. Prints one JSON object when an entry passes
the bar and was not shown to this session yet, nothing otherwise; the decision goes to hooks.log
through hooks/entry.py, which also catches and logs any error (the hook always exits 0).

It also makes sure the sweep knows the session (one ``stat``), as Stop does: a session the sweep
forgot while it sat idle is watched again from the next prompt, so a turn killed mid-way after a
long pause is still distilled (docs/adr/0010).
"""

from __future__ import annotations

import os

from lazy_harness import CODEX, PAYLOAD_AGENT, config, paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.config.typed import Config


def _watch(payload: dict, cfg: Config, env: Mapping[str, str]) -> None:
    if not cfg["compound_loop"]["enabled"] and config.invalid(cfg) is None:
        return  # distillation off: nothing to sweep (paused by an invalid config: watched, as Stop does)
    from lazy_harness.queue import sweep

    try:
        sweep.watch(paths.queue_dir(env), payload)
    except OSError:
        pass  # why: the sweep is a safety net; the prompt's recall still runs


def run(payload: dict, env: Mapping[str, str], now: float) -> tuple[str, str | None]:
    """Returns (decision for hooks.log, the JSON line for stdout or None). The resident answerer
    (``recall.resident``) answers when one runs; otherwise this process does the work and, for a
    large memory, starts one for the next prompts."""
    from lazy_harness.recall.prompt import worth_searching as gate

    cfg = config.load_fast(env)
    capped = ""
    if payload.get(PAYLOAD_AGENT) == CODEX:  # why: Codex CLI's own cut on a hook's output (recall.codex_budget)
        from lazy_harness.recall.prompt.recall import codex_budget

        cfg, capped = codex_budget(cfg)
    text = payload.get("prompt")
    why = "recall disabled" if not cfg["recall"]["enabled"] else gate.skip_reason(text, cfg["recall"])
    watched: list[bool] = []

    def watch() -> None:  # also when the search fails below: the session must still be swept
        if not watched:
            watched.append(True)
            _watch(payload, cfg, env)
            # why: the log line's module and the fence the answer is checked against, loaded while
            # the answerer works (0.2 to 0.3 ms off the prompt's wait)
            import lazy_harness.logfile  # noqa: F401
            import lazy_harness.memory.fence  # noqa: F401

    if why:
        watch()
        return f"skipped: {why}", None
    if isinstance(text, str) and len(text) > gate.SEARCHED_CHARS:  # why here too: the answerer's question stays small
        payload = {**payload, "prompt": gate.searched_part(text)}
    # why not capped: the answerer renders with the config's budget, over Codex's
    resident_on = float(cfg["recall"]["resident_minutes"]) > 0 and not capped
    asked = ""
    if resident_on:
        from lazy_harness.recall.resident import client as resident

        # why meanwhile: the sweep's note is written, and the log line's module loaded, while the
        # answerer works (0.4 ms of this hook's 17 at 18,000 entries: modules' loading and a stat)
        got, asked = resident.ask(payload, env, now, cfg=cfg, meanwhile=watch)
        watch()
        if got is not None:
            return _ask_for_index(payload, cfg, env, got[0] + " (resident)"), got[1]
    watch()
    from lazy_harness.recall.prompt import recall as recall_prompt

    facts: dict = {}
    decision, out = recall_prompt.answer(payload, env, now, cfg=cfg, facts=facts)
    decision = _ask_for_index(payload, cfg, env, decision) + capped
    if asked and asked != "none running":
        decision += f" resident=({asked})"
    if resident_on:
        decision = _start_answerer(env, decision, hung=asked == resident.NO_ANSWER, entries=facts.get("entries", 0))
    return decision, out


def _ask_for_index(payload: dict, cfg: Config, env: Mapping[str, str], decision: str) -> str:
    """No index to search (missing, or damaged or another version's and removed): the hook only reads
    it, so it asks the worker, the index's writer, for it (an index task); ``decision`` with what was done.
    Something not a folder where the writer keeps its records (``writer.records_refused``) is named: no
    update can end while it is there."""
    from lazy_harness.recall.index import writer

    if (refused := writer.records_refused(paths.recall_index_file(env))) is not None:
        decision += f" (the index's records: {refused[0]} is {refused[1]}, no update can end; lh doctor)"
    if not any(f" index={state}" in decision for state in ("missing", "damaged", "other-version")):
        return decision
    from lazy_harness.queue import index_task

    cwd = str(payload.get("cwd") or env.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    try:
        said = index_task.ask_worker(env, paths.memory_dir(cwd, env, cfg["memory"]["path"] or None))
    except OSError as exc:
        said = f"index task not queued: {exc}"
    return f"{decision} ({said})"


def _start_answerer(env: Mapping[str, str], decision: str, hung: bool, entries: int) -> str:
    """Start an answerer for the next prompts when the memory is large enough for it to pay, or in
    place of one that did not answer in time (whatever the memory's size); ``decision`` with what
    was done."""
    from lazy_harness.recall.resident import client as resident

    if hung or entries >= resident.SERVE_FROM:
        try:
            started = resident.start(env, replace=hung)  # None while one runs (a slow one, or one leaving)
        except OSError as exc:
            started = None
            decision += f" resident=not started ({exc.strerror or exc})"
        if started:
            decision += f" resident={started}"
    return decision
