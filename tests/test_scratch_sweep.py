"""A scratch folder outlives its call when the call is killed (SIGKILL, the OOM killer): the ``finally``
that removes it never runs. Each time a new one is made, those of ours left in the same place for more
than a day are removed (ADR 0079): our prefix, ours, a folder and not a link, removed without following
a link inside. Another user's, a fresh one, and a link named like ours (with what it leads to) stay."""

import os
import time

from lazy_harness import paths, scratch
from tests.support.as_person import PERSON

DAY = 24 * 3600


def left_behind(base, name, age, uid=None):
    """A folder ``name`` in ``base`` as a killed call leaves it (a file and a folder inside), last
    changed ``age`` seconds ago."""
    path = os.path.join(base, name)
    os.mkdir(path, 0o700)
    os.mkdir(os.path.join(path, "sessions"))
    with open(os.path.join(path, "schema.json"), "w") as fh:
        fh.write("{}")
    if uid is not None:
        os.chown(path, uid, uid)
    when = time.time() - age
    os.utime(path, (when, when))
    return path


def mine(tmp_path, tmpdir_at):
    base = tmp_path / "my-tmp"
    base.mkdir(mode=0o700)
    return tmpdir_at(base)


def test_a_folder_of_ours_older_than_a_day_goes_when_the_next_is_made(tmp_path, tmpdir_at):
    base = mine(tmp_path, tmpdir_at)
    old = left_behind(base, "lh-codex-k1ll3d_a", 2 * DAY)
    elsewhere = left_behind(str(tmp_path), "elsewhere", 0)
    os.symlink(elsewhere, os.path.join(old, "sessions", "link"))
    os.utime(old, (time.time() - 2 * DAY,) * 2)
    fresh = left_behind(base, "lh-codex-runs0n0w", 60)

    with scratch.folder("lh-codex-") as made:
        assert os.path.isdir(made)

    assert not os.path.lexists(old)
    assert sorted(os.listdir(elsewhere)) == ["schema.json", "sessions"]  # a link inside is not followed
    assert sorted(os.listdir(fresh)) == ["schema.json", "sessions"]


def test_a_folder_left_in_the_cache_fallback_goes_too(tmp_path, tmpdir_at):
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    os.chmod(shared, 0o777)  # others may rename in it: the cache's tmp folder is used
    tmpdir_at(shared)
    place = scratch.place()
    assert paths.is_within(place, paths.cache_dir())
    old = left_behind(place, "lh-codex-0ldc4che", 3 * DAY)

    with scratch.folder("lh-codex-"):
        pass

    assert not os.path.lexists(old)


def test_another_users_folder_named_like_ours_stays(tmp_path, tmpdir_at):
    base = mine(tmp_path, tmpdir_at)
    if os.geteuid() == 0:
        theirs = left_behind(base, "lh-codex-th31rs__", 2 * DAY, uid=PERSON)
        with scratch.folder("lh-codex-"):
            pass
    else:  # why: nothing can be given away unprivileged; the sweep is run as another uid instead
        theirs = left_behind(base, "lh-codex-th31rs__", 2 * DAY)
        scratch.sweep(base, time.time(), os.geteuid() + 1)

    assert sorted(os.listdir(theirs)) == ["schema.json", "sessions"]


def test_a_link_named_like_ours_stays_and_what_it_leads_to_is_untouched(tmp_path, tmpdir_at):
    base = mine(tmp_path, tmpdir_at)
    target = left_behind(str(tmp_path), "precious", 2 * DAY)
    link = os.path.join(base, "lh-codex-l1nk3d__")
    os.symlink(target, link)
    when = time.time() - 2 * DAY
    os.utime(link, (when, when), follow_symlinks=False)

    with scratch.folder("lh-codex-"):
        pass

    assert os.path.islink(link)
    assert sorted(os.listdir(target)) == ["schema.json", "sessions"]


def test_names_not_ours_stay(tmp_path, tmpdir_at):
    base = mine(tmp_path, tmpdir_at)
    others = [left_behind(base, name, 2 * DAY) for name in ("lh-codex", "lh-codexes-of-mine", "pip-build-x1")]

    with scratch.folder("lh-codex-"):
        pass

    assert all(os.path.isdir(path) for path in others)
