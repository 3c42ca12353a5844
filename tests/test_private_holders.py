"""A folder of ours is used only when no other user can rename anything on the way to it (ADR 0031,
amended): every existing folder above it, along the path as given and along the path with its links
resolved, is the person's or root's and not writable by group or others unless sticky, a folder
writable only by the person's own private group excepted. Before, only the folder itself was
looked at: with XDG_DATA_HOME in a folder another user made (/tmp/vd, 1777), lh made its 0700
folder inside and trusted it, and that user swapped it for a copy of their own between the check and
the reads (renameat2 RENAME_EXCHANGE): their text came back as the person's memory."""

import os

import pytest

from lazy_harness import paths, private
from tests.support.as_person import me_and_my_group

ME = os.geteuid()
THEM = 65534  # nobody: a real other user
as_root = pytest.mark.skipif(ME != 0, reason="giving a folder to another user needs root (CI runs as root)")


def _next_run() -> None:
    """What a later run sees: a folder that passed is not looked at again for a while in one process
    (only the person or root can change it), so a test that changes one after a check forgets it."""
    private._PLACES.clear()


def _theirs(folder, mode: int = 0o1777) -> str:
    """``folder`` made as another user made it (as /tmp/vd was): theirs, ``mode``."""
    os.mkdir(folder)
    os.chown(folder, THEM, THEM)
    os.chmod(folder, mode)
    return str(folder)


@as_root
@pytest.mark.parametrize("made", [True, False], ids=["made-already", "not-made-yet"])
def test_a_data_folder_inside_a_folder_of_another_user_is_refused(tmp_path, monkeypatch, made):
    vd = _theirs(tmp_path / "vd")
    monkeypatch.setenv("XDG_DATA_HOME", vd)
    data = paths.data_dir()
    if made:
        os.mkdir(data, 0o700)  # the person's own, private: all the old check looked at
    why = private.problem(data)
    assert why == f"{vd} (holding {data}) belongs to uid {THEM}, not to you (uid {ME}) nor root"
    assert private.first_unsafe() == (data, why)
    with pytest.raises(private.UnsafeFolder):
        private.make(data)
    assert os.path.isdir(data) == made  # nothing made inside their folder
    assert private.fix(data, why) == "point XDG_DATA_HOME at a folder of yours"


def test_a_folder_inside_an_open_folder_of_the_person_is_refused(tmp_path, monkeypatch):
    vc = tmp_path / "vc"
    vc.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", str(vc))
    cache, recall = paths.cache_dir(), paths.recall_dir()
    private.make(recall, strict=True)  # made while it was closed; opened since
    os.chmod(vc, 0o777)
    _next_run()
    why = private.problem(cache)
    assert why == f"{vc} (holding {cache}) is open to group or others (mode 0777) without the sticky bit"
    assert private.fix(cache, why) == (f"chmod go-w {vc} (or chmod +t {vc}), or point XDG_CACHE_HOME at a folder "
                                       "of yours")
    # each folder of ours under it is named with the one it holds
    assert [(what, why) for what, _, why in private.unsafe()] == [
        ("cache", why), ("recall", f"{vc} (holding {recall}) is open to group or others (mode 0777) without the "
                                   "sticky bit")]
    os.chmod(vc, 0o1777)  # sticky: no other user can rename what is the person's in it
    assert private.problem(cache) is None and private.unsafe() == []


@as_root
def test_a_sticky_folder_of_another_user_is_refused(tmp_path, monkeypatch):
    """Sticky stops other users, never the folder's owner: they can rename anything in it."""
    vd = _theirs(tmp_path / "vd", 0o1777)
    monkeypatch.setenv("XDG_STATE_HOME", vd)
    state = paths.machine_state_dir()
    why = private.problem(state)
    assert why and why.startswith(f"{vd} (holding {state}) belongs to uid {THEM}")
    assert private.fix(state, why) == "point XDG_STATE_HOME at a folder of yours"
    # the folders inside it too: keys and aliases
    assert {what for what, _, _ in private.unsafe()} == {"machine state"}
    assert len(private.unsafe()) == 3


@as_root
def test_a_folder_two_levels_below_the_other_users_folder_is_refused(tmp_path, monkeypatch):
    vd = _theirs(tmp_path / "vd")
    deeper = os.path.join(vd, "mine", "share")
    os.makedirs(deeper, 0o700)  # the person's own folders, inside theirs
    monkeypatch.setenv("XDG_DATA_HOME", deeper)
    why = private.problem(paths.data_dir())
    assert why and why.startswith(f"{vd} (holding {paths.data_dir()}) belongs to uid {THEM}")


@as_root
def test_a_link_to_a_folder_of_another_user_is_refused(tmp_path):
    """~/.cache a link into a folder another user owns: judged where it leads."""
    theirs = _theirs(tmp_path / "theirs", 0o755)
    os.symlink(theirs, os.path.join(paths.home(), ".cache"))
    cache = paths.cache_dir()
    os.mkdir(cache, 0o700)
    why = private.problem(cache)
    assert why == f"{theirs} (holding {cache}) belongs to uid {THEM}, not to you (uid {ME}) nor root"
    assert private.fix(cache, why) == "point XDG_CACHE_HOME at a folder of yours"


def test_a_link_to_a_folder_of_the_person_is_followed_and_passes(tmp_path):
    """A dotfiles layout: ~/.cache a link to a private folder elsewhere."""
    mine = tmp_path / "elsewhere" / "cache"
    mine.mkdir(parents=True, mode=0o700)
    os.symlink(mine, os.path.join(paths.home(), ".cache"))
    assert private.problem(paths.cache_dir()) is None
    os.chmod(mine.parent, 0o777)  # the folder holding where it leads is judged too
    _next_run()
    assert private.problem(paths.cache_dir()).startswith(f"{mine.parent} (holding {paths.cache_dir()}) is open")


def test_a_path_through_dot_dot_is_judged_where_it_leads(tmp_path, monkeypatch):
    """``a/link/../b``: the kernel goes up from where the link leads, not from ``a``."""
    open_one = tmp_path / "open"
    (open_one / "inner").mkdir(parents=True)
    os.chmod(open_one, 0o777)
    os.symlink(open_one / "inner", tmp_path / "home" / "link")
    monkeypatch.setenv("XDG_DATA_HOME", os.path.join(paths.home(), "link", "..", "share"))
    why = private.problem(paths.data_dir())
    assert why and why.startswith(f"{open_one} (holding ")


def test_the_default_layout_passes(tmp_path):
    for _, path, strict in private.folders():
        private.make(path, strict)
    assert private.unsafe() == [] and private.first_unsafe() is None


def test_a_home_writable_by_the_persons_own_private_group_passes(tmp_path):
    """umask 002 homes (Debian, Ubuntu): the group is the person's alone."""
    import pwd

    me, own = me_and_my_group()
    if own.gr_name != me.pw_name or own.gr_mem or any(u.pw_gid == me.pw_gid and u.pw_uid != ME for u in pwd.getpwall()):
        pytest.skip("this user has no private group of their own")
    home = paths.home()
    os.chown(home, ME, me.pw_gid)
    os.chmod(home, 0o775)
    assert private.unsafe() == []
    os.chmod(home, 0o777)  # others too: refused
    _next_run()
    assert private.problem(paths.data_dir()).startswith(f"{home} (holding {paths.data_dir()}) is open")


def test_a_holder_message_is_never_excused_as_the_folders_own_group_of_one(tmp_path, monkeypatch):
    """``group_of_one`` speaks of the folder it is given: a fault of a folder above it is not that."""
    vc = tmp_path / "vc"
    vc.mkdir()
    os.chmod(vc, 0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(vc))
    cache = paths.cache_dir()
    os.mkdir(cache, 0o700)
    why = private.problem(cache)
    assert why and not private.group_of_one(cache, why)


def test_each_folder_above_ours_is_looked_at_once_per_run(tmp_path, monkeypatch):
    """The hooks' first check walks every folder above each of ours; they share most of them."""
    for _, path, strict in private.folders():
        private.make(path, strict)
    _next_run()
    seen: list[str] = []
    real = os.lstat

    def counting(path, *a, **k):
        seen.append(os.fspath(path))
        return real(path, *a, **k)

    monkeypatch.setattr(os, "lstat", counting)
    assert private.first_unsafe() is None
    twice = sorted({p for p in seen if seen.count(p) > 1})
    assert twice == [], twice
    assert paths.home() in seen and "/" in seen  # the folders above ours were looked at
    seen.clear()
    assert private.first_unsafe() is None and set(seen) == {p for _, p, _ in private.folders()}  # kept


@as_root
def test_the_folders_above_are_judged_for_the_person_whatever_owner_the_folder_must_have(tmp_path, monkeypatch):
    """``uid`` names the owner the folder itself must have (the sync's remote may be root's); the
    folders above it are judged for the person running: theirs or root's."""
    person = 1000
    theirs = tmp_path / "remotes"
    theirs.mkdir(mode=0o755)
    os.chown(theirs, person, person)
    repo = theirs / "memory.git"
    repo.mkdir(mode=0o755)  # root's
    monkeypatch.setattr(os, "geteuid", lambda: person)
    assert private.problem(str(repo), uid=0) is None
    assert private.problem(str(repo)) == f"{repo} belongs to uid 0, not to you (uid {person})"
