"""``python -m lazy_harness.worker``: what the hooks spawn. Drains the queue once and exits."""

import os
import sys


def _why_not_needed(queue_dir: str) -> str:
    """Why a spawned worker leaves at once, for worker.log: the lock's holder, else no task."""
    from lazy_harness.atomic import held
    from lazy_harness.queue.task import LOCK_NAME

    if held(os.path.join(queue_dir, LOCK_NAME)):
        return "another worker holds the lock: it drains the queue"
    return "nothing waiting"


def main() -> int:
    # why: a detached child must not keep pipes of Claude Code open past the hook's exit
    os.closerange(3, 256)
    from lazy_harness import logfile, paths, private, queue

    unsafe = private.first_problem()
    if unsafe:  # why: never read a queue or write memory another user can write (ADR 0031)
        logfile.write(logfile.WORKER, f"worker {os.getpid()}: not started: {unsafe}; see lh doctor")
        return 0
    # why: a worker spawned while another holds the lock (or with nothing to do) leaves before
    # importing the loop and the pipeline: ~30 ms instead of ~130 ms per spawned hook
    if not queue.needs_worker(paths.queue_dir()):
        logfile.write(logfile.WORKER, f"worker {os.getpid()}: {_why_not_needed(paths.queue_dir())}")
        return 0
    from lazy_harness.worker import loop

    try:
        stats = loop.run(linger=True)
    except Exception as exc:  # the log is the only channel a detached worker has
        logfile.write(logfile.WORKER, f"worker {os.getpid()} crashed: {type(exc).__name__}: {exc}")
        import traceback

        traceback.print_exc()
        return 1
    if stats.finished or stats.waiting:
        # why the waiting too: a worker whose every task went back to wait (a spend cap) left no line
        # of its own, and lh status named it with "0 processed"
        logfile.write(logfile.WORKER, f"worker {os.getpid()}: done: {stats.processed} processed, "
                                      f"{stats.skipped} skipped, {stats.failed} failed, {stats.waiting} waiting")
    return 0


if __name__ == "__main__":
    sys.exit(main())
