"""What a refused folder's fix tells a person who cannot remove or change what is at fault (ADR 0031).
Another user made /tmp/lazy-harness before them: /tmp is sticky and not theirs, so ``rm`` fails; they
are told where else to keep ours and whom to ask, the owner named. The person is ``nobody`` (uid
65534) for the call, the folders are made by root: the test needs root (CI runs as root)."""

import os
import pwd
import shutil
import tempfile

import pytest

from lazy_harness import paths, private, private_fix
from tests.support.as_person import PERSON, as_person, as_root, made_by

ME = os.geteuid()


@pytest.fixture
def shared():
    """A world like /tmp: a root-owned sticky folder (1777) under a folder everyone may enter."""
    top = tempfile.mkdtemp(prefix="lh-two-users-")
    os.chmod(top, 0o755)
    tmp = os.path.join(top, "tmp")
    os.mkdir(tmp)
    os.chmod(tmp, 0o1777)
    yield tmp
    shutil.rmtree(top)


@as_root
@pytest.mark.parametrize("owner_uid", [1, 4242], ids=["named-owner", "unnamed-owner"])
def test_a_cache_folder_another_user_made_in_a_sticky_folder_is_not_to_be_removed(shared, monkeypatch, owner_uid):
    monkeypatch.setenv("XDG_CACHE_HOME", shared)
    theirs = made_by(paths.cache_dir(), owner_uid)
    private._PLACES.clear()
    why = as_person(private.problem, theirs)
    assert why == f"{theirs} belongs to uid {owner_uid}, not to you (uid {PERSON})"
    said = as_person(private_fix.fix, theirs, why)
    try:
        owner = pwd.getpwuid(owner_uid).pw_name
    except KeyError:
        owner = f"uid {owner_uid}"
    assert "remove " + theirs + " (it is not yours)" not in said, said
    assert not said.startswith("remove"), said
    assert "point XDG_CACHE_HOME at a folder of yours" in said, said
    assert f"ask {owner} or an administrator to remove {theirs}" in said, said


@as_root
def test_a_data_folder_another_user_made_in_a_sticky_folder_names_xdg_data_home(shared, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", shared)
    theirs = made_by(paths.data_dir(), 1)
    said = as_person(private_fix.fix, theirs, f"{theirs} belongs to uid 1, not to you (uid {PERSON})")
    assert "point XDG_DATA_HOME at a folder of yours" in said and "ask daemon or an administrator" in said, said
    assert not said.startswith("remove"), said


@as_root
def test_a_folder_another_user_made_in_the_persons_own_folder_may_still_be_moved_aside(shared, monkeypatch):
    """Renamed in place, not removed: ``rm -r`` fails on what inside it is closed to the person."""
    mine = made_by(os.path.join(shared, "mine"), PERSON, 0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", mine)
    theirs = made_by(paths.cache_dir(), 1)
    said = as_person(private_fix.fix, theirs, f"{theirs} belongs to uid 1, not to you (uid {PERSON})")
    assert said.startswith(f"move {theirs} aside (e.g. mv {theirs} {theirs}.not-mine)"), said


@as_root
def test_the_fix_names_the_folder_at_fault_not_the_one_below_it(shared, monkeypatch):
    """The hooks' bundle folder (cache/hooks) refused because the cache folder is another user's: what
    is to be removed, or asked for, is the cache folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", shared)
    theirs = made_by(paths.cache_dir(), 1)
    below = os.path.join(theirs, "hooks")
    said = as_person(private_fix.fix, below, f"{theirs} belongs to uid 1, not to you (uid {PERSON})")
    assert below not in said and f"ask daemon or an administrator to remove {theirs}" in said, said


@as_root
def test_an_open_folder_of_another_user_is_not_to_be_chmodded_by_the_person(shared, monkeypatch):
    """config.toml's folder open to others without the sticky bit, and root's: ``chmod go-w`` is root's
    to run, not the person's."""
    opened = made_by(os.path.join(shared, "etc-lh"), 0, 0o777)
    config = os.path.join(opened, "config.toml")
    why = f"{opened} is open to group or others (mode 0777) without the sticky bit"
    said = as_person(private_fix.fix, config, why)
    assert not said.startswith("chmod"), said
    assert f"ask root or an administrator to chmod go-w {opened}" in said, said
    mine = made_by(os.path.join(shared, "mine"), PERSON, 0o777)
    said = as_person(private_fix.fix, os.path.join(mine, "config.toml"), why.replace(opened, mine))
    assert said.startswith(f"chmod go-w {mine} (or chmod +t {mine})"), said


@as_root
def test_a_config_file_of_another_user_that_cannot_be_read_is_not_to_be_chmodded(shared, monkeypatch):
    """``sudo lh config init`` left a root-owned 0600 config.toml: ``chmod 600`` is not the person's to run."""
    home = made_by(os.path.join(shared, "home"), PERSON, 0o700)
    folder = made_by(os.path.join(home, "lh"), PERSON, 0o700)
    config = os.path.join(folder, "config.toml")
    with open(config, "w") as fh:
        fh.write("")
    os.chmod(config, 0o600)
    monkeypatch.setenv("LH_CONFIG", config)
    why = as_person(private.config_problem)
    assert why == f"{config} cannot be read (Permission denied)", why
    said = as_person(private_fix.fix, config, why)
    assert not said.startswith("chmod"), said
    assert said.startswith(f"move {config} aside (it is root's)"), said
    os.chmod(folder, 0o1777)
    os.chown(folder, 0, 0)
    said = as_person(private_fix.fix, config, why)
    assert "ask root or an administrator" in said and not said.startswith(("chmod", "move")), said


def test_a_loop_of_config_links_is_to_be_removed_not_chmodded(isolated_home):
    """config.toml's links go round (a.toml -> b.toml -> a.toml): ``chmod 700`` on it fails ("Too many
    levels of symbolic links"); the link is what to remove."""
    config = paths.config_file()
    said = private_fix.fix(config, f"{config}: more than 8 links to follow")
    assert not said.startswith("chmod"), said
    assert said.startswith(f"remove the link {config}") and "lh config init" in said, said


def test_an_open_config_folder_names_the_settings_that_move_config_toml(isolated_home):
    """Moving the cache (XDG_CACHE_HOME) leaves config.toml where it is: the hint for its open folder names
    XDG_CONFIG_HOME and LH_CONFIG; a cache folder's names XDG_CACHE_HOME alone."""
    folder = paths.own_config_dir()
    why = f"{folder} is open to group or others (mode 0777) without the sticky bit"
    said = private_fix.fix(paths.config_file(), why)
    assert "XDG_CONFIG_HOME or LH_CONFIG at a place of yours" in said and "XDG_CACHE_HOME" not in said, said
    cache = paths.cache_dir()
    said = private_fix.fix(cache, why.replace(folder, os.path.dirname(cache)))
    assert "point XDG_CACHE_HOME at a place of yours" in said and "LH_CONFIG" not in said, said
