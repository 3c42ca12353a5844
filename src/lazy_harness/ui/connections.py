"""Who may hold up the page of ``lh ui`` (ui/server.py): nobody, token or not.

A connection has ``HEAD_TIMEOUT`` seconds from its accept
to send its whole request head, else it is closed. At most ``cap()`` connections are handled at once;
a new one past the cap closes the oldest still waiting for its head, or itself when every one has
sent its head. (The server's own part, in ui/server.py: out of file descriptors, accept backs off
instead of spinning; a client that goes away, a broken pipe, a reset or a timeout, is no news for the
terminal.)
"""

from __future__ import annotations

import socket
import threading

HEAD_TIMEOUT = 5.0  # seconds from accept to a complete request head (request line and headers)
MAX_CONNECTIONS = 64  # handled at once, and at most a quarter of the open files allowed (``cap``)


def cap() -> int:
    """How many connections are handled at once: ``MAX_CONNECTIONS``, or a quarter of the open files
    this process may hold when that is fewer (the page itself reads files while it answers)."""
    import resource

    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(2, min(MAX_CONNECTIONS, soft // 4))


class Connections:
    """The connections being handled, oldest first, each with the deadline of its request head (None
    once the head is in). Thread-safe: the accept loop admits and expires, handlers say heard and done."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.lock = threading.Lock()
        self.live: dict[socket.socket, float | None] = {}

    def admit(self, conn: socket.socket, now: float) -> bool:
        """Whether ``conn`` is handled: at the cap, the oldest connection still waiting for its head is
        closed to make room; when every one has sent its head, ``conn`` is not handled."""
        with self.lock:
            if len(self.live) >= self.most and not self._drop_oldest():
                return False
            self.live[conn] = now + HEAD_TIMEOUT
            return True

    def heard(self, conn: socket.socket) -> None:
        with self.lock:
            if conn in self.live:
                self.live[conn] = None

    def done(self, conn: socket.socket) -> None:
        with self.lock:
            self.live.pop(conn, None)

    def expire(self, now: float) -> None:
        """Close every connection whose head did not arrive by its deadline."""
        with self.lock:
            late = [c for c, deadline in self.live.items() if deadline is not None and deadline <= now]
            for conn in late:
                del self.live[conn]
                _cut(conn)

    def drop_oldest(self) -> bool:
        with self.lock:
            return self._drop_oldest()

    def _drop_oldest(self) -> bool:
        oldest = next((c for c, deadline in self.live.items() if deadline is not None), None)
        if oldest is None:
            return False
        del self.live[oldest]
        _cut(oldest)
        return True


def _cut(conn: socket.socket) -> None:
    """End ``conn`` for its handler: its blocked read returns the end of the stream, and the handler
    closes it (not closed here: the descriptor is the handler's until it finishes)."""
    try:
        conn.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
