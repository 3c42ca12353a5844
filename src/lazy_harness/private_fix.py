"""What to run for a folder or file of ours that may not be used (:mod:`lazy_harness.private`, ADR
0031), read from the reason ``private`` gave. Off the hooks' usual path: SessionStart loads it only to
tell the person what is refused; ``lh doctor`` and the refused commands print it as their hint."""

from __future__ import annotations

import errno
import os
import stat

from lazy_harness import paths


def fix(path: str, why: str) -> str:
    """What to run for an unsafe folder ``path`` (``why`` from ``private.problem``), or for
    config.toml (``why`` from ``private.open_config``): the fix for that error, on the path ``why`` names."""
    if " cannot be looked at (" in why:  # why: what stops it is a folder above the one named
        return _unreachable_fix(path, why)
    if " (holding " in why:
        return _holder_fix(path, why)
    if "without the sticky bit" in why:  # why: names the folder holding ours, not ``path``
        held = why.split(" is open to group or others", 1)[0]
        elsewhere = f"point {_where_setting(path)} at a place of yours"
        owner = _owner_if_not_yours(held)
        if owner:  # why: only its owner (or root) may chmod it
            return f"{elsewhere}, or ask {owner} or an administrator to chmod go-w {held}"
        return f"chmod go-w {held} (or chmod +t {held}), or {elsewhere}"
    file_fix = fix_for_file(path, why)
    if file_fix:
        return file_fix
    if " cannot be opened as a folder (" in why:  # why: config.toml's folder, not a folder or a loop of links
        return _unreachable_fix(path, why)
    if os.path.isfile(path) and "open to group or others" in why:
        return f"chmod go-w {path}"
    for marker in (" belongs to uid", " is a symbolic link", " is not a folder"):
        if marker in why:
            return _not_ours_fix(path, why.split(marker, 1)[0])
    if why.endswith(" links to follow"):  # why: config.toml's links go round (or on too far): chmod reaches none
        return f"remove the link {paths.config_file()} (its links loop, or go on too far), then lh config init"
    return f"chmod 700 {path}"


def _where_setting(path: str) -> str:
    """The variables that move ``path``, a folder or file of ours, elsewhere: config.toml's are
    XDG_CONFIG_HOME and LH_CONFIG (LH_CONFIG alone once it is set), the others' :func:`_setting_of`."""
    own = paths.own_config_dir()
    if path == paths.config_file() or (own is not None and paths.is_within(path, own)):
        return "LH_CONFIG" if own is None else "XDG_CONFIG_HOME or LH_CONFIG"
    return _setting_of(path)


def _not_ours_fix(path: str, named: str) -> str:
    """The fix for ``named`` (another user's, a link or not a folder) found where ``path``, ours, is or
    above it: move it aside (a link: remove it), when the folder holding it lets the person; else put
    ours elsewhere, or ask its owner. why: in a sticky folder not theirs (another user made
    /tmp/lazy-harness) neither ``rm`` nor ``mv`` works."""
    if _removable(named):
        return (f"{_out_of_the_way(named)}, or point XDG_CACHE_HOME, XDG_DATA_HOME, XDG_CONFIG_HOME, "
                "XDG_STATE_HOME, LH_CONFIG or CLAUDE_CONFIG_DIR at a place of yours")
    setting = _setting_of(path)
    example = _EXAMPLES.get(setting)
    mine = f" (e.g. {example})" if example and not paths.is_within(path, paths.home()) else ""
    owner = _owner_if_not_yours(named) or "its owner"
    return f"point {setting} at a folder of yours{mine}, or ask {owner} or an administrator to remove {named}"


def _out_of_the_way(named: str) -> str:
    """What takes ``named`` out of the way, in the folder holding it (:func:`_removable`): a link is
    removed (that touches nothing it leads to); anything else is renamed beside it. why not ``rm -r``:
    on another user's folder it fails on whatever inside is closed to the person; a rename does not."""
    try:
        st = os.lstat(named)
    except OSError:
        return f"move {named} aside"
    if stat.S_ISLNK(st.st_mode):
        return f"remove the link {named}"
    if st.st_uid != os.geteuid():
        return f"move {named} aside (e.g. mv {named} {named}.not-mine)"
    return f"move {named} aside"


def _unreachable_fix(path: str, why: str) -> str:
    """The fix for a folder ``why`` says cannot be looked at (``path``, or a folder above it that holds
    it) or opened (config.toml's): on the folder which stops the person (:func:`_in_the_way`), above
    it or, opened, itself. None found (a path too long), ours is put elsewhere; refused outright, the
    folder itself is opened."""
    opened = " cannot be opened as a folder (" in why
    named = why.split(" cannot be opened as a folder (" if opened else " cannot be looked at (", 1)[0]
    named = named.split(" (holding ", 1)[0]
    fault, closed = _in_the_way(os.path.join(named, "") if opened else named)
    elsewhere = ("point XDG_CONFIG_HOME or LH_CONFIG at a place of yours" if opened  # why: as fix_for_file says
                 else f"point {_setting_of(path)} at a folder of yours")
    if fault is None:
        denied = why.endswith("(Permission denied)") and " (holding " not in why
        return f"chmod 700 {path}" if denied else elsewhere
    if not closed:
        return _not_ours_fix(path, fault)
    owner = _owner_if_not_yours(fault)
    if owner is None:  # why not chmod 700: a folder above ours may be shared on purpose; this only lets them in
        return f"chmod u+rwx {fault}"
    try:
        root = os.lstat(fault).st_uid == 0
    except OSError:
        root = False
    # why not asked of another user: their folder above ours is refused even once open (private.holder_problem)
    return f"{elsewhere}, or ask {owner} or an administrator to let you open {fault}" if root else elsewhere


def _in_the_way(named: str) -> tuple[str | None, bool]:
    """The first folder above ``named`` (``named`` itself too when it ends with ``/``), from the top,
    that stops it being looked at: (it, True) when the person may not enter it, (it, False) when it is
    not a folder or a loop of links; (None, False) when none does, or one cannot be looked at itself
    (a path too long)."""
    here, whole = os.sep, os.path.abspath(named) + (os.sep if named.endswith(os.sep) else "")
    for part in whole.split(os.sep)[1:-1]:
        here = os.path.join(here, part)
        try:
            st = os.stat(here)
        except OSError as exc:
            return (here, False) if exc.errno == errno.ELOOP else (None, False)
        if not stat.S_ISDIR(st.st_mode):
            return here, False
        if not os.access(here, os.X_OK, effective_ids=True):
            return here, True
    return None, False


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
        if marker == " is not a regular file" and (elsewhere := _not_a_file_elsewhere(path, named)):
            return elsewhere
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


def _not_a_file_elsewhere(path: str, named: str) -> str | None:
    """The fix for config.toml (``path``) that is not a regular file when that is not lh's own file in
    its own place, else None (moved aside there, then written again by ``lh config init``; another file
    of ours, the hooks' bundle, moved aside too): reached through a link, the link is removed; named by
    ``$LH_CONFIG``, that is pointed at a file. why: what is not a file there is the person's (/dev/null,
    their home folder): moving it aside did harm."""
    if os.path.abspath(path) != os.path.abspath(paths.config_file()):
        return None
    if os.path.abspath(named) != os.path.abspath(path):  # why: a dotfiles link to /dev/null or a folder
        return f"remove the link {path} (it leads to {named}), then lh config init writes a new one"
    if paths.own_config_dir() is None:
        return f"point LH_CONFIG at a config.toml file ({named} is not one)"
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
