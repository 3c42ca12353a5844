"""``lh doctor``: is everything in place? One line per check, ``ok|info|warn|fail``, with a hint.

Read-only: it creates nothing (a writable check looks at the nearest existing folder). The checks live
by what they look at: the config here, the distiller's CLIs (doctor_distiller.py), the hooks
(doctor_hooks.py), folders (doctor_folders.py), memory (doctor_memory.py), the queue and the worker
(doctor_queue.py); each prints through doctor_report.py.
"""

from __future__ import annotations

import os
import sys
import time

import click

from lazy_harness import config, paths
from lazy_harness.cli.config import dangling
from lazy_harness.cli.doctor_distiller import check_distiller
from lazy_harness.cli.doctor_folders import check_claude_dir_before, check_private_folders, check_writable
from lazy_harness.cli.doctor_hooks import check_bundle, check_hooks
from lazy_harness.cli.doctor_memory import (check_index, check_learning_files, check_long_texts, check_memory,
                                            check_memory_lines, check_resident, check_sync)
from lazy_harness.cli.doctor_queue import check_ledger_lines, check_queue
from lazy_harness.cli.doctor_report import Report
from lazy_harness.errors import ConfigError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config


def _check_config(r: Report) -> tuple[Config, str | None]:
    """The config line(s); the values the checks below use, and the problem of a wrong ``memory.path``
    or ``knowledge.path`` (None: the folders are the file's or the defaults it asks for)."""
    from lazy_harness import private

    path = paths.config_file()
    relative = paths.ignored_lh_config()
    if relative is not None:  # why: ignored without a word, the person edits a file lh never reads
        r.line("warn", "config", f"LH_CONFIG is relative ({relative}) and ignored: lh reads {path}",
               "set LH_CONFIG to an absolute path (hooks run in every project's folder), or unset it")
    unsafe = private.config_problem()
    if unsafe:  # why: a file another user could write is never read, and no path in it is ever run
        r.line("fail", "config", f"{unsafe}: not read; the checks below use the defaults", private.fix(path, unsafe))
        return config.defaults(), None
    problem = None
    try:
        values, errors, warnings = config.parse_file(path)
    except ConfigError as exc:
        values, errors, warnings = config.defaults(), [exc.message], []
    if errors:
        problem = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        r.line("fail", "config", errors[0] + more, "lh config validate")
    elif warnings:
        word = "warning" if len(warnings) == 1 else "warnings"
        r.line("warn", "config", f"{len(warnings)} {word}: {warnings[0]}", "lh config validate")
    elif (gone := dangling(path)) is not None:  # why: a dotfiles link left dangling is not "no file"
        r.line("warn", "config", f"{gone[0]}: defaults apply", gone[1])
    elif not os.path.exists(path) and paths.own_config_dir() is None:
        # why: $LH_CONFIG asks for this file by name; one not there (a typo, a moved folder) is not "ok"
        r.line("warn", "config", f"LH_CONFIG names {path}, which does not exist: every key is at its default",
               "lh config init writes it there, or point LH_CONFIG at your config.toml (or unset it)")
    elif not os.path.exists(path):
        r.line("ok", "config", f"no file at {path}: defaults apply")
    else:
        r.line("ok", "config", f"{path} is valid")
    if problem:  # the policy of ADR 0016: an invalid file pauses distillation
        r.line("fail", "compound loop", "paused: config.toml is invalid; no session is queued or distilled "
               "until it is fixed (sessions are watched, the sweep queues them afterwards)", "lh config validate")
    elif values["compound_loop"]["enabled"]:
        r.line("ok", "compound loop", "enabled")
    else:
        _loop_off(r)
    return values, next((e for e in errors if config.names_a_folder(e, path)), None)


def _loop_off(r: Report) -> None:
    """The compound loop is off: the way to switch it on depends on how the hooks are installed."""
    from lazy_harness import plugin

    hint, not_yet = plugin.loop_off_hint(os.getcwd())
    if not_yet:
        r.line("info", "compound loop", f"not switched on yet: {hint}")
    else:
        r.line("warn", "compound loop", "disabled: finished sessions are not distilled", hint)

@click.command()
@click.pass_context
def doctor(ctx: click.Context) -> None:
    """Check the installation, one line per check; exit 1 when any check fails."""
    r = Report()
    v = sys.version_info
    r.line("ok" if v >= (3, 11) else "fail", "python", f"{sys.version.split()[0]} ({sys.executable})",
           None if v >= (3, 11) else "install Python 3.11 or newer")
    values, unplaced = _check_config(r)
    from lazy_harness.cli import hooks_codex

    codex_holds = bool(hooks_codex.inspect(ask=False).ours)  # why: Codex alone needs neither claude nor settings.json
    check_distiller(r, values, codex_holds)
    check_bundle(r, check_hooks(r, codex_holds))
    for row in hooks_codex.doctor_lines():
        r.line(*row)
    check_writable(r, "queue folder", paths.queue_dir())
    check_writable(r, "log folder", paths.logs_dir())
    if unplaced:  # why: the default folders are not the person's memory; "ok" of them hid that lh reads none
        r.line("warn", "memory folder", f"not checked: config.toml does not say where memory is ({unplaced})",
               "lh config validate")
    else:
        check_memory(r, values)
        check_memory_lines(r, values)
        check_learning_files(r, values)
        check_long_texts(r, values)
    # why one read of the ledger for its lines and the spend: each read checks every line of the month;
    # the spend first, so its open-call markers are read before the ledger (budget.spend)
    from lazy_harness.cost import budget, snapshot

    now = time.time()
    read = snapshot.Snapshot((budget.day_start(now), budget.month_start(now)))
    spend = budget.spend(None, now, read.since)
    check_ledger_lines(r, read.unread)
    check_index(r)
    check_private_folders(r)
    check_claude_dir_before(r)
    check_resident(r, values)
    check_queue(r, time.time())
    check_sync(r, values)
    from lazy_harness.cli.cost import spend_lines  # spend today and a paused or failing loop
    from lazy_harness.cli.doctor_queue import with_failing

    for row in with_failing(spend_lines(values, seen=spend), paths.queue_dir()):
        r.line(*row)
    if r.failed:
        ctx.exit(1)
