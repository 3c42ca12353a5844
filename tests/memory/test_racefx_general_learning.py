"""A learning of another project (shown on every project's page) forgotten or approved from two
projects at once: the Forget on project alpha's page (``lh ui``) while ``lh memory forget`` runs in
project beta's folder, or two pages' Approve. Each caller holds its own project's lock of the person's
changes, but the learning's file is in the shared learnings folder: the check ("already forgotten",
"does it wait") and the write also happen under the learnings folder's lock of the person's changes, so
the second caller answers what it answers after the first, with no journal run in its project (whose
undo would leave the other project's run standing over a learning active again).

The first caller is held between its check and its write (tests/support/pausing.py); the second runs
until it either waits for a lock the first holds or ends. Both are threads of this process: the locks
are ``flock`` s of files, which two descriptors of one process contend for as two processes do."""

import os
import threading
import time

import pytest

from lazy_harness import atomic, paths
from lazy_harness.errors import LhError
from lazy_harness.memory import by_hand, changes, frontmatter, held, held_review, ids, journal, state
from tests.support import memory_samples as ms
from tests.support import pausing
from tests.memory.test_by_hand_racefx import _outcome

NOW = time.time()


class World:
    def __init__(self, tmp_path) -> None:
        self.ldir = paths.learnings_dir()
        self.alpha = paths.memory_dir(ms.make_project(str(tmp_path), "alpha"))
        self.beta = paths.memory_dir(ms.make_project(str(tmp_path), "beta"))
        for mdir in (self.alpha, self.beta):
            os.makedirs(mdir, exist_ok=True)

    def general(self, title: str) -> tuple[str, str]:
        """(path, id) of a general learning written in a third project: it waits for approval in both."""
        path = ms.write_learning(self.ldir, title, "third", NOW - 100, slug="general", scope="general")
        meta, _ = held.learning_text(path)
        return path, ids.of_learning(meta, path=path)

    def status(self, path: str) -> str:
        return frontmatter.read_frontmatter_values(path, ("status",)).get("status") or state.ACTIVE

    def runs(self, mdir: str, kind: str) -> list[str]:
        return [r["run"] for r in journal.runs(mdir) if r.get("kind") == kind]


@pytest.fixture
def world(tmp_path) -> World:
    return World(tmp_path)


def _race(monkeypatch, owner: object, name: str, first_call, second_call):
    """``first_call()`` held at ``owner.name`` (its write, after its check), ``second_call()`` run until
    it waits for a lock the first holds or ends; then the first goes on. (first's, second's outcome),
    each the value returned or the LhError raised, and whether the second waited for a lock."""
    paused = pausing.pause(monkeypatch, owner, name, "first")
    waits = threading.Event()
    watch = pausing.on_lock(monkeypatch, atomic, "lock", "second", waits, lock_path=lambda path: path)
    first = pausing.run("first", first_call)
    paused.wait()
    second = pausing.run("second", second_call, ended=waits)
    pausing.wait_for(waits, "the second caller neither waited for a lock nor ended")
    paused.go()
    return _outcome(first), _outcome(second), watch.waited


def test_a_general_learning_forgotten_from_two_projects_at_once_is_forgotten_once(world, monkeypatch):
    path, lid = world.general("Pin the CI runner image by digest")
    first, second, waited = _race(
        monkeypatch, changes, "set_learning_status",
        lambda: by_hand.forget(world.alpha, world.ldir, "alpha", lid, "mine", NOW),
        lambda: by_hand.forget(world.beta, world.ldir, "beta", lid, "mine", NOW))
    assert isinstance(first, str)
    assert second is None  # what a forget of a forgotten learning returns: "already forgotten"
    assert world.runs(world.alpha, "forget") == [first]
    assert world.runs(world.beta, "forget") == []
    assert waited  # for the first's lock of the learnings folder
    # the one run's undo brings the learning back, and no project's history keeps a forget of it
    by_hand.undo(world.alpha, world.ldir, first, 14, NOW + 1)
    assert world.status(path) == state.ACTIVE


def _waits_in(mdir: str, ldir: str, lid: str) -> bool:
    return any(h["id"] == lid and h["state"] == state.WAITING for h in held_review.listing(mdir, ldir))


def test_a_waiting_learning_approved_from_two_projects_at_once_is_approved_once(world, monkeypatch):
    _, lid = world.general("Cache the wheel builds per Python version")
    assert _waits_in(world.alpha, world.ldir, lid) and _waits_in(world.beta, world.ldir, lid)
    first, second, waited = _race(
        monkeypatch, held_review, "approve",
        lambda: by_hand.approve(world.alpha, world.ldir, "alpha", [lid], "mine", NOW)[0],
        lambda: by_hand.approve(world.beta, world.ldir, "beta", [lid], "mine", NOW)[0])
    assert isinstance(first, str)
    assert world.runs(world.alpha, "approve") == [first]
    assert world.runs(world.beta, "approve") == []
    with pytest.raises(LhError) as already:  # what an approval from beta after alpha's says
        by_hand.approve(world.beta, world.ldir, "beta", [lid], "mine", NOW + 1)
    assert isinstance(second, LhError) and str(second) == str(already.value)
    assert waited
    assert not _waits_in(world.beta, world.ldir, lid)


def test_a_learning_forgotten_in_one_project_while_approved_in_another_keeps_one_change(world, monkeypatch):
    """The approval, held after its check, is not overtaken by the other project's forget (which left
    the approval an empty run, nothing approved): the forget waits, then finds the learning approved
    and forgets it."""
    path, lid = world.general("Prefer uv for the dev environment")
    first, second, waited = _race(
        monkeypatch, held_review, "approve",
        lambda: by_hand.approve(world.alpha, world.ldir, "alpha", [lid], "mine", NOW)[0],
        lambda: by_hand.forget(world.beta, world.ldir, "beta", lid, "mine", NOW))
    assert isinstance(first, str) and isinstance(second, str)
    assert waited  # the forget waited for the approval: it never read the learning mid-approval
    assert world.status(path) == state.FORGOTTEN
    assert world.runs(world.alpha, "approve") == [first]
    assert world.runs(world.beta, "forget") == [second]
    [approved] = [r for r in journal.runs(world.alpha) if r["run"] == first]
    assert [os.path.basename(f["path"]) for f in approved["files"]] == [os.path.basename(path)]
