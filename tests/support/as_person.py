"""A call made as another local user, for the tests of what a person who is not root and not the owner
sees (ADR 0031): the person is ``nobody`` (uid and gid 65534), the world around them made by root.
Such tests need root (CI runs as root); ``as_root`` skips them elsewhere."""

import json
import os
import subprocess
import sys

import pytest

PERSON = 65534  # nobody
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="acting as another user needs root (CI runs as root)")


# why a new interpreter, not a fork of pytest's: a pytest-xdist worker runs threads, and a fork of a
# process with threads may deadlock in the child (Python 3.12+ warns on every such fork)
_CHILD = """
import importlib, json, os, sys
module, name, args = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
call = getattr(importlib.import_module(module), name)  # imported as root: the person may not read the venv
os.setgroups([])
os.setegid(int(sys.argv[4]))
os.seteuid(int(sys.argv[4]))
sys.stdout.write(str(call(*args)))
"""


def as_person(call, *args: str) -> str:
    """``call(*args)`` run in a new Python process acting as the person (effective uid and gid 65534), what
    it returned as text. ``call`` is a function of a module (named by its module and name), ``args``
    strings; the child has this process's environment and starts with no folder judged."""
    done = subprocess.run([sys.executable, "-c", _CHILD, call.__module__, call.__qualname__, json.dumps(args),
                           str(PERSON)], capture_output=True, text=True, env=dict(os.environ), timeout=120)
    if done.returncode:
        raise AssertionError(f"{call.__qualname__} as the person failed: {done.stderr}")
    return done.stdout


def made_by(path: str, uid: int, mode: int = 0o755) -> str:
    """A folder ``path`` made by root for ``uid`` (its owner and group), with ``mode``."""
    os.mkdir(path)
    os.chown(path, uid, uid)
    os.chmod(path, mode)
    return path


def not_the_persons(path: str, mode: int) -> str:
    """Make ``path`` what another local user could have made, then give it ``mode``: as root, theirs
    (owner and group ``PERSON``); unprivileged, where nothing can be given away, the person's own but
    open to others' writes (``mode`` with 0o022 added), which every check refuses as it refuses another
    user's. Returns the words of the refusal, the same for a folder of ours and for one holding it."""
    if os.geteuid() == 0:
        os.chown(path, PERSON, PERSON)
        os.chmod(path, mode)
        return f"belongs to uid {PERSON}, not to you (uid 0)"
    os.chmod(path, mode | 0o022)
    return f"is open to group or others (mode {(mode | 0o022) & 0o7777:04o})"


def me_and_my_group():
    """This user's entry in the user database and their primary group's, for the tests of a group of one
    (private.group_of_one); skipped for a uid with no entry (a container run with an arbitrary uid), which
    has no group of its own to test."""
    import grp
    import pwd

    try:
        me = pwd.getpwuid(os.geteuid())
        return me, grp.getgrgid(me.pw_gid)
    except KeyError:
        pytest.skip("this uid has no entry in the user database, so no private group of its own")
