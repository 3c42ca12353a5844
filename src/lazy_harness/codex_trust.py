"""Trust our Codex CLI hooks without its UI, and read whether they are trusted.

Codex runs a user's hook only once it is trusted: the hook's ``trusted_hash`` in config.toml
(``hooks.state."<key>".trusted_hash``) equals the hash of its definition (command, timeout, matcher).
Its TUI asks in ``/hooks``; without it, ``codex app-server`` speaks JSON-RPC over stdio: ``initialize``,
``hooks/list`` (each hook with its ``key``, ``currentHash`` and ``trustStatus``) and
``config/batchWrite``, which writes the hash as Codex itself would. A changed command (another
interpreter, a new folder) has a new hash and needs trusting again: ``lh hooks install --agent codex``
does it each time. When ``hooks/list`` lists none of our hooks, Codex's reason is raised as a
:class:`~lazy_harness.codex_trust_listing.BlockedError`: it refuses the file, it cannot load its
configuration, or ``config/read`` says its hooks are off. Uninstall then still finds our trust
entries by the hash Codex gives our hooks' definitions (:func:`forget`). Codex keys trust by place,
so a hook the person puts before ours leaves our hash at the place theirs now holds: install and
uninstall remove such entries (:func:`_tidy`), and without a codex to ask uninstall names ours
(:func:`held_at`). See docs/adr/0045-codex-hooks-install-and-trust.md.

By what each part does:

    codex_trust_server.py    one app-server process and its JSON-RPC conversation; TrustError
    codex_trust_listing.py   our hooks as ``hooks/list`` lists them, and Codex's reason when it lists none
    codex_trust.py           what lh asks of Codex: status, trust, settle and forget, config_error
"""

from __future__ import annotations

import json
import os
import re

from lazy_harness import scratch, settings, settings_write
from lazy_harness.codex_trust_listing import ConfigUnreadableError, our_hooks
from lazy_harness.codex_trust_server import CLIENT, AppServer, TrustError, open_server

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

TRUSTED = "trusted"


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
    server = open_server(os.environ if env is None else env, cwd, timeout)
    try:
        return our_hooks(server, hooks_file, cwd)
    finally:
        server.close()


def trust(hooks_file: str, cwd: str, env: Mapping[str, str] | None = None, timeout: float | None = None
          ) -> tuple[list[dict], Tidied]:
    """Trust each of our hooks in ``hooks_file`` that Codex does not trust yet; returns our hooks as
    Codex lists them afterwards, and the trust entries of ours left at places no longer ours, removed
    (:func:`_tidy`). Raises TrustError when it cannot trust them (the caller says what to do)."""
    server = open_server(os.environ if env is None else env, cwd, timeout)
    try:
        hooks = our_hooks(server, hooks_file, cwd)
        if not hooks:
            raise TrustError(f"codex app-server does not list our hooks of {hooks_file}")
        edits = [{"keyPath": f'hooks.state."{h["key"]}".trusted_hash', "value": h["currentHash"],
                  "mergeStrategy": "upsert"}
                 for h in hooks if h.get("trustStatus") != TRUSTED and isinstance(h.get("currentHash"), str)]
        if edits:
            _config_writable(env)
            server.call("config/batchWrite", {"edits": edits})
            hooks = our_hooks(server, hooks_file, cwd)
        left = [h.get("eventName", "?") for h in hooks if h.get("trustStatus") != TRUSTED]
        if left:
            raise TrustError(f"codex still lists as not trusted: {', '.join(map(str, left))}")
        return hooks, _tidy(server, hooks_file, hooks, cwd, env)
    finally:
        server.close()


class Tidied:
    """Trust entries of ours found at places no longer ours: ``removed`` (their keys), or ``left`` with
    ``why`` when Codex's config.toml may not be written."""

    def __init__(self, removed: list[str] | None = None, left: list[str] | None = None, why: str = "") -> None:
        self.removed, self.left, self.why = removed or [], left or [], why


class EntriesLeft(TrustError):
    """Trust entries that could not be removed (``keys``): Codex's config.toml may not be written."""

    def __init__(self, message: str, keys: list[str]) -> None:
        self.keys = keys
        super().__init__(message)


def _tidy(server: AppServer, hooks_file: str, hooks: list[dict], cwd: str, env: Mapping[str, str] | None) -> Tidied:
    """Remove the trust entries of ``hooks_file`` holding the hash of one of ours (``hooks``, as Codex
    lists them now) at another key than theirs: a hook the person put before ours moved ours, and
    our hash stayed at the old place, where theirs now sits (Codex keys trust by place, and the hash
    covers a hook's event and definition: no hook of theirs hashes as ours). Nothing when Codex
    cannot say what its config holds (no ``config/read``)."""
    hashes = {h["currentHash"] for h in hooks if isinstance(h.get("currentHash"), str)}
    try:
        stale = ours_elsewhere(_state(server, cwd), hooks_file, hashes, {str(h.get("key")) for h in hooks})
    except TrustError:
        return Tidied()
    if not stale:
        return Tidied()
    try:
        _config_writable(env)
    except TrustError as exc:
        return Tidied(left=stale, why=exc.message)
    server.call("config/batchWrite", {"edits": _removals(stale)})
    return Tidied(removed=stale)


def _state(server: AppServer, cwd: str) -> dict:
    """``hooks.state`` of Codex's configuration as ``config/read`` gives it (key -> table); TrustError
    when Codex cannot read it or has no such method."""
    config = server.call("config/read", {"includeLayers": False, "cwd": cwd}).get("config")
    hooks = config.get("hooks") if isinstance(config, dict) else None
    state = hooks.get("state") if isinstance(hooks, dict) else None
    return state if isinstance(state, dict) else {}


def ours_elsewhere(state: dict, hooks_file: str, hashes: set[str], keep: set[str]) -> list[str]:
    """The keys of ``state`` (``hooks.state``) under ``hooks_file`` whose ``trusted_hash`` is one of
    ``hashes`` (our hooks') and that are not in ``keep``."""
    real = os.path.realpath(hooks_file)
    return sorted(key for key, entry in state.items()
                  if isinstance(entry, dict) and entry.get("trusted_hash") in hashes and key not in keep
                  and _file_of(key) == real)


def _removals(keys: list[str]) -> list[dict]:
    """``config/batchWrite`` edits removing the trust tables of ``keys``."""
    return [{"keyPath": f'hooks.state."{key}"', "value": None, "mergeStrategy": "replace"} for key in keys]


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
    server = open_server(os.environ if env is None else env, cwd, timeout)
    try:
        return our_hooks(server, hooks_file, cwd, everyone=True)
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
    server = open_server(os.environ if env is None else env, cwd, timeout)
    try:
        after = our_hooks(server, hooks_file, cwd, everyone=True)
        held = {str(h.get("key")) for h in after}
        gone = sorted({str(h["key"]) for h in before if h.get("key") and str(h["key"]) not in held})
        trusted = {h.get("currentHash") for h in before if h.get("trustStatus") == TRUSTED and not settings.is_ours(h)}
        moved = [h for h in after if h.get("trustStatus") != TRUSTED and isinstance(h.get("currentHash"), str)
                 and h["currentHash"] in trusted]
        stale, state = _stale_after(server, before, hooks_file, cwd, set(gone) | {str(h["key"]) for h in moved})
        edits = _removals(gone + stale) + [{"keyPath": f'hooks.state."{h["key"]}".trusted_hash',
                                            "value": h["currentHash"], "mergeStrategy": "upsert"} for h in moved]
        if edits:
            try:
                _config_writable(env)
            except TrustError as exc:
                ours = {str(h["key"]) for h in before if settings.is_ours(h)}
                raise EntriesLeft(exc.message, sorted(ours | set(stale))) from None
            server.call("config/batchWrite", {"edits": edits})
        # why count what config holds when Codex says: a key no hook holds now had no entry when untrusted
        return len([k for k in gone + stale if state is None or k in state]), len(moved)
    finally:
        server.close()


def _stale_after(server: AppServer, before: list[dict], hooks_file: str, cwd: str, skip: set[str]
                 ) -> tuple[list[str], dict | None]:
    """Uninstall's share of :func:`_tidy`: the keys under ``hooks_file`` holding the hash one of ours
    had (``before``: every hook as listed before ours left), less ``skip`` (removed or trusted again
    anyway), and ``hooks.state`` as Codex gave it; none and None when Codex cannot say what it holds."""
    hashes = {h["currentHash"] for h in before if settings.is_ours(h) and isinstance(h.get("currentHash"), str)}
    try:
        state = _state(server, cwd)
    except TrustError:
        return [], None
    return ours_elsewhere(state, hooks_file, hashes, skip), state


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
    try:
        made = scratch.folder("lh-codex-", env)
    except scratch.Refused as exc:
        raise TrustError(exc.message, exc.hint) from None
    with made as home:
        hooks: dict[str, list[dict]] = {}
        for _, event, group in ours:
            hooks.setdefault(event, []).append(group)
        path = os.path.join(home, "hooks.json")
        with open(path, "w", encoding="utf-8") as fh:
            json.dump({"hooks": hooks}, fh)
        server = open_server({**(os.environ if env is None else env), "CODEX_HOME": home}, home, timeout)
        try:
            return {h["currentHash"] for h in our_hooks(server, path, home) if isinstance(h.get("currentHash"), str)}
        finally:
            server.close()


def forget(hooks_file: str, ours: list[tuple[str, str, dict]], cwd: str, env: Mapping[str, str] | None = None,
           timeout: float | None = None) -> int:
    """After our hooks left ``hooks_file`` while Codex listed none of its hooks (it refuses the file, or
    its hooks are off), so :func:`settle` could not: remove the trust entries under the file's path
    whose hash is one of our hooks' (``ours``: :func:`places` of the file before); the person's stay.
    Returns how many. Raises TrustError when Codex cannot be asked or cannot read its configuration."""
    hashes = our_hashes(ours, env, timeout)
    server = open_server(os.environ if env is None else env, cwd, timeout)
    try:
        gone = ours_elsewhere(_state(server, cwd), hooks_file, hashes, set())
        if gone:
            _config_writable(env)
            server.call("config/batchWrite", {"edits": _removals(gone)})
        return len(gone)
    finally:
        server.close()


def held_at(hooks_file: str, ours: list[tuple[str, str, dict]], env: Mapping[str, str] | None = None
            ) -> list[str] | None:
    """Without a codex to ask: the keys of the trust tables Codex's config.toml holds at our places of
    ``hooks_file`` (``ours``: :func:`places`), read here; [] when the file is missing, None when it
    cannot be read as TOML (it may hold them). why read it: uninstall without codex on PATH left our
    tables and said nothing, and a hook of the person's that moved up into our place carried our hash
    (Codex skips it); said of an install never trusted (codex was never on PATH), they were not there."""
    import tomllib

    from lazy_harness import paths
    from lazy_harness.regular_file import read_regular

    try:
        data = tomllib.loads(read_regular(os.path.join(paths.codex_home(env), "config.toml")).decode("utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError, RecursionError):  # why: TOMLDecodeError, and bytes that are not UTF-8
        return None
    hooks = data.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    real, mine = os.path.realpath(hooks_file), {place for place, _, _ in ours}
    return sorted(key for key in (state if isinstance(state, dict) else ())
                  if _file_of(key) == real and ":".join(key.rsplit(":", 3)[1:]) in mine)


def _file_of(key: str) -> str | None:
    """The hooks file a trust key names (``<file>:<event>:<group>:<index>``), resolved; None for another key."""
    parts = key.rsplit(":", 3)
    if len(parts) != 4 or not (parts[2].isdigit() and parts[3].isdigit()):
        return None
    return os.path.realpath(parts[0])
