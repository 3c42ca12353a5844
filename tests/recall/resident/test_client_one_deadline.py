"""The whole exchange with the answerer (connecting, sending, the hook's own work meanwhile, reading)
is bound by the one timeout the prompt hook gives it, not each step by its own: the hook's own search
run while the answerer works, then a listener that never answers, held a prompt for both in turn."""

import os
import socket
import threading
import time

from lazy_harness import private
from lazy_harness.recall.resident import client

TIMEOUT = 2.0
SLOW = 1.5  # why: under TIMEOUT alone, over it with the next step's wait added


def _listener() -> socket.socket:
    where = private.make(client.folder(), strict=True)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    here = os.getcwd()
    os.chdir(where)  # why: the tmp path is too long for a socket's address
    try:
        server.bind(client.SOCKET_NAME)
    finally:
        os.chdir(here)
    return server


def _ask(tmp_path, meanwhile=None) -> tuple[object, str, float]:
    started = time.monotonic()
    got, why = client.ask({"cwd": str(tmp_path), "prompt": "x"}, dict(os.environ), time.time(), timeout=TIMEOUT,
                          meanwhile=meanwhile)
    return got, why, time.monotonic() - started


def _hold(server: socket.socket, stop: threading.Event) -> None:
    """Accept and keep each connection open, answering nothing, until ``stop``."""
    held = []
    while not stop.is_set():
        try:
            conn, _ = server.accept()
        except OSError:
            break
        held.append(conn)
    for conn in held:
        conn.close()


def test_the_hooks_own_work_meanwhile_counts_against_the_timeout(tmp_path):
    server = _listener()
    server.listen(1)
    stop = threading.Event()
    thread = threading.Thread(target=_hold, args=(server, stop), daemon=True)
    thread.start()
    try:
        got, why, took = _ask(tmp_path, meanwhile=lambda: time.sleep(SLOW))  # the hook's own search
    finally:
        stop.set()
        server.shutdown(socket.SHUT_RDWR)
        server.close()
        thread.join()
    assert got is None and why == client.NO_ANSWER
    assert took < TIMEOUT + 0.9, took  # without one deadline: SLOW + TIMEOUT (3.5 s)

