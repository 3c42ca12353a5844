"""The worker and the queue as ``lh status``, ``lh doctor`` and ``lh hooks status`` say them: what
worker.json says of the last run, a worker running, lingering to retry or dead as the queue's locks and
files say, the last successful distillation, and the pending and failed tasks."""

from __future__ import annotations

import os
from dataclasses import dataclass

from lazy_harness import logfile, paths, queue
from lazy_harness.regular_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def worker_state(env: Mapping[str, str] | None = None) -> dict:
    """``<queue>/state/worker.json`` as the worker left it; {} when absent; ``{UNREADABLE: why}`` when
    it cannot be read (not "never ran": the worker did run)."""
    import json

    path = os.path.join(paths.state_dir(env), "worker.json")
    try:  # why open_regular: a FIFO in its place held lh status and lh doctor in open(); now named unreadable
        with open(open_regular(path)[0], encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        return {UNREADABLE: f"cannot read {path}: {exc.strerror or exc}"}
    except ValueError:
        return {UNREADABLE: f"cannot read {path}: not the JSON the worker writes (damaged); its next run writes it"}
    return data if isinstance(data, dict) else {UNREADABLE: f"cannot read {path}: not a JSON object"}


UNREADABLE = "_unreadable"


def pending_tasks(env: Mapping[str, str] | None = None) -> list[str]:
    """queue.pending, but a queue path that is not a folder reads as empty (doctor reports it)."""
    try:
        return queue.pending(paths.queue_dir(env))
    except OSError:
        return []


def failed_tasks(env: Mapping[str, str] | None = None) -> list[str]:
    """The failed task files, counted as ``lh queue`` counts them (a folder named like a task is none)."""
    from lazy_harness.cli.queue import task_names

    try:
        return task_names(paths.queue_dir(env), queue.FAILED)
    except OSError:
        return []


@dataclass
class WorkerReport:
    """The worker as status, doctor and hooks status say it: ``kind`` (running, lingering, died,
    unreadable, never, ran), the ``worker:`` line and the last successful distillation."""

    kind: str
    line: str
    success: str


def describe_worker(state: dict, queue_dir: str | None = None) -> tuple[str, str]:
    """(worker line, last successful distillation line) of :func:`worker_report`."""
    report = worker_report(state, queue_dir)
    return report.line, report.success


def worker_report(state: dict, queue_dir: str | None = None) -> WorkerReport:
    """The worker for status, doctor and hooks status. With ``queue_dir`` the queue is looked at too
    (its locks probed, never waited on): a worker holding its lock is "running", whatever worker.json
    (written when a run ends) says of the run before; one lingering to retry waiting tasks, which holds
    no queue lock while it sleeps, is "waiting to retry"; a worker that took the queue and died
    without giving it back (its ``worker.owner`` left) "died"; and the newest distillation in done/
    is the last success when worker.json has none as recent (a run still going, a foreground lh distill)."""
    kind, worker = _worker_now(queue_dir) if queue_dir else ("", "")
    if not kind:
        kind, worker = _worker_before(state)
    return WorkerReport(kind, worker, _last_success(state, queue_dir))


def _worker_now(queue_dir: str) -> tuple[str, str]:
    """(kind, line) of a worker running, lingering or dead as the queue's files say; ("", "") for none."""
    running = worker_running(queue_dir)
    if running is not None:
        return "running", _running_line(queue_dir, running)
    lingering = worker_lingering(queue_dir)
    if lingering is not None:
        pid, wake = lingering
        return "lingering", ("waiting to retry" + (f" at {logfile.stamp(wake)}" if wake is not None else "")
                             + (f" (pid {pid})" if pid else ""))
    died = worker_died(queue_dir)
    if died is not None:
        pid, since = died
        return "died", (f"last worker (pid {pid}) died (it took the queue at {logfile.stamp(since)} and never "
                        "released it)")
    return "", ""


def _worker_before(state: dict) -> tuple[str, str]:
    """(kind, line) of the last run as worker.json says it."""
    if state.get(UNREADABLE):
        return "unreadable", str(state[UNREADABLE])
    if not state.get("started") and not state.get("finished"):
        return "never", "never ran"
    worker = f"last ran {state.get('started', '?')} to {state.get('finished', '?')}"
    if state.get("pid"):
        worker += f" (pid {state['pid']})"
    if "processed" in state or "failed" in state:
        worker += f": {state.get('processed', 0)} processed, {state.get('failed', 0)} failed"
    return "ran", worker


def _last_success(state: dict, queue_dir: str | None) -> str:
    done = last_distilled(queue_dir) if queue_dir else None
    success = None if state.get(UNREADABLE) else state.get("last_success")
    if done is not None and (not success or done >= _epoch(str(success)) + 1):
        # why no task id: it holds its session's short id, and the newest may be another project's
        # session, read on lh status's screen as one of this project's
        return logfile.stamp(done)
    if success:
        task = state.get("last_success_task")
        return f"{success}" + (f" (task {task})" if task else "")
    return "unknown" if state.get(UNREADABLE) else "never"


def worker_lingering(queue_dir: str) -> tuple[int | None, float | None] | None:
    """(pid, when it wakes) of the worker lingering now to retry waiting tasks (worker/loop.py
    ``LINGERING``, locked while it sleeps), None for none; a part it did not record reads as None."""
    from lazy_harness.atomic import held
    from lazy_harness.worker.loop import LINGERING

    path = os.path.join(queue_dir, LINGERING)
    if not held(path):
        return None
    try:  # why open_regular: a FIFO in its place held lh status in open()
        with open(open_regular(path)[0], encoding="utf-8") as fh:
            pid_text, _, wake_text = fh.read().strip().partition(" ")
    except OSError:
        return None, None
    pid = int(pid_text) if pid_text.isdigit() else None
    try:
        wake: float | None = float(wake_text)
    except ValueError:
        wake = None
    return pid, wake


def worker_died(queue_dir: str) -> tuple[int, float] | None:
    """(pid, when it took the queue) of the last worker to take the queue when it died holding it (a
    SIGKILL, the OOM killer): its ``queue.consume.OWNER`` record is left, which a worker removes
    before it lets the lock go, and no worker holds the lock. None otherwise."""
    from lazy_harness.queue.consume import holder

    running, pid, since = holder(queue_dir)
    return None if running or pid is None or since is None else (pid, since)


def _epoch(stamp: str) -> float:
    """A worker.json time (``logfile.stamp``) as epoch seconds; one that does not parse reads as the
    oldest, so done/ answers."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(stamp).timestamp()
    except ValueError:
        return float("-inf")


@dataclass
class Running:
    """The worker holding the queue's lock now: its pid and since when it holds the queue, when it
    recorded itself as the holder (``queue.consume.OWNER``)."""

    pid: int | None = None
    since: float | None = None


def worker_running(queue_dir: str) -> Running | None:
    """The worker holding the lock of ``queue_dir`` now, or None (``queue.consume.holder``); its pid
    unknown when it did not record itself (yet)."""
    from lazy_harness.queue.consume import holder

    running, pid, since = holder(queue_dir)
    return Running(pid, since) if running else None


def _running_line(queue_dir: str, running: Running) -> str:
    line = "running" + (f" (pid {running.pid})" if running.pid else "")
    if running.since is None:
        return line
    counts = [_finished_since(queue.folder(queue_dir, which), running.since) for which in (queue.DONE, queue.FAILED)]
    return line + f" since {logfile.stamp(running.since)}: so far {counts[0]} done, {counts[1]} failed"


def _finished_since(folder: str, since: float) -> int:
    """How many task files in ``folder`` were written at ``since`` or later (a stat each, no read)."""
    count = 0
    try:
        with os.scandir(folder) as it:
            for entry in it:
                try:
                    count += entry.name.endswith(queue.SUFFIX) and entry.stat().st_mtime >= since
                except OSError:
                    continue  # moved on meanwhile
    except OSError:
        return 0
    return count


def last_distilled(queue_dir: str) -> float | None:
    """When the newest distillation in done/ (outcome processed) finished: its file's mtime, written
    as it finished. Among the newest ``queue.probe.DONE_LOOKED_AT`` task files (names sort by time);
    None when there is none."""
    from lazy_harness.queue.probe import DONE_LOOKED_AT

    done = queue.folder(queue_dir, queue.DONE)
    try:
        names = sorted((n for n in os.listdir(done) if n.endswith(queue.SUFFIX)), reverse=True)
    except OSError:
        return None
    best: float | None = None
    for name in names[:DONE_LOOKED_AT]:
        path = os.path.join(done, name)
        try:
            mtime = os.stat(path).st_mtime
            if (best is None or mtime > best) and queue.read_task(path).get("outcome") == "processed":
                best = mtime
        except OSError:
            continue
    return best
