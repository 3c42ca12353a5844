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


def _trickle(server: socket.socket, stop: threading.Event, sent_all: list[bool]) -> None:
    conn, _ = server.accept()
    with conn:
        while conn.recv(65536):
            pass
        for _ in range(150):  # why a bound: without the fix the hook waits for all of it (30 s)
            if stop.is_set():
                return
            try:
                conn.send(b" ")
            except OSError:
                return
            stop.wait(0.2)
        sent_all.append(True)


def test_an_answer_trickled_a_byte_at_a_time_costs_one_timeout_and_backs_off(tmp_path):
    server = listener()
    where = client.folder()
    server.listen(1)
    stop, sent_all = threading.Event(), []
    thread = threading.Thread(target=_trickle, args=(server, stop, sent_all), daemon=True)
    thread.start()
    now = time.time()
    try:
        got, why = client.ask({"cwd": str(tmp_path), "prompt": "x"}, dict(os.environ), now, timeout=1.0)
    finally:
        stop.set()
        thread.join()
        server.close()
    assert got is None and why == client.NO_ANSWER
    # why not the time it took: a loaded machine stretches it; the hook gave up while bytes still came
    assert sent_all == [], "the hook waited for the whole trickle"
    assert os.stat(os.path.join(where, client.BACKOFF_NAME)).st_mtime > now
