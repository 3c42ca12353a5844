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
        elsewhere = "point XDG_CACHE_HOME or LH_CONFIG at a place of yours"
        owner = _owner_if_not_yours(held)
        if owner:  # why: only its owner (or root) may chmod it
            return f"{elsewhere}, or ask {owner} or an administrator to chmod go-w {held}"
        return f"chmod go-w {held} (or chmod +t {held}), or {elsewhere}"
    file_fix = fix_for_file(path, why)
    if file_fix:
        return file_fix
    if os.path.isfile(path) and "open to group or others" in why:
        return f"chmod go-w {path}"
    for marker in (" belongs to uid", " is a symbolic link", " is not a folder"):
        if marker in why:
            return _not_ours_fix(path, why.split(marker, 1)[0])
    return f"chmod 700 {path}"


def _not_ours_fix(path: str, named: str) -> str:
    """The fix for ``named`` (another user's, a link or not a folder) found where ``path``, ours, is or
    above it: remove it, when the folder holding it lets the person; else put ours elsewhere, or ask
    its owner. why: in a sticky folder not theirs (another user made /tmp/lazy-harness) ``rm`` fails."""
    if _removable(named):
        return (f"remove {named} (it is not yours), or point XDG_CACHE_HOME, XDG_DATA_HOME, XDG_CONFIG_HOME, "
                "XDG_STATE_HOME, LH_CONFIG or CLAUDE_CONFIG_DIR at a place of yours")
    setting = _setting_of(path)
    example = _EXAMPLES.get(setting)
    mine = f" (e.g. {example})" if example and not paths.is_within(path, paths.home()) else ""
    owner = _owner_if_not_yours(named) or "its owner"
    return f"point {setting} at a folder of yours{mine}, or ask {owner} or an administrator to remove {named}"


# where each setting points when it is not set: a folder of the person's own, said as an example
_EXAMPLES = {"XDG_CACHE_HOME": "~/.cache", "XDG_DATA_HOME": "~/.local/share", "XDG_STATE_HOME": "~/.local/state",
             "XDG_CONFIG_HOME": "~/.config"}


def _removable(path: str) -> bool:
    """Whether the person may remove (or rename) ``path`` from the folder holding it: that folder lets
    them write in it, and is not sticky or is theirs or ``path`` is (root may always)."""
    me, holder = os.geteuid(), os.path.dirname(path)
    if me == 0:
        return True
    try:
        up, st = os.stat(holder), os.lstat(path)
    except OSError:
        return False
    if not os.access(holder, os.W_OK | os.X_OK, effective_ids=True):
        return False
    return not up.st_mode & 0o1000 or me in (up.st_uid, st.st_uid)


def _owner_if_not_yours(path: str) -> str | None:
    """Who ``path`` belongs to (their user name, else "uid N") when the person cannot change it: it is
    not theirs and they are not root; None otherwise, or when it cannot be looked at."""
    me = os.geteuid()
    try:
        uid = os.lstat(path).st_uid
    except OSError:
        return None
    if me in (0, uid):
        return None
    import pwd  # why here: read only for a refused folder of another user

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def fix_for_file(path: str, why: str) -> str | None:
    """The fix for a file (config.toml) that cannot be read or is not a regular file, and for the
    folder holding it when it cannot be opened; None for the other cases of :func:`fix`. A file we
    read and write gets ``chmod 600``, never the folders' ``chmod 700`` (that makes it executable)."""
    denied = why.endswith("(Permission denied)")
    for marker in (" cannot be read (", " is not a regular file", " cannot be opened as a folder ("):
        if marker not in why:
            continue
        named = why.rsplit(marker, 1)[0]  # why: a followed link's target, the holder: not always ``path``
        owner = _owner_if_not_yours(named)
        if marker == " cannot be opened as a folder (":
            if not denied:
                return None
            return (f"ask {owner} or an administrator to let you open {named}, or point XDG_CONFIG_HOME or "
                    "LH_CONFIG at a place of yours") if owner else f"chmod 700 {named}"
        if denied and not owner:
            return f"chmod 600 {named}"
        init = ", then lh config init writes a new one" if named == paths.config_file() else ""
        if owner and not _removable(named):
            return (f"ask {owner} or an administrator to move {named} aside, or point LH_CONFIG at a file of "
                    "yours")
        return f"move {named} aside (it is {owner}'s){init}" if owner else f"move {named} aside{init}"
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
