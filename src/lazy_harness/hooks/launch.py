"""What the hook command runs: the bundle of the hooks' modules put first on the import path
(:mod:`lazy_harness.hotload`), then ``hooks.entry.run``. The ``lh-hook`` script and
``python -m lazy_harness.hooks`` run it too.

why no ``from __future__ import annotations`` and no import at the top but ``os`` and ``sys`` (both
loaded by every interpreter's start): under ``lh-hook``, whose interpreter reads PYTHONPATH, a module
of the standard library found through it (a project's ``__future__.py``) would run before
:func:`drop_env_path` takes those folders off ``sys.path``.
"""

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def drop_env_path(env: "Mapping[str, str] | None" = None) -> None:
    """Take the folders PYTHONPATH put on ``sys.path`` (and any relative entry) off it again, when the
    interpreter read it (not under ``-I`` or ``-E``, which the registered command uses).

    why: the hooks use the standard library and this package (imported by now) only; those folders
    come before the standard library, and an empty or relative entry (``:/opt/tools``, ``.``) is the
    folder Claude Code runs the hook in, the person's project, whose ``datetime.py`` would run inside
    the hook and print into the JSON Claude Code reads."""
    if sys.flags.ignore_environment:
        return
    listed = (os.environ if env is None else env).get("PYTHONPATH")
    if not listed:
        return
    try:
        here: str | None = os.getcwd()
    except OSError:
        here = None  # a deleted folder: its relative entries cannot be told apart, every relative one goes
    drop = {os.path.normpath(entry if os.path.isabs(entry) or here is None else os.path.join(here, entry))
            for entry in listed.split(os.pathsep)}
    # why: a PYTHONPATH naming the interpreter's own folders (its standard library) made ``site`` drop
    # the interpreter's copy of that entry as a duplicate; taking PYTHONPATH's off left no standard library
    own = tuple({os.path.join(os.path.normpath(p), "") for p in (sys.prefix, sys.base_prefix, sys.exec_prefix,
                                                                  sys.base_exec_prefix)})
    sys.path[:] = [p for p in sys.path if p and os.path.isabs(p) and (
        os.path.normpath(p) not in drop or os.path.join(os.path.normpath(p), "").startswith(own))]


def run() -> None:
    drop_env_path()
    from lazy_harness import hotload

    hotload.install()
    from lazy_harness.hooks.entry import run as run_entry

    run_entry()
