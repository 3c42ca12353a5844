"""``lh doctor``'s checks of the CLIs the worker's model calls go through (``[worker] distiller``, ADR
0044): claude (found, ``--version``, against the versions the e2e suite runs) and codex (found, its
configuration loads)."""

from __future__ import annotations

import os
import re
import shlex
import shutil

from lazy_harness import paths
from lazy_harness.cli.doctor_report import Report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config

# The Claude Code versions the e2e suite runs against (.ci/run installs both; docs/adr/0011).
CLAUDE_OLDEST_TESTED = "2.1.197"
CLAUDE_NEWEST_TESTED = "2.1.332"
VERSION_TIMEOUT = 10  # seconds for `claude --version`
_VERSION = re.compile(r"\b(\d+)\.(\d+)\.(\d+)\b")


def check_distiller(r: Report, values: Config, codex_holds: bool) -> None:
    """The CLI the worker's model calls go through (``[worker] distiller``, ADR 0044), and claude: a
    missing claude is a failure only when it distils, or when Codex's hooks.json holds none of ours
    (Claude Code is then what lazy-harness serves here). With Codex's hooks and ``auto``, a missing
    claude that fails means codex is missing too: its line names both installs."""
    from lazy_harness.worker import codex_distill

    used = codex_distill.chosen(values)
    either = codex_holds and (values["worker"]["distiller"] or "auto") == "auto"
    _check_claude(r, values, needed=used == "claude" or not codex_holds, either=either)
    if used == "codex":
        _check_codex(r, values)


def missing_distiller(values: Config) -> str | None:
    """What keeps the worker's model calls from starting (``lh status``'s line): the executable of the
    distiller ``worker.distiller`` picks, not found as the worker looks it up; None when it is there."""
    from lazy_harness.worker import codex_distill

    used = codex_distill.chosen(values)
    wanted = codex_distill.codex_path(values) if used == "codex" else values["compound_loop"]["claude_path"] or "claude"
    if _executable(wanted) is not None:
        return None
    where = "on PATH" if os.sep not in wanted else "or not executable"
    nor = (f", nor {codex_distill.codex_path(values)} (worker.distiller = auto)"
           if used == "claude" and (values["worker"]["distiller"] or "auto") == "auto" else "")
    return f"{wanted} not found {where}{nor}"


def _check_claude(r: Report, values: Config, needed: bool = True, either: bool = False) -> None:
    """claude: found, its version. ``either``: codex would distil in its place (Codex's hooks hold
    ours, ``worker.distiller`` is ``auto``), so a fail line names both installs."""
    wanted = values["compound_loop"]["claude_path"] or "claude"
    exe = _executable(wanted)
    hint = "npm install -g @anthropic-ai/claude-code, or set compound_loop.claude_path"
    if exe is None:
        where = "on PATH" if os.sep not in wanted else "or not executable"
        if needed and either:  # why: auto picks codex when it is found; this line means neither was
            r.line("fail", "claude", f"{wanted} not found {where}, nor codex: Codex's hooks.json holds ours and "
                   "either one distils sessions (worker.distiller = auto)",
                   "npm install -g @openai/codex or npm install -g @anthropic-ai/claude-code, or set "
                   "worker.codex_path or compound_loop.claude_path")
        elif needed:
            r.line("fail", "claude", f"{wanted} not found {where}", hint)
        else:
            r.line("info", "claude", f"{wanted} not found {where}: not needed here (Codex's hooks hold ours and "
                   "codex distils sessions)")
        return
    version = _version(r, "claude", exe, hint)
    if version is not None:
        r.line("ok", "claude", f"{exe}: {version}")
        _check_claude_version(r, version, shlex.quote(exe))


def _check_codex(r: Report, values: Config) -> None:
    """codex, when it is the distiller: found, and what ``codex --version`` says."""
    from lazy_harness.worker import codex_distill

    wanted = codex_distill.codex_path(values)
    role = f"it distils sessions (worker.distiller = {values['worker']['distiller'] or 'auto'})"
    hint = "npm install -g @openai/codex, or set worker.codex_path"
    exe = _executable(wanted)
    if exe is None:
        where = "on PATH" if os.sep not in wanted else "or not executable"
        r.line("fail", "codex", f"{wanted} not found {where}; {role}", hint)
        return
    version = _version(r, "codex", exe, hint)
    if version is None:
        return
    problem, fix = _codex_config_problem(exe)
    if problem:
        r.line("fail", "codex", f"{problem}; {role}, and each distill call stops at that error", fix)
    else:
        r.line("ok", "codex", f"{exe}: {version}; {role}")


def _codex_config_problem(exe: str) -> tuple[str | None, str | None]:
    """(what keeps codex from loading its configuration, the hint), or (None, None). Codex is asked
    first, as ``lh hooks install --agent codex`` asks it (its words name the file and line, for TOML
    that does not parse and for a value it refuses); when it cannot be asked, config.toml is read
    here, which still finds a file that is not TOML."""
    from lazy_harness import codex_trust, codex_trust_server
    from lazy_harness.worker import codex_distill

    try:
        found = codex_trust.config_error(exe, paths.neutral_dir(), timeout=VERSION_TIMEOUT)
    except codex_trust_server.TrustError:
        bad = codex_distill.toml_error()
        return (bad, f"fix {codex_distill.config_file()}, then lh doctor") if bad else (None, None)
    return (found.message, "fix it where Codex says, then lh doctor") if found else (None, None)


def _executable(wanted: str) -> str | None:
    """``wanted`` (a name looked up on PATH, or a path) as an executable file, or None."""
    exe = os.path.expanduser(wanted) if os.sep in wanted else shutil.which(wanted)
    if not exe or not os.access(exe, os.X_OK) or os.path.isdir(exe):
        return None
    return exe


def _version(r: Report, check: str, exe: str, hint: str) -> str | None:
    """The first line ``exe --version`` prints, or None after a fail line saying why there is none."""
    from lazy_harness import proc

    try:
        res = proc.run([exe, "--version"], timeout=VERSION_TIMEOUT)
    except proc.ProcError as exc:
        r.line("fail", check, exc.message, hint)
        return None
    if not res.ok:
        r.line("fail", check, res.describe().replace("\n", " | "), f"{shlex.quote(exe)} --version")
        return None
    return (res.stdout.strip().splitlines() or ["?"])[0]


def _parse_version(text: str) -> tuple[int, ...] | None:
    m = _VERSION.search(text)
    return tuple(int(n) for n in m.groups()) if m else None


def _check_claude_version(r: Report, version: str, exe: str) -> None:
    """Warn outside the versions the e2e suite runs: the transcript format and hooks change between them.
    A patch release above the newest tested is information only: Claude Code ships one every few days."""
    tested = f"tested {CLAUDE_OLDEST_TESTED} to {CLAUDE_NEWEST_TESTED}"
    found = _parse_version(version)
    # why: `or ()` only for the type checker: our own two constants always parse
    oldest, newest = _parse_version(CLAUDE_OLDEST_TESTED) or (), _parse_version(CLAUDE_NEWEST_TESTED) or ()
    if found is None:
        r.line("warn", "claude version", f"cannot read a version in {version!r} ({tested})", f"{exe} --version")
    elif found < oldest:
        r.line("warn", "claude version", f"{'.'.join(map(str, found))} is older than the oldest tested "
               f"({tested})", "npm install -g @anthropic-ai/claude-code")
    elif found > newest and found[:2] == newest[:2]:
        r.line("info", "claude version", f"{'.'.join(map(str, found))} is newer than tested ({tested}): a "
               "patch release; lh logs shows a session's distillation if memory looks thin")
    elif found > newest:
        r.line("warn", "claude version", f"{'.'.join(map(str, found))} is newer than the newest tested "
               f"({tested}): its transcripts may have changed; distilled memory may miss turns",
               "check lh logs after a session")
    else:
        r.line("ok", "claude version", f"{'.'.join(map(str, found))} ({tested})")
