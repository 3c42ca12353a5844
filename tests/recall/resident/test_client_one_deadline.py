"""The whole exchange with the answerer (connecting, sending, the hook's own work meanwhile, reading)
is bound by the one timeout the prompt hook gives it, not each step by its own: the hook's own work
done while the answerer works (a note written, modules loaded: slow on a busy disk), then a listener
that never answers, held a prompt for both in turn. An answer already sent is still read when that
work took the whole time."""

import os
import socket
import threading
import time

from lazy_harness.recall.resident import client
from tests.recall.resident.test_client_slow_reply import listener

# why these lengths: a loaded machine stretches the exchange before the hook's own work starts
TIMEOUT = 4.0
SLOW = 3.5  # why: under TIMEOUT alone, over it with the next step's wait added


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


def test_the_hooks_own_work_meanwhile_counts_against_the_timeout(tmp_path, monkeypatch):
    # why the read's allowance and not the exchange's length: after SLOW seconds of the hook's own work,
    # whatever the machine's load, one deadline leaves the read at most TIMEOUT - SLOW (or the floor)
    allowed = []
    read_all = client.read_all
    monkeypatch.setattr(client, "read_all", lambda sock, limit, seconds: allowed.append(seconds)
                        or read_all(sock, limit, seconds))
    server = listener()
    server.listen(1)
    stop = threading.Event()
    thread = threading.Thread(target=_hold, args=(server, stop), daemon=True)
    thread.start()
    try:
        got, why, _ = _ask(tmp_path, meanwhile=lambda: time.sleep(SLOW))  # the hook's own work, slow
    finally:
        stop.set()
        server.shutdown(socket.SHUT_RDWR)
        server.close()
        thread.join()
    assert got is None and why == client.NO_ANSWER
    [seconds] = allowed
    assert seconds <= max(TIMEOUT - SLOW, client.READ_FLOOR), seconds  # each step its own: TIMEOUT



def _answer(server: socket.socket, answered: threading.Event) -> None:
    conn, _ = server.accept()
    with conn:
        while conn.recv(65536):
            pass
        conn.sendall(b'{"error": "from the test"}\n')
        conn.shutdown(socket.SHUT_WR)
        answered.set()
        conn.recv(1)  # why: held open until the client closes


def test_an_answer_sent_while_the_hooks_own_work_took_the_whole_time_is_read(tmp_path):
    server = listener()
    server.listen(1)
    answered = threading.Event()
    thread = threading.Thread(target=_answer, args=(server, answered), daemon=True)
    thread.start()

    def slow_work() -> None:
        assert answered.wait(10)
        time.sleep(TIMEOUT)  # why: past the deadline, with the answer waiting in the socket

    try:
        got, why, _ = _ask(tmp_path, meanwhile=slow_work)
    finally:
        server.close()
        thread.join(10)
    # the answer was read and judged (an error answer), not counted as none (which backs off)
    assert why != client.NO_ANSWER, why
    assert not os.path.exists(os.path.join(client.folder(), client.BACKOFF_NAME))
