"""Our hooks as Codex's ``hooks/list`` answer lists them, and when it lists none, Codex's reason,
raised as a :class:`BlockedError`: it refuses the file (:class:`RefusedError`), it cannot load its
configuration (:class:`ConfigUnreadableError`), or ``config/read`` says its hooks are off
(:class:`HooksOffError`).
"""

from __future__ import annotations

import os

from lazy_harness import settings
from lazy_harness.codex_trust_server import AppServer, TrustError


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


def our_hooks(server: AppServer, hooks_file: str, cwd: str, everyone: bool = False) -> list[dict]:
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
