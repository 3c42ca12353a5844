"""A call made as another local user, for the tests of what a person who is not root and not the owner
sees (ADR 0031): the person is ``nobody`` (uid and gid 65534), the world around them made by root.
Such tests need root (CI runs as root); ``as_root`` skips them elsewhere."""

import os

import pytest

from lazy_harness import private

PERSON = 65534  # nobody
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="acting as another user needs root (CI runs as root)")


def as_person(call, *args) -> str:
    """``call(*args)`` run in a child acting as the person (effective uid and gid 65534), what it returned
    as text. The child starts with no folder judged: ``private`` keeps what it judged per process."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            os.close(read)
            os.setgroups([])
            os.setegid(PERSON)
            os.seteuid(PERSON)
            private._PLACES.clear()
            os.write(write, str(call(*args)).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as got:
        out = got.read()
    os.waitpid(pid, 0)
    return out


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
