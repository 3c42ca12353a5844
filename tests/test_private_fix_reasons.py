"""The fix a person is told for each reason ``private.problem`` gives (ADR 0031), on the folder at
fault and runnable by them: another user's folder or file where ours should be is moved aside (``rm
-r`` fails on what in it is closed to them), a link is removed; a folder above ours that cannot be
looked at is named (not ours below it), with ``chmod`` only when it is theirs. The person is
``nobody`` (uid 65534), the world is made by root: those tests need root (CI runs as root)."""

import os
import shutil
import subprocess
import tempfile

import pytest

from lazy_harness import paths, private, private_fix
from tests.support.as_person import PERSON, as_person, as_root, made_by

ME = os.geteuid()


def _run_as_person(argv: list[str]) -> int:
    """A command run by the person (every id theirs, as in their shell): its exit code."""
    return subprocess.run(argv, user=PERSON, group=PERSON, extra_groups=[], capture_output=True).returncode


@pytest.fixture
def world():
    """A folder everyone may enter (0755), root's, removed after the test."""
    top = tempfile.mkdtemp(prefix="lh-fix-reasons-")
    os.chmod(top, 0o755)
    yield top
    shutil.rmtree(top, ignore_errors=True)


# --- a folder, file or link of another user where ours should be -----------------------------------

@as_root
def test_another_users_folder_with_closed_contents_is_moved_aside_not_removed(world, monkeypatch):
    """Their cache folder, in a folder of the person's: ``rm -r`` fails on what is closed to the
    person inside it, renaming it in place works; the fix says the one that works."""
    mine = made_by(os.path.join(world, "mine"), PERSON, 0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", mine)
    theirs = made_by(paths.cache_dir(), 1)
    closed = made_by(os.path.join(theirs, "hooks"), 1, 0o700)
    with open(os.path.join(closed, "bundle.py"), "w") as fh:
        fh.write("")
    why = as_person(private.problem, theirs)
    assert why == f"{theirs} belongs to uid 1, not to you (uid {PERSON})"
    said = as_person(private_fix.fix, theirs, why)
    assert said.startswith(f"move {theirs} aside (e.g. mv {theirs} {theirs}.not-mine), or point "), said
    assert "XDG_CACHE_HOME" in said and "remove" not in said, said
    assert _run_as_person(["rm", "-r", theirs]) != 0 and os.path.isdir(closed)  # what "remove" led to
    assert _run_as_person(["mv", theirs, f"{theirs}.not-mine"]) == 0
    assert as_person(private.problem, theirs) == "None"  # ours is made there next


@as_root
def test_another_users_file_where_ours_should_be_is_moved_aside(world, monkeypatch):
    mine = made_by(os.path.join(world, "mine"), PERSON, 0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", mine)
    theirs = paths.cache_dir()
    with open(theirs, "w") as fh:
        fh.write("")
    os.chown(theirs, 1, 1)
    why = as_person(private.problem, theirs)
    assert why == f"{theirs} is not a folder"
    said = as_person(private_fix.fix, theirs, why)
    assert said.startswith(f"move {theirs} aside (e.g. mv {theirs} {theirs}.not-mine), or point "), said


@as_root
def test_another_users_link_where_ours_should_be_is_removed(world, monkeypatch):
    """Removing a link always works and leaves what it points to as it is."""
    mine = made_by(os.path.join(world, "mine"), PERSON, 0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", mine)
    link = paths.cache_dir()
    os.symlink(made_by(os.path.join(world, "theirs"), 1, 0o700), link)
    os.lchown(link, 1, 1)
    why = as_person(private.problem, link)
    assert why == f"{link} is a symbolic link"
    said = as_person(private_fix.fix, link, why)
    assert said.startswith(f"remove the link {link}, or point "), said
    assert "mv " not in said, said
    assert _run_as_person(["rm", link]) == 0 and os.path.isdir(os.path.join(world, "theirs"))


def test_the_persons_own_file_where_ours_should_be_is_not_said_to_be_someone_elses(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    own = paths.cache_dir()
    with open(own, "w") as fh:
        fh.write("")
    why = private.problem(own)
    assert why == f"{own} is not a folder"
    said = private.fix(own, why)
    assert said.startswith(f"move {own} aside, or point "), said
    assert "not yours" not in said and "not-mine" not in said, said


# --- "<path> cannot be looked at (...)": the folder at fault is above it --------------------------

@as_root
def test_a_closed_folder_of_the_persons_own_above_ours_is_opened_not_ours(world, monkeypatch):
    closed = made_by(os.path.join(world, "cache"), PERSON, 0o000)
    monkeypatch.setenv("XDG_CACHE_HOME", closed)
    cache = paths.cache_dir()
    why = as_person(private.problem, cache)
    assert why == f"{cache} cannot be looked at (Permission denied)"
    said = as_person(private_fix.fix, cache, why)
    assert said == f"chmod u+rwx {closed}", said
    assert _run_as_person(said.split()) == 0
    assert as_person(private.problem, cache) == "None"


@as_root
def test_a_closed_folder_of_another_user_above_ours_is_not_to_be_chmodded(world, monkeypatch):
    """Even were they let in, a folder of another user above ours is refused: ours is put elsewhere."""
    theirs = made_by(os.path.join(world, "bob"), 1, 0o700)
    os.mkdir(os.path.join(theirs, "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", os.path.join(theirs, "cache"))
    cache = paths.cache_dir()
    why = as_person(private.problem, cache)
    assert why == f"{cache} cannot be looked at (Permission denied)"
    said = as_person(private_fix.fix, cache, why)
    assert said == "point XDG_CACHE_HOME at a folder of yours", said


@as_root
def test_a_closed_folder_of_root_above_ours_is_asked_for(world, monkeypatch):
    closed = made_by(os.path.join(world, "srv"), 0, 0o700)
    made_by(os.path.join(closed, "cache"), PERSON, 0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", os.path.join(closed, "cache"))
    cache = paths.cache_dir()
    why = as_person(private.problem, cache)
    assert why == f"{cache} cannot be looked at (Permission denied)"
    said = as_person(private_fix.fix, cache, why)
    assert said == ("point XDG_CACHE_HOME at a folder of yours, or ask root or an administrator to let you open "
                    f"{closed}")


def test_a_file_above_ours_is_named_not_ours(tmp_path, monkeypatch):
    above = tmp_path / "cache"
    above.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(above))
    cache = paths.cache_dir()
    why = private.problem(cache)
    assert why == f"{cache} cannot be looked at (Not a directory)"
    said = private.fix(cache, why)
    assert said.startswith(f"move {above} aside, or point "), said
    assert cache not in said and "chmod" not in said, said


def test_a_link_loop_above_ours_is_named_not_ours(tmp_path, monkeypatch):
    loop = tmp_path / "cache"
    os.symlink(loop, loop)
    monkeypatch.setenv("XDG_CACHE_HOME", str(loop))
    cache = paths.cache_dir()
    why = private.problem(cache)
    assert why == f"{cache} cannot be looked at (Too many levels of symbolic links)"
    said = private.fix(cache, why)
    assert said.startswith(f"remove the link {loop}, or point "), said
    assert cache not in said and "chmod" not in said, said


def test_a_path_too_long_to_look_at_is_put_elsewhere(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", os.path.join(str(tmp_path), "x" * 5000))
    cache = paths.cache_dir()
    why = private.problem(cache)
    assert why == f"{cache} cannot be looked at (File name too long)"
    assert private.fix(cache, why) == "point XDG_CACHE_HOME at a folder of yours"


# --- "<folder> (holding <path>) cannot be looked at (...)": a folder above ours, where a link leads ---

def test_a_link_above_ours_leading_too_far_to_look_at_is_put_elsewhere(tmp_path, monkeypatch):
    """Each link is short enough to follow, where they lead together is longer than a path may be:
    the folder above ours, resolved, cannot be looked at."""
    deep = os.path.join(str(tmp_path), *["d" * 200] * 10)
    os.makedirs(deep)
    monkeypatch.chdir(deep)
    further = os.path.join(*["e" * 200] * 13)
    os.makedirs(further)
    os.symlink(further, "further")
    os.symlink(deep, tmp_path / "deep")
    os.symlink(os.path.join("deep", "further"), tmp_path / "cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cache = paths.cache_dir()
    why = private.problem(cache)
    assert why == f"{deep}/{further} (holding {cache}) cannot be looked at (File name too long)"
    assert private.fix(cache, why) == "point XDG_CACHE_HOME at a folder of yours"


@as_root
def test_a_folder_above_ours_closed_since_it_was_followed_is_asked_for(world, monkeypatch):
    """Only a change between two looks gives this reason (the kernel went where ``lstat`` then could
    not): the reason is what ``private`` says then, the folders are real."""
    closed = made_by(os.path.join(world, "srv"), 0, 0o700)
    held = made_by(os.path.join(closed, "cache"), PERSON, 0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", held)
    cache = paths.cache_dir()
    why = f"{held} (holding {cache}) cannot be looked at (Permission denied)"
    said = as_person(private_fix.fix, cache, why)
    assert said == ("point XDG_CACHE_HOME at a folder of yours, or ask root or an administrator to let you open "
                    f"{closed}")


# --- config.toml's folder: "<folder> cannot be opened as a folder (...)" other than Permission denied ---

def test_a_file_where_config_tomls_folder_should_be_is_moved_aside(tmp_path, monkeypatch):
    afile = tmp_path / "lh"
    afile.write_text("")
    monkeypatch.setenv("LH_CONFIG", str(afile / "config.toml"))
    why = private.config_problem()
    assert why == f"{afile} cannot be opened as a folder (Not a directory)"
    said = private.fix(paths.config_file(), why)
    assert said.startswith(f"move {afile} aside, or point "), said
    assert "LH_CONFIG" in said and "chmod" not in said and "config.toml" not in said, said


def test_a_link_loop_where_config_tomls_folder_should_be_is_removed(tmp_path, monkeypatch):
    loop = tmp_path / "lh"
    os.symlink(loop, loop)
    monkeypatch.setenv("LH_CONFIG", str(loop / "config.toml"))
    why = private.config_problem()
    assert why == f"{loop} cannot be opened as a folder (Too many levels of symbolic links)"
    said = private.fix(paths.config_file(), why)
    assert said.startswith(f"remove the link {loop}, or point "), said
