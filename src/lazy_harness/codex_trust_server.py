"""One ``codex app-server`` process and its JSON-RPC conversation over stdin/stdout: how lh asks
Codex about its hooks (:mod:`lazy_harness.codex_trust`), and :class:`TrustError` when it cannot.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time

from lazy_harness.errors import LhError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

PROGRAM = "codex"
TIMEOUT = 20.0  # seconds for the whole conversation: the app-server starts in well under a second
CLIENT = {"name": "lazy-harness", "version": "1"}


class TrustError(LhError):
    """The app-server could not be asked (absent, too old, an error answer, no answer in time)."""


def find_codex(env: Mapping[str, str] | None = None) -> str | None:
    """The ``codex`` program on the PATH of ``env``, or None."""
    e = os.environ if env is None else env
    return shutil.which(PROGRAM, path=e.get("PATH"))


class AppServer:
    """One ``codex app-server`` process and its JSON-RPC conversation over stdin/stdout.

    why: not proc.run, which runs a command to its end with all of its input given at once; the
    app-server leaves at the end of its input before it answers, so each request waits for its answer
    here. Same discipline as proc.run: its own process group, killed whole on a timeout, and an
    error that names the command, the code and the tail of stderr."""

    def __init__(self, program: str, env: Mapping[str, str], cwd: str, timeout: float | None = None) -> None:
        self.argv = [program, "app-server"]
        self.deadline = time.monotonic() + (TIMEOUT if timeout is None else timeout)
        self.err = tempfile.TemporaryFile()  # noqa: SIM115 -- why: lives as long as the process; close() closes it
        self.buf = b""
        self.next_id = 0
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
                                         cwd=cwd, env=dict(env), start_new_session=True)
        except OSError as exc:
            self.err.close()
            raise TrustError(f"cannot start {' '.join(self.argv)}: {exc.strerror or exc}") from None

    def _send(self, obj: dict) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps(obj) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
        except OSError:
            raise TrustError(self._failure("closed its input")) from None

    def notify(self, method: str, params: dict | None = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, **({"params": params} if params is not None else {})})

    def call(self, method: str, params: dict) -> dict:
        """Send a request and wait for its answer (notifications in between are skipped)."""
        self.next_id += 1
        rid = self.next_id
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            msg = self._message()
            if msg.get("id") != rid:
                continue
            if "error" in msg:
                error = msg["error"] if isinstance(msg["error"], dict) else {"message": msg["error"]}
                raise TrustError(f"codex app-server: {method}: {error.get('message') or error}")
            result = msg.get("result")
            return result if isinstance(result, dict) else {}

    def _message(self) -> dict:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        # why poll, not select: select() refuses a descriptor past 1023, which a process holding many
        # files (an editor's plugin host calling lh) gives the server's pipe
        waiting = select.poll()
        waiting.register(fd, select.POLLIN)
        while b"\n" not in self.buf:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TrustError(self._failure("did not answer in time"))
            if not waiting.poll(max(1, int(left * 1000))):
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                try:
                    self.proc.wait(timeout=1)  # why: its exit code says more than its silence
                except subprocess.TimeoutExpired:
                    pass
                raise TrustError(self._failure("ended before answering"))
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        try:
            msg = json.loads(line.decode("utf-8", "replace"))
        except ValueError:
            return {}  # why: a stray line (a log) is not an answer; the answer still comes
        return msg if isinstance(msg, dict) else {}

    def _failure(self, what: str) -> str:
        code = self.proc.poll()
        self.err.seek(0)
        tail = " ".join(self.err.read()[-600:].decode("utf-8", "replace").split()[-40:])
        return (f"`{' '.join(self.argv)}` {what}" + (f" (exit {code})" if code is not None else "")
                + (f": {tail}" if tail else ""))

    def close(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            self.proc.wait()
        self.err.close()


def open_server(env: Mapping[str, str], cwd: str, timeout: float | None) -> AppServer:
    """An app-server of the ``codex`` on the PATH of ``env``, initialized; TrustError when it cannot."""
    program = find_codex(env)
    if program is None:
        raise TrustError("codex is not on PATH")
    server = AppServer(program, env, cwd, timeout)
    try:
        server.call("initialize", {"clientInfo": CLIENT})
        server.notify("initialized")
    except TrustError:
        server.close()
        raise
    return server
