"""The bundle is code: another local user who can rename entries in the folder holding the cache
folder must not get the launcher to load (or the writer to write) a bundle of theirs, even when they
swap ``<cache>/lazy-harness`` between the launcher's checks and its read (hotload.py, ADR 0050).

The race is made deterministic: the swap is done from inside the ``os`` call numbered ``step`` of
the launcher (every step in turn), by the test itself, as the other user's ``renameat2`` would."""

import marshal
import os
import shutil

import pytest

import lazy_harness
from lazy_harness import hotload
from tests.support.as_person import as_root, not_the_persons
from tests.support.swap_at import SwapAt

PACKAGE = os.path.dirname(os.path.abspath(lazy_harness.__file__))
NOBODY = 65534
CALLS = ("open", "lstat", "stat", "fstat", "mkdir", "readlink", "replace", "rename")


@pytest.fixture
def copy(tmp_path) -> str:
    parent = tmp_path / "site"
    shutil.copytree(PACKAGE, parent / "lazy_harness", ignore=shutil.ignore_patterns("__pycache__"))
    return str(parent)


def _evil_folder(root: str, parent: str, name: str) -> str:
    """Another user's cache folder holding a bundle that passes the header checks (unprivileged: open to
    others' writes, ``not_the_persons``); returns it."""
    evil = os.path.join(root, "evil")
    os.makedirs(os.path.join(evil, "hooks"))
    code = marshal.dumps(compile("raise SystemExit('attacker')", "x", "exec"))
    head = marshal.dumps({"python": __import__("sys").version, "parent": parent,
                          "modules": {"lazy_harness.hooks.entry": ("lazy_harness/hooks/entry.py", 0, 0, 0,
                                                                   len(code), False)}})
    with open(os.path.join(evil, "hooks", name), "wb") as fh:
        fh.write(hotload.MAGIC + len(head).to_bytes(4, "little") + head + code)
    for p in (evil, os.path.join(evil, "hooks"), os.path.join(evil, "hooks", name)):
        not_the_persons(p, 0o755 if os.path.isdir(p) else 0o644)
    return evil


def _swap(cache: str, evil: str, as_link: bool) -> None:
    """What the other user does: the victim's cache folder out, theirs (or a link to it) in."""
    os.rename(cache, cache + ".victim")
    if as_link:
        os.symlink(evil, cache)
    else:
        os.rename(evil, cache)


def _finders() -> list:
    return [f for f in __import__("sys").meta_path if isinstance(f, hotload._Finder)]


def _drop_finders() -> None:
    import sys

    for f in _finders():
        sys.meta_path.remove(f)
        os.close(f.fd)


@pytest.fixture
def world(copy, tmp_path, monkeypatch):
    """The victim's bundle in a cache folder (XDG_CACHE_HOME: a folder of theirs, 0700)."""
    holder = tmp_path / "xdg-cache"
    holder.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", str(holder))
    hotload.build(copy)
    name = os.path.basename(hotload.bundle_file(copy))
    yield copy, str(holder / "lazy-harness"), name, tmp_path
    _drop_finders()


@pytest.mark.parametrize("as_link", [True, False], ids=["link", "folder"])
def test_a_cache_folder_swapped_at_any_step_never_loads_another_users_bundle(world, monkeypatch, as_link):
    copy, cache, name, root = world
    ours = os.stat(hotload.bundle_file(copy)).st_ino
    for step in range(40):
        evil = _evil_folder(str(root / f"s{step}"), copy, name)
        with monkeypatch.context() as m:
            swap = SwapAt(m, step, lambda evil=evil: _swap(cache, evil, as_link), CALLS)
            loaded = hotload.install(copy)
        for finder in _finders():
            st = os.fstat(finder.fd)
            assert (st.st_uid, st.st_ino) == (os.geteuid(), ours), f"another user's bundle loaded at step {step}"
        assert loaded == bool(_finders())
        _drop_finders()
        if swap.swapped:  # put the victim's folder back for the next step
            os.unlink(cache) if os.path.islink(cache) else os.rename(cache, evil)
            os.rename(cache + ".victim", cache)
        else:
            break
    assert step > 3  # the launcher's steps were all tried


@pytest.mark.parametrize("as_link", [True, False], ids=["link", "folder"])
def test_the_bundle_is_never_written_into_another_users_folder_swapped_in(world, monkeypatch, as_link):
    copy, cache, name, root = world
    os.unlink(hotload.bundle_file(copy))
    for step in range(60):
        evil = _evil_folder(str(root / f"s{step}"), copy, name)
        before = sorted(os.listdir(os.path.join(evil, "hooks")))
        evil_ino = os.stat(os.path.join(evil, "hooks", name)).st_ino
        with monkeypatch.context() as m:
            swap = SwapAt(m, step, lambda evil=evil: _swap(cache, evil, as_link), CALLS)
            try:
                hotload.build(copy)
            except OSError:
                pass
        inside = os.path.join(evil, "hooks") if as_link or not swap.swapped else os.path.join(cache, "hooks")
        assert sorted(os.listdir(inside)) == before, f"written into the other user's folder at step {step}"
        assert os.stat(os.path.join(inside, name)).st_ino == evil_ino
        if swap.swapped:
            os.unlink(cache) if os.path.islink(cache) else os.rename(cache, evil)
            os.rename(cache + ".victim", cache)
        else:
            break
    assert step > 3


@pytest.mark.parametrize("owner, mode, usable", [
    pytest.param(NOBODY, 0o755, False, marks=as_root),  # another user's folder: they may rename what is in it
    (0, 0o777, False),  # anyone may rename what is in it
    (0, 0o775, False),
    (0, 0o1777, True),  # sticky, as /tmp: only the owner of an entry renames it
    (0, 0o755, True),
])
def test_a_bundle_under_a_folder_others_may_rename_in_is_not_used(copy, tmp_path, monkeypatch, owner, mode, usable):
    """ssh's StrictModes for the folder holding ``lazy-harness`` (XDG_CACHE_HOME): the hook still runs,
    on its modules' files."""
    holder = tmp_path / "shared"
    holder.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(holder))
    hotload.build(copy)
    os.chown(holder, owner if owner else os.geteuid(), owner if owner else os.getegid())
    os.chmod(holder, mode)
    try:
        assert hotload.install(copy) is usable
        assert (hotload.problem(hotload.bundle_file(copy)) is None) is usable
        assert (hotload.stale(copy) == []) is usable
        if not usable:
            with pytest.raises(PermissionError):
                hotload.build(copy)
    finally:
        _drop_finders()
        os.chmod(holder, 0o700)


def test_the_bundle_is_read_from_the_descriptor_it_was_checked_on(world):
    """The finder reads each module from the descriptor whose ``fstat`` passed: a bundle renamed over
    afterwards does not change what is served."""
    copy, cache, name, _ = world
    assert hotload.install(copy)
    [finder] = _finders()
    st = os.fstat(finder.fd)
    assert (st.st_uid, st.st_ino) == (os.geteuid(), os.stat(hotload.bundle_file(copy)).st_ino)
    assert os.fstat(finder.fd).st_mode & 0o022 == 0
