"""``lh memory adopt`` of the folder a moved project left (its path key) with open handoff items: the
folder's handoff.jsonl leaves it, on the other machine too once it merges. An item closed after the
adoption stays closed on both machines, and the rounds stop touching the adopted folder's files.

Two homes syncing through one bare remote with real git (tests/test_handoff_bounce_origin.py's
``Machine``); B has no clone of the project, it only syncs."""

import os
import shutil

import pytest

from lazy_harness import paths
from lazy_harness.memory import last_key
from tests.test_handoff_bounce_origin import _commits_touching, _git, _state_of, two_machines


@pytest.fixture
def adopted(tmp_path):
    """A and B after A adopted the folder of its moved project and both merged that: (a, b, the new
    root, the adopted key, the project's key, remote, the item's id)."""
    # the worker's record after a task: the project ran here
    a, b, was, old, remote, hid = two_machines(tmp_path, os.path.join("src", "app"), last_key.remember_key)
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
