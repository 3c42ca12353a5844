"""What the page's buttons do: the functions ``lh memory forget | close | undo | approve`` call
(:mod:`lazy_harness.memory.by_hand`), journalled the same way, each answering one line for the page.

A new action is one function ``(project, form, cfg, now) -> str`` and one line in :data:`ACTIONS`;
an ``LhError`` it raises is shown on the page as the CLI would print it. The undo a change offers works
in the folder ``lh ui`` runs in, also for another project's run (:func:`_undo`).
"""

from __future__ import annotations

from lazy_harness.memory import by_hand
from lazy_harness.ui.reading import Project

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.config.typed import Config


def _field(form: dict, name: str, default: str | None = None) -> str:
    from lazy_harness.errors import LhError

    value = form.get(name, default)
    if not value:
        raise LhError(f"the form has no {name!r}")
    return value


def _undo(p: Project, run: str) -> str:
    """How to undo ``run``: a command that works in the folder ``lh ui`` runs in. why: a bare ``lh memory
    undo RUN`` looks for the run in the journal of the project holding the working folder; for another
    project's run it names the project's folder (``p.folder``: ``reading.folder_of``), or, when none is
    known, the page's own Undo button."""
    import shlex

    if p.current:
        return f"lh memory undo {run}"
    button = f'the Undo button of run {run} under "Changes, and undo"'
    return f"{button}, or lh memory undo {run} --project {shlex.quote(p.folder)}" if p.folder else button


def forget(p: Project, form: dict, cfg: Config, now: float) -> str:
    eid = _field(form, "id").strip()
    run, shown = by_hand.forget_showing(p.memory_dir, p.learnings_dir, p.name, eid,
                                        form.get("reason") or "forgotten in lh ui", now)
    return by_hand.forget_said(eid, run and _undo(p, run), shown)


def close(p: Project, form: dict, cfg: Config, now: float) -> str:
    hid, text, run = by_hand.close(p.memory_dir, p.name, _field(form, "item"),
                                   form.get("reason") or "closed in lh ui", now)
    from lazy_harness.memory import held_shown

    # why: said as lh memory close says it, redacted when it holds a secret (ADR 0062)
    return f"closed {hid}: {held_shown.item_closed(p.memory_dir, text)} (undo: {_undo(p, run)})"


def undo(p: Project, form: dict, cfg: Config, now: float) -> str:
    from lazy_harness.memory import project_runs

    # why: a run journaled under the project's earlier key is undone here, as lh memory undo does it
    run = project_runs.to_undo(p.folder, p.memory_dir, p.name, _field(form, "run"))
    data, restored, problems = by_hand.undo(p.memory_dir, p.learnings_dir, run, cfg["handoff"]["stale_days"], now)
    said, left = by_hand.undo_said(data, restored, problems)
    return "; ".join([said, *left])  # why: the page has no stderr: the files left alone follow the line


def approve(p: Project, form: dict, cfg: Config, now: float) -> str:
    from lazy_harness.memory import state

    eid = _field(form, "id").strip()
    told: list[str] = []
    run, _ = by_hand.approve(p.memory_dir, p.learnings_dir, p.name, [eid], form.get("reason") or "approved in lh ui",
                             now, cross=state.policy(cfg), told=told)
    return "; ".join([f"approved {eid} (undo: {_undo(p, run)})", *dict.fromkeys(told)])


ACTIONS = {"forget": forget, "close": close, "undo": undo, "approve": approve}


def index_after(p: Project, env: Mapping[str, str] | None) -> str | None:
    """The recall index brought up to date with what an action wrote (ADR 0042): now, or by the
    worker when another writer holds it. Returns what to say when it failed, as the commands say it
    (the page has no stderr), else None."""
    from lazy_harness.queue import index_task
    from lazy_harness.recall.index import writer

    try:
        if writer.after_write(env, p.memory_dir, p.learnings_dir) is None:
            index_task.ask_worker(env, p.memory_dir)
    except Exception as exc:  # why: the change is written; the next session start finds the index behind
        return f"lh: the search index was not updated ({type(exc).__name__}: {exc}); the next session start asks for it"
    return None
