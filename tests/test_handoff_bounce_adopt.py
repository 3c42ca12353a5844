"""``lh memory adopt`` of the folder a moved project left (its path key) with open handoff items: the
folder's handoff.jsonl leaves it, on the other machine too once it merges. An item closed after the
adoption stays closed on both machines, and the rounds stop touching the adopted folder's files.

Two homes syncing through one bare remote with real git (tests/test_handoff_bounce_origin.py's
``Machine``); B has no clone of the project, it only syncs."""

import os
import shutil
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import handoff, last_key
from tests.test_handoff_bounce_origin import ITEM, Machine, _commits_touching, _git, _state_of


@pytest.fixture
def adopted(tmp_path):
    """A and B after A adopted the folder of its moved project and both merged that: (a, b, the new
    root, the adopted key, the project's key, remote, the item's id)."""
    remote = str(tmp_path / "remote.git")
    _git("init", "-q", "--bare", "-b", "main", remote)
    a, b = Machine(str(tmp_path / "a"), remote), Machine(str(tmp_path / "b"), remote)
    was = os.path.join(a.home, "src", "app")
    os.makedirs(was)
    _git("init", "-q", was)
    old = paths.memory_dir(was, a.env)
    os.makedirs(old)
    now = time.time()
    handoff.apply_answer(old, [ITEM], None, {"session_id": "s1", "task_id": "t1"}, now, now)
    last_key.remember_key(was, old, a.env)  # as the worker does after a task: the project ran here
    hid = handoff.id_for({}, ITEM)
    a.sync()
    b.sync()
    assert _state_of(b.folder(os.path.basename(old)), hid) == "open"
    root = os.path.join(a.home, "work", "app")
    os.makedirs(os.path.dirname(root))
    shutil.move(was, root)
    a.lh("memory", "adopt", "--", os.path.basename(old), cwd=root)
    new = paths.memory_dir(root, a.env)
    assert _state_of(new, hid) == "open" and not os.path.exists(os.path.join(old, "handoff.jsonl"))
    a.sync()
    b.sync()
    a.sync()
    return a, b, root, os.path.basename(old), os.path.basename(new), remote, hid


def test_an_item_closed_after_adopt_stays_closed_and_the_adopted_folder_rests(adopted):
    a, b, root, old, new, remote, hid = adopted
    settled = _git("--git-dir", remote, "rev-parse", "main").strip()
    a.lh("memory", "close", hid, cwd=root)
    for _ in range(3):
        a.sync()
        a.start(root)
        b.sync()
    a.sync()
    assert hid not in a.start(root)
    assert _state_of(a.folder(new), hid) == "closed" and _state_of(b.folder(new), hid) == "closed"
    assert _commits_touching(remote, settled, f"projects/{old}/handoff.jsonl") == []
    for m in (a, b):
        assert not os.path.exists(os.path.join(m.folder(old), "handoff.jsonl"))
        assert not os.path.exists(os.path.join(m.folder(old), "handoff.md"))
