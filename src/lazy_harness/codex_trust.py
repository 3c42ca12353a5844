"""Trust our Codex CLI hooks without its UI, and read whether they are trusted.

Codex runs a user's hook only once it is trusted: the hook's ``trusted_hash`` in config.toml
(``hooks.state."<key>".trusted_hash``) equals the hash of its definition (command, timeout, matcher).
Its TUI asks in ``/hooks``; without it, ``codex app-server`` speaks JSON-RPC over stdio: ``initialize``,
``hooks/list`` (each hook with its ``key``, ``currentHash`` and ``trustStatus``) and
``config/batchWrite``, which writes the hash as Codex itself would. A changed command (another
interpreter, a new folder) has a new hash and needs trusting again: ``lh hooks install --agent codex``
does it each time. When ``hooks/list`` lists none of our hooks, Codex's reason is raised as a
:class:`BlockedError`: it refuses the file, it cannot load its configuration, or ``config/read`` says
its hooks are off. Uninstall then still finds our trust entries by the hash Codex gives our hooks'
definitions (:func:`forget`). See docs/adr/0045-codex-hooks-install-and-trust.md.
"""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import time

from lazy_harness import settings, settings_write
from lazy_harness.errors import LhError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

PROGRAM = "codex"
TIMEOUT = 20.0  # seconds for the whole conversation: the app-server starts in well under a second
TRUSTED = "trusted"
CLIENT = {"name": "lazy-harness", "version": "1"}


class TrustError(LhError):
    """The app-server could not be asked (absent, too old, an error answer, no answer in time)."""


class BlockedError(TrustError):
    """Codex lists none of our hooks and says (or its config says) why: it runs none of them.
    ``effect`` says what that means for the person, after the message."""

    effect = "Codex runs none of its hooks, ours or yours"


class RefusedError(BlockedError):
    """Codex refuses our hooks file (``hooks/list`` lists none of its hooks and warns why: an unknown
    top-level key, a wrong type): ``reason`` is Codex's words, after the file's path."""

    def __init__(self, path: str, reason: str) -> None:
        self.path, self.reason = path, reason
        key = reason.removeprefix("unknown field `").split("`", 1)[0] if reason.startswith("unknown field `") else ""
        hint = (f"remove `{key}` from {path} or move it elsewhere (Codex reads only \"description\" and "
                f"\"hooks\" there)" if key else f"fix {path} where Codex says")
        super().__init__(f"Codex refuses {path}: {reason}", f"{hint}, then run lh hooks install --agent codex")


class ConfigUnreadableError(BlockedError):
    """Codex cannot load its configuration (a typo in config.toml: ``<file>:<line>:<column>: <what>``,
    as ``hooks/list`` reports it under the cwd): ``reason`` is Codex's words, verbatim."""

    effect = "Codex lists none of our hooks, and codex itself stops at the same error"

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"Codex cannot load its configuration: {reason}",
                         "fix it where Codex says, then run lh hooks install --agent codex")


class HooksOffError(BlockedError):
    """The person's configuration turns Codex's hooks off (``[features] hooks = false``): ``path`` is
    the file the effective setting comes from, as ``config/read`` names it."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(f"Codex's hooks are off ([features] hooks = false in {path})",
                         f"set hooks = true under [features] in {path} (or delete that line), then run "
                         "lh hooks install --agent codex")


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
        while b"\n" not in self.buf:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TrustError(self._failure("did not answer in time"))
            if not select.select([fd], [], [], left)[0]:
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


def _open(env: Mapping[str, str], cwd: str, timeout: float | None) -> AppServer:
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


def _ours(server: AppServer, hooks_file: str, cwd: str, everyone: bool = False) -> list[dict]:
    """Our hooks in ``hooks_file`` as the app-server lists them (key, eventName, command, currentHash,
    trustStatus); with ``everyone``, the person's of that file too."""
    result = server.call("hooks/list", {"cwds": [cwd]})
    data = result.get("data")
    if not isinstance(data, list):
        raise TrustError("codex app-server: hooks/list: no hook list in the answer (an older codex?)")
    real = os.path.realpath(hooks_file)
    found: list[dict] = []
    listed = False  # any hook of the file, ours or the person's
    for block in data:
        for hook in (block.get("hooks") if isinstance(block, dict) else None) or []:
            if (isinstance(hook, dict) and isinstance(hook.get("sourcePath"), str)
                    and os.path.realpath(hook["sourcePath"]) == real):
                listed = True
                if (everyone or settings.is_ours(hook)) and hook.get("key") not in {h.get("key") for h in found}:
                    found.append(hook)
    if not listed:
        _why_none(server, data, hooks_file, cwd)
    return found


def _why_none(server: AppServer, data: list, hooks_file: str, cwd: str) -> None:
    """Codex lists none of the hooks of ``hooks_file``: raise what it says is the cause (it refuses the
    file, it cannot load its configuration, its hooks are off); return when it names none (no file,
    no hook of ours in it yet)."""
    reason = refusal(data, hooks_file)
    if reason is not None:
        raise RefusedError(hooks_file, reason)
    for block in data:
        for error in (block.get("errors") if isinstance(block, dict) else None) or []:
            if isinstance(error, dict) and error.get("message"):
                raise ConfigUnreadableError(" ".join(str(error["message"]).split()))
    off = hooks_off(server, cwd)
    if off is not None:
        raise HooksOffError(off)


def hooks_off(server: AppServer, cwd: str) -> str | None:
    """The file that turns Codex's hooks off (the effective ``features.hooks`` is false, as
    ``config/read`` reports it), or None: on, or not said (an app-server without ``config/read``).
    why config/read and not config.toml: it is Codex's own answer, with every layer (a project's
    .codex/config.toml, /etc/codex) merged, and the file the value comes from."""
    try:
        result = server.call("config/read", {"includeLayers": True, "cwd": cwd})
    except TrustError:
        return None
    config = result.get("config")
    features = config.get("features") if isinstance(config, dict) else None
    if not isinstance(features, dict) or features.get("hooks") is not False:
        return None
    origin = (result.get("origins") or {}).get("features.hooks") if isinstance(result.get("origins"), dict) else None
    name = origin.get("name") if isinstance(origin, dict) else None
    where = name.get("file") if isinstance(name, dict) else None
    return where if isinstance(where, str) and where else "Codex's config.toml"


def refusal(data: list, hooks_file: str) -> str | None:
    """Codex's reason for refusing ``hooks_file`` in a ``hooks/list`` answer, or None: an error naming
    the file (``{path, message}``) or a warning that does (``failed to parse hooks config <file>:
    <reason>``, as codex 0.171.0 says an unknown top-level key or a wrong type)."""
    names = {hooks_file, os.path.realpath(hooks_file)}
    for block in data:
        if not isinstance(block, dict):
            continue
        for error in block.get("errors") or []:
            if (isinstance(error, dict) and isinstance(error.get("path"), str)
                    and os.path.realpath(error["path"]) in names):
                return _after_path(str(error.get("message")), names)
        for warning in block.get("warnings") or []:
            if isinstance(warning, str) and any(f"{name}: " in warning for name in names):
                return _after_path(warning, names)
    return None


def _after_path(text: str, names: set[str]) -> str:
    """``text`` from after ``<file>: `` on (the reason alone), on one line."""
    for name in names:
        if f"{name}: " in text:
            text = text.split(f"{name}: ", 1)[1]
            break
    return " ".join(text.split())


def config_error(program: str, cwd: str, env: Mapping[str, str] | None = None,
                 timeout: float | None = None) -> ConfigUnreadableError | None:
    """Why Codex (``program``) cannot load its configuration for a run in ``cwd``, in its own words, or
    None when it can. ``hooks/list`` reports it under that folder (``<file>:<line>:<column>: <what>``)
    for TOML that does not parse and for a value Codex refuses alike, and ``codex exec`` stops at the
    same error: the worker's distill calls would all fail. ``cwd`` need not exist (the worker's neutral
    folder is made at its first call). Raises TrustError when the app-server cannot be asked."""
    start = os.path.abspath(cwd)
    while not os.path.isdir(start):
        start = os.path.dirname(start)
    server = AppServer(program, os.environ if env is None else env, start, timeout)
    try:
        server.call("initialize", {"clientInfo": CLIENT})
        server.notify("initialized")
        data = server.call("hooks/list", {"cwds": [cwd]}).get("data")
    finally:
        server.close()
    if not isinstance(data, list):
        raise TrustError("codex app-server: hooks/list: no hook list in the answer (an older codex?)")
    for block in data:
        for error in (block.get("errors") if isinstance(block, dict) else None) or []:
            # why: an error naming a hooks.json is Codex refusing that file (RefusedError), not its config
            if (isinstance(error, dict) and error.get("message")
                    and os.path.basename(str(error.get("path") or "")) != "hooks.json"):
                return ConfigUnreadableError(" ".join(str(error["message"]).split()))
    return None


def switched_off(hooks: list[dict]) -> list[str]:
    """The events of ``hooks`` the person switched off in Codex's ``/hooks`` (``hooks/list`` says
    ``enabled: false``): trusted or not, Codex does not run them. Turned back on only by the person."""
    return [str(h.get("eventName", "?")) for h in hooks if h.get("enabled") is False]


def status(hooks_file: str, cwd: str, env: Mapping[str, str] | None = None, timeout: float | None = None) -> list[dict]:
    """Our hooks as Codex sees them (each with ``trustStatus``). Raises TrustError when it cannot ask."""
    server = _open(os.environ if env is None else env, cwd, timeout)
    try:
        return _ours(server, hooks_file, cwd)
    finally:
        server.close()


def trust(hooks_file: str, cwd: str, env: Mapping[str, str] | None = None, timeout: float | None = None) -> list[dict]:
    """Trust each of our hooks in ``hooks_file`` that Codex does not trust yet; returns our hooks as
    Codex lists them afterwards. Raises TrustError when it cannot (the caller says what to do)."""
    server = _open(os.environ if env is None else env, cwd, timeout)
    try:
        hooks = _ours(server, hooks_file, cwd)
        if not hooks:
            raise TrustError(f"codex app-server does not list our hooks of {hooks_file}")
        edits = [{"keyPath": f'hooks.state."{h["key"]}".trusted_hash', "value": h["currentHash"],
                  "mergeStrategy": "upsert"}
                 for h in hooks if h.get("trustStatus") != TRUSTED and isinstance(h.get("currentHash"), str)]
        if edits:
            _config_writable(env)
            server.call("config/batchWrite", {"edits": edits})
            hooks = _ours(server, hooks_file, cwd)
        left = [h.get("eventName", "?") for h in hooks if h.get("trustStatus") != TRUSTED]
        if left:
            raise TrustError(f"codex still lists as not trusted: {', '.join(map(str, left))}")
        return hooks
    finally:
        server.close()


def _config_writable(env: Mapping[str, str] | None) -> None:
    """Raise TrustError when Codex's config.toml, which ``config/batchWrite`` rewrites (Codex keeps
    trust there), is another user's or read-only (chmod 444: "no tool edits this"): the person's rule
    holds for the file we ask Codex to write as for the files we write ourselves."""
    from lazy_harness import paths
    from lazy_harness.errors import SettingsError

    config = os.path.join(paths.codex_home(env), "config.toml")
    try:
        settings_write.refuse_unwritable(os.path.realpath(config), "lh hooks install --agent codex")
    except SettingsError as exc:
        raise TrustError(exc.message) from None


def listed(hooks_file: str, cwd: str, env: Mapping[str, str] | None = None, timeout: float | None = None
           ) -> list[dict]:
    """Every hook of ``hooks_file`` as Codex lists it, ours and the person's (before an uninstall)."""
    server = _open(os.environ if env is None else env, cwd, timeout)
    try:
        return _ours(server, hooks_file, cwd, everyone=True)
    finally:
        server.close()


def settle(before: list[dict], hooks_file: str, cwd: str, env: Mapping[str, str] | None = None,
           timeout: float | None = None) -> tuple[int, int]:
    """After our hooks left ``hooks_file`` (``before``: :func:`listed` of it then): the trust entries of
    keys no hook holds now are removed, and each of the person's hooks that was trusted and moved (a
    key is the hook's place: ``<file>:<event>:<group>:<index>``, and ours were before theirs) is
    trusted again at its new place, as it was. Returns (entries removed, hooks trusted again).
    why: removing only our keys took the trust of a hook of theirs that moved into one of our places,
    and left theirs under a place no hook holds; Codex then skipped it, silently in ``codex exec``."""
    server = _open(os.environ if env is None else env, cwd, timeout)
    try:
        after = _ours(server, hooks_file, cwd, everyone=True)
        held = {str(h.get("key")) for h in after}
        gone = sorted({str(h["key"]) for h in before if h.get("key") and str(h["key"]) not in held})
        trusted = {h.get("currentHash") for h in before if h.get("trustStatus") == TRUSTED and not settings.is_ours(h)}
        moved = [h for h in after if h.get("trustStatus") != TRUSTED and isinstance(h.get("currentHash"), str)
                 and h["currentHash"] in trusted]
        edits = [{"keyPath": f'hooks.state."{key}"', "value": None, "mergeStrategy": "replace"} for key in gone]
        edits += [{"keyPath": f'hooks.state."{h["key"]}".trusted_hash', "value": h["currentHash"],
                   "mergeStrategy": "upsert"} for h in moved]
        if edits:
            _config_writable(env)
            server.call("config/batchWrite", {"edits": edits})
        return len(gone), len(moved)
    finally:
        server.close()


def places(data: dict) -> list[tuple[str, str, dict]]:
    """Our hooks in ``data`` (hooks.json, parsed): (place as Codex keys it after the file's path,
    ``<snake_event>:<group>:<index>``; event; the hook's definition as a group of its own: its group's
    matcher, the entry alone)."""
    found: list[tuple[str, str, dict]] = []
    hooks = data.get("hooks")
    for event, groups in (hooks.items() if isinstance(hooks, dict) else ()):
        for g, group in enumerate(groups if isinstance(groups, list) else ()):
            entries = group.get("hooks") if isinstance(group, dict) else None
            for i, entry in enumerate(entries if isinstance(entries, list) else ()):
                if settings.is_ours(entry):
                    alone = {k: v for k, v in group.items() if k != "hooks"}
                    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", str(event)).lower()
                    found.append((f"{snake}:{g}:{i}", str(event), {**alone, "hooks": [entry]}))
    return found


def our_hashes(ours: list[tuple[str, str, dict]], env: Mapping[str, str] | None = None,
               timeout: float | None = None) -> set[str]:
    """The hashes Codex gives our hooks' definitions (``ours``: :func:`places`), asked of an app-server
    whose CODEX_HOME is a scratch folder holding only them.
    why a scratch folder: Codex lists none of the person's file's hooks while it refuses that file; the
    hash covers a hook's event and definition, not its file or place (codex 0.171.0), so the same
    definitions hash alike there."""
    with tempfile.TemporaryDirectory(prefix="lh-codex-", ignore_cleanup_errors=True) as scratch:
        hooks: dict[str, list[dict]] = {}
        for _, event, group in ours:
            hooks.setdefault(event, []).append(group)
        path = os.path.join(scratch, "hooks.json")
        with open(path, "w", encoding="utf-8") as fh:
            json.dump({"hooks": hooks}, fh)
        server = _open({**(os.environ if env is None else env), "CODEX_HOME": scratch}, scratch, timeout)
        try:
            return {h["currentHash"] for h in _ours(server, path, scratch) if isinstance(h.get("currentHash"), str)}
        finally:
            server.close()


def forget(hooks_file: str, ours: list[tuple[str, str, dict]], cwd: str, env: Mapping[str, str] | None = None,
           timeout: float | None = None) -> int:
    """After our hooks left ``hooks_file`` while Codex listed none of its hooks (it refuses the file, or
    its hooks are off), so :func:`settle` could not: remove the trust entries under the file's path
    whose hash is one of our hooks' (``ours``: :func:`places` of the file before); the person's stay.
    Returns how many. Raises TrustError when Codex cannot be asked or cannot read its configuration."""
    hashes = our_hashes(ours, env, timeout)
    server = _open(os.environ if env is None else env, cwd, timeout)
    try:
        config = server.call("config/read", {"includeLayers": False, "cwd": cwd}).get("config")
        hooks = config.get("hooks") if isinstance(config, dict) else None
        state = hooks.get("state") if isinstance(hooks, dict) else None
        real = os.path.realpath(hooks_file)
        gone = sorted(key for key, entry in (state.items() if isinstance(state, dict) else ())
                      if isinstance(entry, dict) and entry.get("trusted_hash") in hashes and _file_of(key) == real)
        if gone:
            _config_writable(env)
            server.call("config/batchWrite", {"edits": [
                {"keyPath": f'hooks.state."{key}"', "value": None, "mergeStrategy": "replace"} for key in gone]})
        return len(gone)
    finally:
        server.close()


def _file_of(key: str) -> str | None:
    """The hooks file a trust key names (``<file>:<event>:<group>:<index>``), resolved; None for another key."""
    parts = key.rsplit(":", 3)
    if len(parts) != 4 or not (parts[2].isdigit() and parts[3].isdigit()):
        return None
    return os.path.realpath(parts[0])
