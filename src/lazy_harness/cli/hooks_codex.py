"""``lh hooks install|uninstall --agent codex``: our hooks in Codex CLI's ``$CODEX_HOME/hooks.json``,
merged with the person's own entries as settings.json is (settings.py), then trusted through
``codex app-server`` (codex_trust.py). Also the Codex facts ``lh doctor`` and ``lh status`` show.
"""

from __future__ import annotations

import json
import os

import click

from lazy_harness import (
    codex_trust, codex_trust_listing, codex_trust_server, hook_command, paths, settings, settings_read, settings_write)
from lazy_harness.cli import codex_homes
from lazy_harness.cli.hooks_install import kept_timeouts
from lazy_harness.errors import SettingsError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

TRUST_BY_HAND = ("open codex, type /hooks and trust the four lazy-harness hooks (or run "
                 "lh hooks install --agent codex again once codex is on PATH)")
# why: codex 0.171.0 reads only these at the top of hooks.json and refuses the whole file (ours and the
# person's hooks) for any other key, even "$schema"; install keeps the person's keys as it always does
# and warns, and Codex's own answer (codex_trust_listing.RefusedError) says whether it refuses the file
CODEX_TOP_KEYS = ("description", "hooks")
# why a line of its own: a hook switched off in /hooks is trusted all the same, and Codex skips it
# (Stop and SessionEnd: nothing is distilled; SessionStart: no read-back; UserPromptSubmit: no recall)
OFF_SAID = "switched off in Codex's /hooks: {events}: Codex does not run them"


def install(cwd: str | None = None) -> bool:
    """Write our four hooks into hooks.json, then trust them; a trust that cannot be done is one line
    saying what to do, and the hooks stay installed (exit 0). False when Codex says it runs none of
    them (it refuses the whole file, cannot load its config.toml, or its hooks are off: exit 1)."""
    target = paths.codex_hooks_file()
    extra = foreign_keys(target)
    timeouts, kept = kept_timeouts(target, settings.CODEX_EVENTS, agent=settings.CODEX)
    change = settings.install(target, timeouts, backup=settings_write.backup_file(target), agent=settings.CODEX)
    events = ", ".join(f"{e} (timeout {json.dumps(timeouts[e])} s)" for e in change.events)
    if change.action == "unchanged":
        click.echo(f"already installed: {target} holds our hooks; nothing changed")
    else:
        click.echo(f"codex hooks: {target} ({change.action})")
        if change.backup:
            click.echo(f"backup: {change.backup}")
    click.echo(f"hooks: {events}")
    click.echo(f"command: {settings.command_for('<Event>', agent=settings.CODEX)}")
    for line in kept:
        click.echo(line)
    for warning in change.warnings:
        click.echo(f"warning: {warning}")
    for key in extra:
        click.echo(f"warning: {target}: top-level key {key!r}: Codex reads only \"description\" and \"hooks\" "
                   "there, and codex 0.171.0 refuses the whole file for any other key (kept as is)")
    try:
        hooks, tidied = codex_trust.trust(target, cwd or os.getcwd())
    except codex_trust_listing.BlockedError as exc:
        click.echo(f"trust: not done: {exc.message}; {exc.effect}: {exc.hint}")
        return False
    except codex_trust_server.TrustError as exc:
        click.echo(f"trust: not done ({exc.message}); Codex runs no hook until it is trusted: {TRUST_BY_HAND}")
        return True
    click.echo(f"trust: {len(hooks)} hooks trusted in {os.path.join(paths.codex_home(), 'config.toml')}"
               + _tidied_said(tidied))
    off = codex_trust.switched_off(hooks)
    if off:
        said = OFF_SAID.format(events=", ".join(off))
        click.echo(f"warning: {said}; left as you set it: turn them on in Codex's /hooks")
    return True


def _tidied_said(tidied: codex_trust.Tidied) -> str:
    """What install did of trust entries of ours left at places no longer ours (a hook put before ours
    moved them), after its trust line; "" when there were none."""
    if tidied.removed:
        n = len(tidied.removed)
        return (f"; removed {n} {'entry' if n == 1 else 'entries'} of ours left at {'a place' if n == 1 else 'places'} "
                f"no longer ours: {', '.join(tidied.removed)}")
    if tidied.left:
        return (f"; entries of ours left at places no longer ours ({tidied.why}): delete these tables from it by "
                f"hand: {_tables(tidied.left)}")
    return ""


def _tables(keys: list[str]) -> str:
    """The trust tables of ``keys`` as config.toml names them."""
    return ", ".join(f'[hooks.state."{key}"]' for key in keys)


def foreign_keys(path: str) -> list[str]:
    """The top-level keys of ``path`` Codex does not read (CODEX_TOP_KEYS); none for a file that is
    missing or does not parse (settings.install then says so)."""
    try:
        data, _ = settings_read.read(path)
    except SettingsError:
        return []
    return [key for key in (data or {}) if key not in CODEX_TOP_KEYS]


def uninstall(cwd: str | None = None) -> None:
    """Remove exactly our entries from hooks.json (the file as it was before install), then their
    trust entries from Codex's config.toml when codex can be asked; else name those left."""
    target = paths.codex_hooks_file()
    cwd = cwd or os.getcwd()
    data, before, blocked = _listed_before(target, cwd)
    change = settings.uninstall(target, backup=settings_write.backup_file(target))
    if change.action == "missing":
        click.echo(f"nothing to remove: {target} does not exist")
    elif change.action == "unchanged":
        click.echo(f"nothing to remove: {target} holds no lazy-harness hooks")
    elif change.action == "deleted":
        click.echo(f"removed {', '.join(change.events)}; deleted {target} (it held only lazy-harness hooks)")
    else:
        click.echo(f"removed {', '.join(change.events)} from {target}")
    if change.action not in ("deleted", "updated") or data is None:
        return
    # why say it: a hook of theirs after ours moved up into one of our places, whose trust entry names
    # our hash, so Codex skips it until it is trusted again
    moved = ("; your own hooks in that file may have moved up a place: Codex skips them until you trust "
             "them again in /hooks" if _moves_theirs(data) else "")
    config = os.path.join(paths.codex_home(), "config.toml")
    ours = codex_trust.places(data)
    try:
        if before:
            removed, kept = codex_trust.settle(before, target, cwd)
            click.echo(f"trust: removed {removed} entries from {config}"
                       + (f"; {kept} of your hooks moved up and stay trusted" if kept else ""))
        elif blocked is not None:
            removed = _forget(blocked, target, ours, cwd)
            click.echo(f"trust: removed {removed} entries from {config} ({blocked.message}){moved}")
        else:  # why: codex is not on PATH (_listed_before); nothing could be asked, so say what is left
            _left_without_codex(target, ours, config, moved)
    except codex_trust_server.TrustError as exc:
        keys = exc.keys if isinstance(exc, codex_trust.EntriesLeft) else [f"{target}:{p}" for p, _, _ in ours]
        _say_left(config, exc.message, keys, moved)


def _say_left(config: str, why: str, keys: list[str], moved: str) -> None:
    """The line of uninstall naming the trust tables of ours left in Codex's ``config``, and why."""
    click.echo(f"trust: entries left in {config} ({why}); they trust nothing now; to tidy up, "
               f"delete these tables from it by hand: {_tables(keys)}{moved}")


def _left_without_codex(target: str, ours: list, config: str, moved: str) -> None:
    """Uninstall without a codex to ask: the trust tables of ours config.toml holds (read here; all our
    places when it cannot be read), named to delete by hand; nothing when it holds none and no hook of
    the person's moved."""
    why = "codex is not on PATH"
    held = codex_trust.held_at(target, ours)
    if held is None:
        held = [f"{target}:{place}" for place, _, _ in ours]
    if held:
        _say_left(config, why, held, moved)
    elif moved:
        click.echo(f"trust: {config} holds no entry of ours ({why}){moved}")


def _listed_before(target: str, cwd: str
                   ) -> tuple[dict | None, list[dict] | None, codex_trust_server.TrustError | None]:
    """Before our entries leave ``target``: the file (None: missing, or damaged, which
    settings.uninstall reports), every hook of it as Codex lists it (None: codex not on PATH, or
    not listed), and why Codex could not list them."""
    try:
        data, _ = settings_read.read(target)
    except SettingsError:
        return None, None, None
    if data is None or not settings.find_ours(data) or codex_trust_server.find_codex() is None:
        return data, None, None
    try:
        return data, codex_trust.listed(target, cwd), None
    except codex_trust_server.TrustError as exc:
        return data, None, exc


def _forget(blocked: codex_trust_server.TrustError, target: str, ours: list, cwd: str) -> int:
    """Our trust entries removed while Codex lists none of the file's hooks (``blocked``: why); raises
    TrustError when Codex cannot edit its config.toml (it cannot load it) or could not be asked."""
    if (isinstance(blocked, codex_trust_listing.ConfigUnreadableError)
            or not isinstance(blocked, codex_trust_listing.BlockedError)):
        raise blocked
    return codex_trust.forget(target, ours, cwd)


def _moves_theirs(data: dict) -> bool:
    """Whether ``data`` (hooks.json) holds a hook of the person's after one of ours in the same event:
    it moves up a place when ours go, and Codex keys trust by place."""
    hooks = data.get("hooks")
    for groups in hooks.values() if isinstance(hooks, dict) else ():
        mine = []
        for group in groups if isinstance(groups, list) else ():
            entries = group.get("hooks") if isinstance(group, dict) else None
            mine += [settings.is_ours(h) for h in (entries if isinstance(entries, list) else ())]
        if True in mine and False in mine[mine.index(True):]:
            return True
    return False


class CodexState:
    """What doctor and status say of Codex: hooks.json (ours in it, or why it cannot be read), trust."""

    def __init__(self, path: str, state: str, ours: list, error: str = "") -> None:
        self.path, self.state, self.ours, self.error = path, state, ours, error
        self.trust = ""  # "trusted", "not trusted: <events>", "unknown: <why>", "" (nothing to ask)
        self.refused: codex_trust_listing.BlockedError | None = None  # Codex runs none of our hooks: why
        self.off: list[str] = []  # our events switched off in Codex's /hooks
        # when this shell's hooks.json (``here``) holds none of ours: the CODEX_HOME the queue's Codex
        # tasks name whose hooks.json (``path``) does (cli/codex_homes.py)
        self.home: str | None = None
        self.here = path


def inspect(cwd: str | None = None, ask: bool = True) -> CodexState:
    """hooks.json of Codex and, with ``ask`` and our hooks in it, their trust as the app-server reports it.
    When this shell's holds none of ours, the hooks.json of the CODEX_HOME the queue's Codex sessions
    ran with, if it holds them (``home`` set)."""
    path = paths.codex_hooks_file()
    found = _read_state(path)
    if found.state != "invalid" and not found.ours and (held := codex_homes.holding_ours()) is not None:
        found = CodexState(os.path.join(held[0], "hooks.json"), "ok", held[1])
        found.home, found.here = held[0], path
    if found.ours and ask:
        env, why = codex_homes.asking_env(found.home) if found.home else (None, None)
        try:
            found.trust, found.off = ((f"unknown: not asked: {why}", []) if why
                                      else trust_line(found.path, cwd or os.getcwd(), env))
        except codex_trust_listing.BlockedError as exc:
            found.trust, found.refused = f"none: {exc.message}", exc
    return found


def _read_state(path: str) -> CodexState:
    """hooks.json at ``path``: missing, invalid (with why) or ok with our hooks in it (maybe none)."""
    try:
        data, _ = settings_read.read(path)
    except SettingsError as exc:
        return CodexState(path, "invalid", [], exc.message.removeprefix(f"{path}: ").removesuffix("; left untouched"))
    if data is None:
        return CodexState(path, "missing", [])
    return CodexState(path, "ok", settings.find_ours(data))


def trust_line(path: str, cwd: str, env: Mapping[str, str] | None = None) -> tuple[str, list[str]]:
    """Our hooks' trust as Codex reports it, in words, and the events of ours switched off in Codex's
    ``/hooks``; raises BlockedError when Codex runs none of them. ``env``: the environment to ask in
    (another CODEX_HOME), this process's when None."""
    if codex_trust_server.find_codex() is None:
        return "unknown: codex is not on PATH", []
    try:
        hooks = codex_trust.status(path, cwd, env)
    except codex_trust_listing.BlockedError:
        raise
    except codex_trust_server.TrustError as exc:
        return f"unknown: {exc.message}", []
    left = [str(h.get("eventName", "?")) for h in hooks if h.get("trustStatus") != codex_trust.TRUSTED]
    if not hooks:
        return "unknown: codex lists none of our hooks", []
    return f"not trusted: {', '.join(left)}" if left else codex_trust.TRUSTED, codex_trust.switched_off(hooks)


def sessions_seen(env: Mapping[str, str] | None = None) -> int:
    """Codex sessions the queue has held a task for (``agent=codex``: waiting, running, done or failed)."""
    return len({task["session_id"] for _, task in codex_homes.codex_tasks(env) if task.get("session_id")})


def doctor_lines(cwd: str | None = None) -> list[tuple[str, str, str, str | None]]:
    """(status, check, detail, hint) rows for ``lh doctor``: Codex's hooks.json, their trust, the
    Codex sessions seen. Nothing when Codex is neither installed here nor holds our hooks."""
    found = inspect(cwd)
    codex = codex_trust_server.find_codex()
    if found.state == "invalid":
        return [("warn", "codex hooks", f"cannot read {found.path}: {found.error}", f"fix the JSON in {found.path}")]
    if not found.ours:
        if codex is None:
            return []
        return [("info", "codex hooks", f"{found.path} holds no lazy-harness hooks; Codex sessions are not "
                 "remembered", "lh hooks install --agent codex")]
    sessions = ("ok", "codex sessions", f"{sessions_seen()} seen by the queue (tasks with agent=codex)", None)
    rows: list[tuple[str, str, str, str | None]] = [] if found.home is None else [_home_row(found)]
    if found.refused is not None:  # why: Codex runs none of the file's hooks; their trust is moot
        return [*rows, ("fail", "codex hooks", f"{found.refused.message}; {found.refused.effect}",
                        found.refused.hint), sessions]
    rows.append(_hooks_row(found))
    if found.trust == codex_trust.TRUSTED:
        rows.append(("ok", "codex trust", "Codex trusts our hooks", None))
    elif found.trust.startswith("not trusted"):
        rows.append(("fail", "codex trust", f"{found.trust}: Codex skips them",
                     codex_homes.with_home(found.home, "lh hooks install --agent codex")))
    else:
        rows.append(("warn", "codex trust", found.trust, TRUST_BY_HAND))
    if found.off:
        rows.append(("fail", "codex hooks on", OFF_SAID.format(events=", ".join(found.off)),
                     "turn them on in Codex's /hooks"))
    rows.append(sessions)
    return rows


def _home_row(found: CodexState) -> tuple[str, str, str, str | None]:
    """``lh doctor``'s row saying the Codex lines are of another CODEX_HOME than this shell's: the one
    the queue's Codex sessions ran with, whose hooks.json holds ours (``found.home``)."""
    return ("info", "codex home", f"{found.here} (this shell's CODEX_HOME) holds no lazy-harness hooks; the queue's "
            f"Codex sessions ran with CODEX_HOME={found.home}, whose hooks.json holds them: the codex lines below are "
            "of that home", codex_homes.with_home(found.home, "lh hooks status") + "; lh hooks install and uninstall "
            "--agent codex act on the CODEX_HOME they run with")


def _hooks_row(found: CodexState) -> tuple[str, str, str, str | None]:
    """``lh doctor``'s row of our hooks in Codex's hooks.json (``found``, holding ours that Codex runs):
    the first of Claude Code's form, an event running another's hook or the plugin's form, a missing
    event, another install's commands, an older form; else ok."""
    from lazy_harness.cli.doctor_hooks import crossed

    events = [o.event for o in found.ours]
    missing = [e for e in settings.CODEX_EVENTS if e not in events]
    detail = f"{found.path}: {', '.join(events)}"
    reinstall = codex_homes.with_home(found.home, "lh hooks install --agent codex")
    claude = [o.event for o in found.ours if hook_command.agent_of(o.command) == "claude"]
    if claude:
        return ("warn", "codex hooks", f"{found.path}: {', '.join(claude)} runs without {settings.AGENT_FLAG} "
                f"{settings.CODEX}: the hook takes Codex's sessions for Claude Code's", reinstall)
    if said := crossed(found.ours, settings.CODEX):
        return "warn", "codex hooks", f"{found.path}: {said}", reinstall + " (writes each event's own command)"
    if missing:
        return "warn", "codex hooks", f"{detail} (missing {', '.join(missing)})", reinstall
    if other := settings.other_install([o.command for o in found.ours]):
        return ("warn", "codex hooks", f"{detail}: the commands load lazy_harness from {', '.join(other)}, another "
                "install than this lh's: that version runs the hooks, this one the commands and the worker",
                reinstall + " (with this lh)")
    if any(not hook_command.guarded(o.command) for o in found.ours):
        return ("warn", "codex hooks", f"{detail}: written by an older version: once what it runs is gone (an "
                "interpreter removed with its virtualenv, lh-hook not on PATH), Codex reports a failed hook at "
                "every event", reinstall)
    return "ok", "codex hooks", detail, None


def status_line(cwd: str | None = None) -> str | None:
    """One line for ``lh status``: Codex hooks installed, trusted, sessions seen; None when Codex is not set up."""
    found = inspect(cwd)
    count = sessions_seen()
    seen = f"{count} session{'' if count == 1 else 's'} seen"
    if found.state == "invalid":
        return f"codex: {found.path}: {found.error}"
    if not found.ours:
        return f"codex: hooks not installed (lh hooks install --agent codex); {seen}" if count else None
    off = f", switched off in Codex's /hooks: {', '.join(found.off)}" if found.off else ""
    where = found.path if found.home is None else f"{found.path}, {codex_homes.elsewhere_said(found.home, found.here)}"
    return f"codex: hooks installed ({len(found.ours)} in {where}), trust {found.trust}{off}; {seen}"


def left_note() -> str | None:
    """For ``lh hooks uninstall`` without ``--agent codex``: a line naming Codex's hooks.json when it
    still holds ours (a Codex-only install otherwise reads as nothing installed), else None."""
    found = inspect(ask=False)
    if not found.ours:
        return None
    return (f"Codex CLI's {found.path} still holds {len(found.ours)} lazy-harness hooks, left as they are: "
            f"{codex_homes.with_home(found.home, 'lh hooks uninstall --agent codex')} removes them")
