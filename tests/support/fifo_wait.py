"""A reader run beside a FIFO put in a file's place: what it returned, or HUNG when it still waited
after a generous while (a plain ``open`` waits there for a writer that never comes). The FIFOs are
released afterwards either way (opened for writing and closed), so a reader held in its open goes on
and the thread ends with the test instead of holding the run."""

import os
import threading

HUNG = "hung"


def release(path: str) -> None:
    """Open the FIFO ``path`` for writing and for reading, and close it: a reader held in its open sees
    the end of it, a writer held in its open goes on (and its write fails, nobody reading)."""
    for flags in (os.O_WRONLY, os.O_RDONLY):
        try:
            os.close(os.open(path, flags | os.O_NONBLOCK))
        except OSError:
            pass  # why: no reader waits (ENXIO), or no FIFO is there any more


def call_beside(fifos: list[str], fn, *args, seconds: float = 20.0, **kwargs):
    """``fn(*args, **kwargs)``'s result (its exception raised again), or :data:`HUNG`."""
    out: dict = {}

    def run() -> None:
        try:
            out["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - why: raised again in the test's own thread
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    # why the timeout: it is the failure this guards (a hang), not a measure of speed
    thread.join(seconds)
    hung = thread.is_alive()
    while thread.is_alive():
        for path in fifos:
            release(path)
        thread.join(0.2)
    if hung:
        return HUNG
    if "error" in out:
        raise out["error"]
    return out["value"]
