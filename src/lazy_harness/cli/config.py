"""``lh config``: where config.toml is, what is in effect, a starting file, and a validator."""

from __future__ import annotations

import os
import re
import shlex
import tomllib

import click

from lazy_harness import config as cfg
from lazy_harness import paths, private
from lazy_harness.atomic import atomic_write
from lazy_harness.config.validate import parse_bytes
from lazy_harness.errors import ConfigError, LhError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


@click.group()
def config() -> None:
    """Show, create and validate config.toml."""


@config.command("path")
def path_cmd() -> None:
    """Print where config.toml is read from ($LH_CONFIG, $XDG_CONFIG_HOME, ~/.config)."""
    click.echo(paths.config_file())


@config.command()
def init() -> None:
    """Write the example config.toml where `lh config path` says; never overwrites."""
    target = paths.config_file()
    _refuse_unsafe_folder(paths.own_config_dir())
    _refuse_unsafe_holder(target)
    try:
        written = atomic_write(target, cfg.render_example(), exclusive=True)
    except OSError as exc:
        raise LhError(f"{target}: cannot write: {exc.strerror or exc}") from None
    if not written:
        if (gone := dangling(target)) is not None:  # why: "exists" sent the person to validate, which sent them back
            raise LhError(f"{gone[0]}; not overwritten",
                          hint=f"rm {shlex.quote(target)}, then lh config init; or restore {os.path.realpath(target)}")
        raise LhError(f"{target} already exists; not overwritten", hint="lh config validate")
    click.echo(f"wrote {target} (every key at its default; set compound_loop.enabled = true or run lh hooks install)")


def dangling(path: str) -> tuple[str, str] | None:
    """(what, the fix) when config.toml at ``path`` is a link that leads nowhere (a dotfiles link left
    dangling), else None. why: it is not "no config file", though the loaders read it as missing."""
    if not (os.path.islink(path) and not os.path.exists(path)):
        return None
    target = os.path.realpath(path)
    return (f"{path} is a link to {target}, which does not exist",
            f"restore {target}, or remove the link (rm {shlex.quote(path)})")


def _refuse_unsafe_folder(folder: str | None) -> None:
    """Stop ``init`` before it writes into a config folder another user owns or may write (ADR 0031):
    every loader refuses a config.toml there. One line as the other commands' (``private.refusal``):
    lh doctor's reason and what to run. A missing folder is made private (0700) first."""
    if not folder:  # why: with $LH_CONFIG the file's folder is the user's choice: _refuse_unsafe_holder
        return
    try:
        # why make, not problem alone: it creates the folder 0700 and looks again, so one made by
        # another user between a look and the write is refused too
        private.make(folder)
    except private.UnsafeFolder as exc:
        why = str(exc)
        raise LhError(f"{why}; not used until it is fixed (lh doctor lists each one)",
                      hint=private.fix(folder, why)) from None
    except OSError as exc:
        raise LhError(f"{folder}: cannot make the folder: {exc.strerror or exc}") from None


def _refuse_unsafe_holder(target: str) -> None:
    """Stop ``init`` before it writes ``target`` into a folder every loader refuses to read config.toml
    from: ``private.open_config`` opens the folder holding it with ``private.open_holder`` and reads
    nothing from one in which another user could rename a file of theirs in (checked with
    ``$LH_CONFIG`` too). The same line as ``lh status`` says of that file; nothing written. A folder
    that does not exist is left to the write, which says so."""
    # why the loaders' own check and not private.make: with $LH_CONFIG the folder is the user's (root's
    # /etc, a sticky shared one): made or judged as ours, init would refuse a file the loaders read
    fd, why = private.open_holder(os.path.dirname(target) or ".")
    if fd is not None:
        os.close(fd)
    if why:
        raise LhError(f"{why}; not used until it is fixed (lh doctor lists each one)",
                      hint=private.fix(target, why))


def _as_warning(path: str, message: str) -> str:
    """``<path>:<line>: msg`` -> ``<path>:<line>: warning: msg`` (compiler style)."""
    m = re.match(re.escape(path) + r"(:\d+)?: ", message)
    return f"{message[:m.end()]}warning: {message[m.end():]}" if m else f"warning: {message}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _read_checked(target: str, env: Mapping[str, str] | None) -> tuple[bytes | None, str | None]:
    """``target``'s bytes read as the hooks, the worker and every loader read config.toml: through
    ``private.open_config`` (a file another user could write or swap in is not read). Returns
    (bytes, None); (None, None) when missing; (None, why) when the loaders refuse it."""
    fd, _, why = private.open_config(env)
    if fd is None:
        return None, why
    try:
        with os.fdopen(fd, "rb") as fh:
            return fh.read(), None
    except OSError as exc:
        raise ConfigError(f"{target}: cannot read: {exc.strerror or exc}") from None


NOT_A_FILE = " is not a regular file"  # how private.open_config says a config.toml is a folder, FIFO or device


def _refused(target: str, why: str, read: bool) -> str:
    """The line for a config.toml the loaders do not read: which file, why, what is in effect (when it
    is the file lh reads: ``read``), the fix."""
    fixable = "open to group or others" in why or "belongs to uid" in why  # why: private.fix's cases
    if not read and why.endswith(NOT_A_FILE):
        # why: PATH given names a device or a folder (/dev/null, the home folder); "move it aside", right for
        # lh's own config.toml in its place, was harmful to follow
        fixed: str | None = f"give the path of a config.toml file; with no PATH this checks {paths.config_file()}"
    else:
        fixed = private.fix_for_file(target, why) or (private.fix(target, why) if fixable else None)
    hint = f" (hint: {fixed})" if fixed else ""
    return f"{target}: not read: {why}{'; lh uses the defaults' if read else ''}{hint}"


@config.command()
@click.argument("path", required=False, type=click.Path(dir_okay=True))
@click.pass_context
def validate(ctx: click.Context, path: str | None) -> None:
    """Check config.toml (or PATH) as lh reads it: who may write it, syntax, types, unknown keys.
    Exit 1 on any error."""
    target = path or paths.config_file()
    # why: a draft's errors pause nothing; said of it, "distillation is paused" read as the live state
    read = os.path.abspath(target) == os.path.abspath(paths.config_file())
    raw, why = _read_checked(target, {"LH_CONFIG": os.path.abspath(target)} if path else None)
    if raw is None and not why:
        if not read:
            # why: lh config init writes the configured file only, never PATH
            raise LhError(f"{target} does not exist", hint="check the path; with no PATH this checks "
                          f"{paths.config_file()}")
        if (gone := dangling(target)) is not None:
            raise LhError(f"{gone[0]}: not read; lh uses the defaults", hint=gone[1])
        if path:
            raise LhError(f"{target} does not exist", hint="lh config init")
        click.echo(f"no config file at {target}: defaults apply (lh config init writes one)")
        return
    errors: list[str] = [_refused(target, why, read)] if why else []
    warnings: list[str] = []
    try:
        if raw is not None:
            _, errors, warnings = parse_bytes(raw, target)
    except ConfigError as exc:  # syntax error, not UTF-8: the message names file and line
        errors, warnings = [exc.message], []
    for line in errors:
        click.echo(line)
    for line in warnings:
        click.echo(_as_warning(target, line))
    if errors:
        summary = _plural(len(errors), "error") + (f", {_plural(len(warnings), 'warning')}" if warnings else "")
        effect = "distillation is paused until the file is valid" if read else (
            f"not the file lh reads, which is {paths.config_file()}")
        click.echo(f"{target}: {summary}; {effect}")
        ctx.exit(1)
    click.echo(f"{target}: valid" + (f", {_plural(len(warnings), 'warning')}" if warnings else ""))


def _keys_in_file(raw: bytes | None) -> dict[str, object]:
    """Dotted keys written in the file (its bytes ``raw``, None: not read) and their values as
    written (whatever their validity); empty when it cannot be parsed."""
    try:
        data = tomllib.loads(raw.decode("utf-8")) if raw is not None else {}
    except ValueError:  # why: TOMLDecodeError and UnicodeDecodeError are ValueErrors
        return {}
    return {f"{s}.{k}": v for s, body in data.items() if isinstance(body, dict) for k, v in body.items()}


def _source(dotted: str, written: dict[str, object], bad: set[str]) -> str:
    if dotted in bad:
        return "default (the file's value is wrong)"
    if dotted not in written:
        return "default"
    cap, value = cfg.CAPS.get(dotted), written[dotted]
    if cap is not None and isinstance(value, int) and value > cap:
        return f"config file, capped (the file says {value}, the cap is {cap})"
    floor = cfg.FLOORS.get(dotted)
    if floor is not None and isinstance(value, int) and value < floor:
        return f"config file, raised (the file says {value}, the floor is {floor})"
    return "config file"


def _annotated(values: Mapping[str, object], written: dict[str, object], bad: set[str]) -> str:
    """tomli_w's output with ``# config file`` / ``# default`` (or why not the file's value) after each key."""
    import tomli_w

    out, section = [], ""
    for line in tomli_w.dumps(values).splitlines():
        m = re.match(r"^\[(.+)\]$", line)
        if m:
            section = m.group(1)
        else:
            k = re.match(r"^([A-Za-z0-9_-]+) = ", line)
            if k:
                line = f"{line}  # {_source(f'{section}.{k.group(1)}', written, bad)}"
        out.append(line)
    return "\n".join(out)


@config.command()
@click.pass_context
def show(ctx: click.Context) -> None:
    """Print the values in effect as TOML, each marked with where it came from."""
    target = paths.config_file()
    raw, why = _read_checked(target, None)
    values, errors, warnings = (cfg.defaults(), [], []) if raw is None else parse_bytes(raw, target)
    knowledge = paths.knowledge_dir(values["knowledge"]["path"] or None)
    here = os.getcwd()
    state = f" (not read: defaults in effect; {why})" if why else " (not present: all defaults)"
    click.echo(f"# config file: {target}" + ("" if raw is not None else state))
    click.echo(f"# claude dir: {paths.claude_dir()}")
    click.echo(f"# queue: {paths.queue_dir()}")
    click.echo(f"# logs: {paths.logs_dir()}")
    click.echo(f"# knowledge dir: {knowledge}")
    click.echo(f"# memory root: {paths.memory_root(values['memory']['path'] or None)}")
    click.echo(f"# memory dir (this folder): {paths.memory_dir(here, None, values['memory']['path'] or None)}")
    click.echo("")
    bad = {m.group(1) for e in errors if (m := re.search(r": ([a-z_]+\.[a-z_]+): ", e))}
    click.echo(_annotated(values, _keys_in_file(raw), bad))
    for line in warnings:
        click.echo(_as_warning(target, line), err=True)
    for line in errors:
        click.echo(line, err=True)
    if errors:
        click.echo(f"lh: {target}: {_plural(len(errors), 'error')}; defaults shown for those keys "
                   "(hint: lh config validate)", err=True)
        ctx.exit(1)
    if why:
        click.echo(f"lh: {_refused(target, why, True)}", err=True)
        ctx.exit(1)
