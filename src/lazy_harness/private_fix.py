"""What to run for a folder or file of ours that may not be used (:mod:`lazy_harness.private`, ADR
0031), read from the reason ``private`` gave. Off the hooks' usual path: SessionStart loads it only to
tell the person what is refused; ``lh doctor`` and the refused commands print it as their hint."""

from __future__ import annotations

import os

from lazy_harness import paths


def fix(path: str, why: str) -> str:
    """What to run for an unsafe folder ``path`` (``why`` from ``private.problem``), or for
    config.toml (``why`` from ``private.open_config``): the fix for that error, on the path ``why`` names."""
    if " (holding " in why:
        return _holder_fix(path, why)
    if "without the sticky bit" in why:  # why: names the folder holding ours, not ``path``
        held = why.split(" is open to group or others", 1)[0]
        return (f"chmod go-w {held} (or chmod +t {held}), or point XDG_CACHE_HOME or LH_CONFIG at a place "
                "of yours")
    file_fix = fix_for_file(path, why)
    if file_fix:
        return file_fix
    if os.path.isfile(path) and "open to group or others" in why:
        return f"chmod go-w {path}"
    if "belongs to uid" in why or "symbolic link" in why or "not a folder" in why:
        return (f"remove {path} (it is not yours), or point XDG_CACHE_HOME, XDG_DATA_HOME, XDG_CONFIG_HOME, "
                "XDG_STATE_HOME, LH_CONFIG or CLAUDE_CONFIG_DIR at a place of yours")
    return f"chmod 700 {path}"


def fix_for_file(path: str, why: str) -> str | None:
    """The fix for a file (config.toml) that cannot be read or is not a regular file, and for the
    folder holding it when it cannot be opened; None for the other cases of :func:`fix`. A file we
    read and write gets ``chmod 600``, never the folders' ``chmod 700`` (that makes it executable)."""
    denied = why.endswith("(Permission denied)")
    for marker in (" cannot be read (", " is not a regular file", " cannot be opened as a folder ("):
        if marker not in why:
            continue
        named = why.rsplit(marker, 1)[0]  # why: a followed link's target, the holder: not always ``path``
        if marker == " cannot be opened as a folder (":
            return f"chmod 700 {named}" if denied else None
        if denied:
            return f"chmod 600 {named}"
        init = ", then lh config init writes a new one" if named == paths.config_file() else ""
        return f"move {named} aside{init}"
    return None


def _holder_fix(path: str, why: str) -> str:
    """The fix for a folder above ``path`` in which another user could rename (``private.problem``): the
    person's own, opened, is closed; another's is left to them, and ours is put elsewhere."""
    holder = why.split(" (holding ", 1)[0]
    moved = f"point {_setting_of(path)} at a folder of yours"
    try:
        mine = os.lstat(holder).st_uid == os.geteuid()
    except OSError:
        mine = False
    if mine and "without the sticky bit" in why:
        return f"chmod go-w {holder} (or chmod +t {holder}), or {moved}"
    return moved


def _setting_of(path: str) -> str:
    """The variable that says where the folder of ours ``path`` is: that of the innermost of our
    roots holding it; all of them when none does."""
    roots = [(paths.cache_dir(), "XDG_CACHE_HOME"), (paths.data_dir(), "XDG_DATA_HOME"),
             (paths.machine_state_dir(), "XDG_STATE_HOME"), (paths.claude_dir(), "CLAUDE_CONFIG_DIR"),
             (paths.own_config_dir() or "\0", "XDG_CONFIG_HOME")]  # why NUL: with LH_CONFIG no folder is ours
    inside = [(len(root), name) for root, name in roots if path == root or path.startswith(root + os.sep)]
    return max(inside)[1] if inside else ("XDG_CACHE_HOME, XDG_DATA_HOME, XDG_STATE_HOME, XDG_CONFIG_HOME or "
                                          "CLAUDE_CONFIG_DIR")
