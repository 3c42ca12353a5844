"""``lh config``: where config.toml is, what is in effect, a starting file, and a validator."""

from __future__ import annotations

import os
import re
import tomllib

import click

from lazy_harness import config as cfg
from lazy_harness import paths
from lazy_harness.atomic import atomic_write
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
    try:
        written = atomic_write(target, cfg.render_example(), exclusive=True)
    except OSError as exc:
        raise LhError(f"{target}: cannot write: {exc.strerror or exc}") from None
    if not written:
        raise LhError(f"{target} already exists; not overwritten", hint="lh config validate")
    click.echo(f"wrote {target} (every key at its default; set compound_loop.enabled = true or run lh hooks install)")


def _as_warning(path: str, message: str) -> str:
    """``<path>:<line>: msg`` -> ``<path>:<line>: warning: msg`` (compiler style)."""
    m = re.match(re.escape(path) + r"(:\d+)?: ", message)
    return f"{message[:m.end()]}warning: {message[m.end():]}" if m else f"warning: {message}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@config.command()
@click.argument("path", required=False, type=click.Path(dir_okay=True))
@click.pass_context
def validate(ctx: click.Context, path: str | None) -> None:
    """Check config.toml (or PATH): syntax, types, unknown keys. Exit 1 on any error."""
    target = path or paths.config_file()
    if not os.path.lexists(target):
        if path:
            raise LhError(f"{target} does not exist", hint="lh config init")
        click.echo(f"no config file at {target}: defaults apply (lh config init writes one)")
        return
    try:
        _, errors, warnings = cfg.parse_file(target)
    except ConfigError as exc:  # syntax error, not UTF-8, unreadable: the message names file and line
        errors, warnings = [exc.message], []
    for line in errors:
        click.echo(line)
    for line in warnings:
        click.echo(_as_warning(target, line))
    if errors:
        summary = _plural(len(errors), "error") + (f", {_plural(len(warnings), 'warning')}" if warnings else "")
        click.echo(f"{target}: {summary}; distillation is paused until the file is valid")
        ctx.exit(1)
    click.echo(f"{target}: valid" + (f", {_plural(len(warnings), 'warning')}" if warnings else ""))


def _keys_in_file(path: str) -> dict[str, object]:
    """Dotted keys written in the file and their values as written (whatever their validity); empty
    when it cannot be parsed."""
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, ValueError):
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
    values, errors, warnings = cfg.parse_file(target)
    exists = os.path.exists(target)
    knowledge = paths.knowledge_dir(values["knowledge"]["path"] or None)
    here = os.getcwd()
    click.echo(f"# config file: {target}" + ("" if exists else " (not present: all defaults)"))
    click.echo(f"# claude dir: {paths.claude_dir()}")
    click.echo(f"# queue: {paths.queue_dir()}")
    click.echo(f"# logs: {paths.logs_dir()}")
    click.echo(f"# knowledge dir: {knowledge}")
    click.echo(f"# memory root: {paths.memory_root(values['memory']['path'] or None)}")
    click.echo(f"# memory dir (this folder): {paths.memory_dir(here, None, values['memory']['path'] or None)}")
    click.echo("")
    bad = {m.group(1) for e in errors if (m := re.search(r": ([a-z_]+\.[a-z_]+): ", e))}
    click.echo(_annotated(values, _keys_in_file(target) if exists else {}, bad))
    for line in warnings:
        click.echo(_as_warning(target, line), err=True)
    for line in errors:
        click.echo(line, err=True)
    if errors:
        click.echo(f"lh: {target}: {_plural(len(errors), 'error')}; defaults shown for those keys "
                   "(hint: lh config validate)", err=True)
        ctx.exit(1)
