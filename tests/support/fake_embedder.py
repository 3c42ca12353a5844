"""The resident embedder in tests: kept from starting (:func:`no_embedder`), or stood in for
(:func:`running`: a thread listening on the real socket, ``embed_client.socket_path``, and speaking
its protocol: JSON lines in, one out). The stand-in answers a ``sims`` request from a table of
entry titles (read from the index the request names, as the real one does) and records every
request (a prompt and the rowids that followed it as one), so hooks run as subprocesses talk to it
as they would to the real one.
"""

import json
import os
import socket
import sqlite3
import sys
import threading
from contextlib import contextmanager

from lazy_harness import paths
from lazy_harness.atomic import atomic_write, ensure_dir
from lazy_harness.recall import embed_client

UNAVAILABLE = "not started in tests (tests/support/fake_embedder.py no_embedder)"
EMBEDDER_EVENTS = ("SessionStart", "UserPromptSubmit")  # the hooks that start the embedder


def no_embedder(env=None) -> str:
    """Mark the embedder unavailable for ``env``'s state folder, the way it marks itself when it cannot
    load its model, so a hook run there (SessionStart, the prompt hook) never starts one: every test
    running those hooks would otherwise leave an embedder process behind, loading the model and
    idling for an hour. The helpers that run hooks call it; a test that wants one started removes the
    file this returns."""
    path = os.path.join(ensure_dir(paths.state_dir(env)), embed_client.UNAVAILABLE_NAME)
    atomic_write(path, f"{UNAVAILABLE}\n{sys.executable}\n")
    return path


def _titles(index_path: str, rowids: list[int]) -> dict[int, str]:
    with sqlite3.connect(f"file:{index_path}?mode=ro", uri=True) as conn:
        return {r: conn.execute("SELECT title FROM entry WHERE rowid = ?", (r,)).fetchone()[0] for r in rowids}


class _Lines:
    """The lines a client sends on one connection."""

    def __init__(self, conn):
        self.conn, self.data = conn, b""

    def next(self) -> bytes:
        while b"\n" not in self.data:
            chunk = self.conn.recv(65536)
            if not chunk:
                line, self.data = self.data, b""
                return line
            self.data += chunk
        line, self.data = self.data.split(b"\n", 1)
        return line


@contextmanager
def running(sims: dict[str, float], env=None):
    """Listen until the block ends; yields the list of requests (decoded), a connection that sent
    nothing (a liveness check) as ``None``."""
    path = embed_client.socket_path(env)
    ensure_dir(os.path.dirname(path))
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(8)
    requests: list = []

    def serve():
        while True:
            conn, _ = listener.accept()
            with conn:
                lines = _Lines(conn)
                line = lines.next()
                request = json.loads(line) if line else None
                if request == {"op": "stop"}:
                    return
                requests.append(request)
                if request is None:
                    continue
                if request.get("op") == "sims" and "rowids" not in request:
                    follow = lines.next()  # the candidates, once the client searched for them
                    if not follow:
                        continue  # it had none worth asking about
                    request["rowids"] = json.loads(follow)["rowids"]
                if request.get("op") == "ping":
                    answer = {"ok": True, "pid": os.getpid()}
                elif request.get("op") == "look":
                    answer = {"ok": True}
                else:
                    titles = _titles(request["index"], request["rowids"])
                    answer = {"sims": {str(r): sims[t] for r, t in titles.items() if t in sims}}
                conn.sendall((json.dumps(answer) + "\n").encode())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield requests
    finally:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:  # the thread leaves on this line
            s.connect(path)
            s.sendall(b'{"op": "stop"}\n')
        thread.join()
        listener.close()
        os.unlink(path)
