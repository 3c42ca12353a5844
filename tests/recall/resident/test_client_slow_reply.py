"""A listener of the user's own that sends its answer a byte at a time, each before the last read
times out, holds the prompt hook no longer than the one timeout: the whole answer must come within
it (the hook is then counted as not answered, backs off and replaces the answerer)."""

import os
import socket
import threading
import time

from lazy_harness import private
from lazy_harness.recall.resident import client


def listener() -> socket.socket:
    """A Unix socket bound where the answerer listens, in a folder of the user's own (not listening yet)."""
    where = private.make(client.folder(), strict=True)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    here = os.getcwd()
    os.chdir(where)  # why: the tmp path is too long for a socket's address
    try:
        server.bind(client.SOCKET_NAME)
    finally:
        os.chdir(here)
    return server


def _trickle(server: socket.socket, stop: threading.Event) -> None:
    conn, _ = server.accept()
    with conn:
        while conn.recv(65536):
            pass
        for _ in range(25):  # why a bound: without the fix the hook waits for all of it (5 s)
            if stop.is_set():
                return
            try:
                conn.send(b" ")
            except OSError:
                return
            stop.wait(0.2)


def test_an_answer_trickled_a_byte_at_a_time_costs_one_timeout_and_backs_off(tmp_path):
    server = listener()
    where = client.folder()
    server.listen(1)
    stop = threading.Event()
    thread = threading.Thread(target=_trickle, args=(server, stop), daemon=True)
    thread.start()
    now = time.time()
    started = time.monotonic()
    try:
        got, why = client.ask({"cwd": str(tmp_path), "prompt": "x"}, dict(os.environ), now, timeout=1.0)
        took = time.monotonic() - started
    finally:
        stop.set()
        thread.join()
        server.close()
    assert got is None and why == client.NO_ANSWER
    assert took < 2.0, took
    assert os.stat(os.path.join(where, client.BACKOFF_NAME)).st_mtime > now
