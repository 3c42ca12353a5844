"""``lh doctor``'s checks of folders: each one written can be (the nearest existing folder looked at,
nothing created), and none of ours, nor Claude Code's, is writable by another user, nor inside a
folder in which another user could rename (ADR 0031)."""

from __future__ import annotations

import os
import stat

from lazy_harness import paths
from lazy_harness.cli.doctor_report import Report


def check_writable(r: Report, check: str, folder: str) -> None:
    """Whether ``folder`` can be written: fails when it lies in a folder of ours that is refused (nothing
    is written there until it is fixed), says nothing when it is that folder (:func:`check_private_folders`
    fails it), else looks at the nearest existing folder."""
    # why absolute: from a relative folder (a relative HOME) the walk up reached "" and never ended
    whole = probe = os.path.abspath(folder)
    refused = refused_holder(whole)
    if refused:
        from lazy_harness import private

        if refused[0] != whole:  # why: one of ours itself is failed once, by check_private_folders
            r.line("fail", check, f"{folder}: not used while {refused[1]}", private.fix(*refused))
        return
    while not os.path.exists(probe):
        probe = os.path.dirname(probe)
    if not os.path.isdir(probe):
        r.line("fail", check, f"{folder}: {probe} is not a folder", f"move {probe} aside")
    elif not os.access(probe, os.W_OK | os.X_OK):
        r.line("fail", check, f"{folder}: {probe} is not writable", f"chmod u+rwx {probe}")
    elif probe != whole:
        r.line("ok", check, f"{folder} (created on first use)")
    else:
        r.line("ok", check, f"{folder} is writable")


def refused_holder(folder: str) -> tuple[str, str] | None:
    """The innermost folder of ours that is ``folder`` or holds it and is refused (ADR 0031), with why:
    (path, why); None when there is none."""
    from lazy_harness import private

    ours = [(os.path.abspath(path), strict) for _, path, strict in private.folders()]
    holding = sorted(((path, strict) for path, strict in ours
                      if folder == path or folder.startswith(path.rstrip(os.sep) + os.sep)),
                     key=lambda each: len(each[0]), reverse=True)
    for path, strict in holding:
        why = private.problem(path, strict)
        if why:
            return path, why
    return None


def check_private_folders(r: Report) -> None:
    """Each folder of ours another user could write, or rename on the way to (ADR 0031): which, why
    (the folder at fault and the one of ours it holds), what to run. Until it is fixed the hooks skip
    (and the answerer's folder, strict, is not used for it)."""
    from lazy_harness import private

    for what, path, why in private.unsafe():
        effect = "the answerer is not used" if what == "recall" and not private.problem(path) else "hooks skip"
        r.line("fail", what if what.endswith(" file") else f"{what} folder", f"{why}; {effect} until it is fixed",
               private.fix(path, why))
    # why not a folder the hooks refuse: it is Claude Code's, and whoever can write it already decides
    # which hooks Claude Code runs (settings.json); the person is told, as ADR 0031 says
    claude = paths.claude_dir()
    said = _claude_folder_problem(claude)
    if said:
        r.line("fail", "claude folder", f"{said}; whoever can write it can change the hooks Claude Code runs as you",
               private.fix(claude, said))


def _claude_folder_problem(claude: str) -> str | None:
    """Why another user could write the Claude folder, or None: a link of the person's (dotfiles, stow)
    is judged by the folder it leads to; a group of one (umask 002) is none (``private.group_of_one``)."""
    from lazy_harness import private

    try:
        st = os.lstat(claude)
    except OSError:
        return None
    if stat.S_ISLNK(st.st_mode):
        if st.st_uid != os.geteuid():
            return f"{claude} is a symbolic link of uid {st.st_uid}, not yours (uid {os.geteuid()})"
        claude = os.path.realpath(claude)
    said = private.problem(claude)
    return None if said is None or private.group_of_one(claude, said) else said


def check_claude_dir_before(r: Report) -> None:
    """What an older lh left in the folder it took ``CLAUDE_CONFIG_DIR='~/cfg'`` for (``$HOME/cfg``), now
    that lh reads ``<cwd>/~/cfg`` as Claude Code does: sessions queued there and not distilled, a
    settings.json holding our hooks (``paths.claude_dir_before``). Nothing when it holds neither."""
    from lazy_harness import settings, settings_read
    from lazy_harness.cli.hooks_worker import pending_tasks
    from lazy_harness.errors import SettingsError

    before = paths.claude_dir_before()
    if before is None or not os.path.isdir(before):
        return
    waiting = len(pending_tasks({**os.environ, "CLAUDE_CONFIG_DIR": before}))
    try:
        data, _ = settings_read.read(os.path.join(before, "settings.json"))
    except SettingsError:
        data = None
    left = ([f"{waiting} session{'' if waiting == 1 else 's'} queued and not distilled"] if waiting else []) + (
        ["a settings.json holding lazy-harness hooks"] if isinstance(data, dict) and settings.find_ours(data) else [])
    if left:
        r.line("warn", "claude folder", f"CLAUDE_CONFIG_DIR is {paths.claude_dir()} for Claude Code and lh (its ~ "
               f"is not expanded); lh before 0.2.0 used {before}, which holds {' and '.join(left)}",
               f'export CLAUDE_CONFIG_DIR="{before}" (absolute: Claude Code and lh both use it then, and '
               "the queued sessions are distilled)")
