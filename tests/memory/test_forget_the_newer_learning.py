"""Forgetting the learning that replaced another (ADR 0060, for learnings): consolidation deprecated the
older learning for the newer one; the person forgets the newer one, and the older one is shown again in
the same journalled forget run, until that run is undone. What the person forgot stays forgotten, a
newer learning replaced in turn gives nothing back, and another project's own learning comes back named."""

import json
import os
import time

import pytest
import yaml

from lazy_harness import config, paths
from lazy_harness.memory import frontmatter, journal, learnings
from lazy_harness.recall.readback import digest
from lazy_harness.ui import actions
from lazy_harness.ui.reading import Project
from lazy_harness.worker import consolidate
from lazy_harness.worker.consolidate_answer import Change
from lazy_harness.worker.consolidate_prompt import Candidates, Entry
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
DAY = 86400.0
OLD = "Pin node to 18 in the CI image"
NEW = "Pin node to 20 in the CI image"
NEWEST = "Pin node to 22 in the CI image"


class World:
    def __init__(self, root: str) -> None:
        self.root, self.mdir, self.ldir = root, paths.memory_dir(root), paths.learnings_dir()
        self.key = os.path.basename(self.mdir)  # what the store records as a learning's project_folder


@pytest.fixture
def world(tmp_path) -> World:
    """A project whose consolidation deprecated its learning about node 18 for the one about node 20."""
    w = World(ms.make_project(tmp_path, "proj"))
    os.makedirs(w.mdir, exist_ok=True)
    w.old = ms.write_learning(w.ldir, OLD, "proj", NOW - 3 * DAY, scope="project", project_folder=w.key)
    w.new = ms.write_learning(w.ldir, NEW, "proj", NOW - DAY, scope="project", project_folder=w.key)
    _deprecate(w, w.old, w.new, NOW - 3600)
    return w


def _deprecate(w: World, old: str, new: str, at: float) -> None:
    """What a consolidation run does when the model answers that ``new`` replaces ``old``."""
    lo, ln = learnings.id_of(old), learnings.id_of(new)
    c = Candidates(learnings=[Entry(lo, "learning", "older", 0, old), Entry(ln, "learning", "newer", 1, new)])
    j = journal.Journal(w.mdir, "consolidate", "proj", at)
    consolidate.apply([Change("deprecate_learnings", lo, ln, "the newer version replaces it")], c, w.mdir, w.ldir,
                      at, j)
    j.save()
    assert _status(old) == "deprecated"


def _status(path: str) -> str:
    return frontmatter.read_frontmatter_values(path, ("status",)).get("status") or "active"


def _fields(path: str) -> dict:
    """The status fields as YAML reads them (``null`` is None)."""
    with open(path, encoding="utf-8") as fh:
        front = yaml.safe_load(fh.read().split("---\n")[1])
    return {k: front.get(k) for k in ("status", "deprecated_by", "deprecated_on", "deprecated_reason")}


def _start(w: World) -> str:
    text, _ = digest.build_context(w.root, config.defaults(), os.environ, time.time(), "startup")
    return text or ""


def _listed(w: World, eid: str) -> str:
    """The line ``lh memory show`` lists ``eid`` on."""
    r = invoke("memory", "show", "--project", w.root)
    assert r.code == 0, r.err
    [line] = [line for line in r.out.splitlines() if line.strip().startswith(eid + " ")]
    return line


def _forget(w: World, eid: str) -> str:
    r = invoke("memory", "forget", eid, "--project", w.root)
    assert r.code == 0, r.err
    return r.out.strip()


def _newest_run(w: World) -> str:
    return str(journal.runs(w.mdir)[0]["run"])


def test_forgetting_the_newer_learning_shows_the_older_one_again_until_the_forget_is_undone(world):
    w, old_id, new_id = world, learnings.id_of(world.old), learnings.id_of(world.new)
    assert OLD not in _start(w) and NEW in _start(w)
    assert _listed(w, old_id).endswith("]")  # labelled: deprecated for the newer one
    with open(w.old, "rb") as fh:
        deprecated = fh.read()

    said = _forget(w, new_id)
    run = _newest_run(w)
    assert said == f"forgot {new_id} (undo: lh memory undo {run}); shown again: {old_id} (it was replaced by {new_id})"
    start = _start(w)
    assert OLD in start and NEW not in start
    assert not _listed(w, old_id).endswith("]") and _listed(w, new_id).endswith("[forgotten]")
    assert _fields(w.old) == {"status": "active", "deprecated_by": None, "deprecated_on": None,
                              "deprecated_reason": None}
    assert _status(w.new) == "forgotten"
    assert len([r for r in journal.runs(w.mdir) if r.get("kind") == "forget"]) == 1  # one run for both

    assert invoke("memory", "undo", run, "--project", w.root).code == 0
    with open(w.old, "rb") as fh:
        assert fh.read() == deprecated
    assert _status(w.new) == "active"
    start = _start(w)
    assert OLD not in start and NEW in start


def test_an_older_learning_the_person_forgot_stays_forgotten(world):
    w, old_id, new_id = world, learnings.id_of(world.old), learnings.id_of(world.new)
    assert "shown again" not in _forget(w, old_id)
    said = _forget(w, new_id)
    assert said.startswith(f"forgot {new_id} (undo:") and "shown again" not in said
    assert _status(w.old) == "forgotten"
    start = _start(w)
    assert OLD not in start and NEW not in start


def test_a_newer_learning_replaced_in_turn_gives_back_nothing_when_forgotten(world):
    """node 18 -> node 20 -> node 22: forgetting the middle one leaves node 18 out; node 22 stands for both."""
    w = world
    newest = ms.write_learning(w.ldir, NEWEST, "proj", NOW - 600, scope="project", project_folder=w.key)
    _deprecate(w, w.new, newest, NOW - 300)
    new_id = learnings.id_of(w.new)
    assert _forget(w, new_id) == f"forgot {new_id} (undo: lh memory undo {_newest_run(w)})"
    assert _status(w.old) == "deprecated"
    start = _start(w)
    assert NEWEST in start and NEW not in start and OLD not in start


def test_a_held_older_learning_stays_held(world):
    """Held by the hold check after its deprecation was undone by hand and redone: only a deprecated one
    comes back; a learning in any other state is left in it."""
    w, new_id = world, learnings.id_of(world.new)
    text = open(w.old, encoding="utf-8").read().replace("status: deprecated", "status: held", 1)
    with open(w.old, "w", encoding="utf-8") as fh:
        fh.write(text)
    assert "shown again" not in _forget(w, new_id)
    assert _status(w.old) == "held"


def test_another_projects_own_learning_replaced_by_it_comes_back_named_with_its_project(world, tmp_path):
    """Another project's consolidation deprecated its own learning (scope project) for this general one:
    forgotten here, the general one gives it back in its project, named with that project on the line,
    beside a general learning, listed in every project, named by its id alone."""
    w = world
    general = ms.write_learning(w.ldir, "Pin node in every CI image", "proj", NOW - 500)
    other = World(ms.make_project(tmp_path, "shop"))
    os.makedirs(other.mdir, exist_ok=True)
    theirs = ms.write_learning(w.ldir, "Pin node to 16 in the shop image", "shop", NOW - 2 * DAY, scope="project",
                               project_folder=other.key)
    shared = ms.write_learning(w.ldir, "Pin node to 16 in every image", "shop", NOW - 2 * DAY)
    _deprecate(other, theirs, general, NOW - 400)
    _deprecate(other, shared, general, NOW - 400)

    gid, shared_id, theirs_id = learnings.id_of(general), learnings.id_of(shared), learnings.id_of(theirs)
    said = _forget(w, gid)
    shown = said.split("; shown again: ", 1)[1].removesuffix(f" (they were replaced by {gid})")
    assert sorted(shown.split(", ")) == sorted([shared_id, f"{theirs_id} in project shop"])
    assert _status(theirs) == "active" and _status(shared) == "active"


def test_the_pages_forget_names_every_learning_shown_again(world):
    """Two older learnings deprecated for the newer one: the page's Forget says what the command says."""
    w, old_id, new_id = world, learnings.id_of(world.old), learnings.id_of(world.new)
    older = ms.write_learning(w.ldir, "Pin node to 16 in the CI image", "proj", NOW - 4 * DAY, scope="project",
                              project_folder=w.key)
    _deprecate(w, older, w.new, NOW - 1800)
    page = Project(key=w.key, name="proj", memory_dir=w.mdir, learnings_dir=w.ldir, current=True, folder=w.root)
    said = actions.forget(page, {"id": new_id}, config.defaults(), time.time())
    shown = said.split("; shown again: ", 1)[1]
    assert said.startswith(f"forgot {new_id} (undo: lh memory undo {_newest_run(w)}); shown again: ")
    assert sorted(shown.removesuffix(f" (they were replaced by {new_id})").split(", ")) == sorted(
        [old_id, learnings.id_of(older)])
    start = _start(w)
    assert OLD in start and "Pin node to 16" in start and NEW not in start
    assert actions.forget(page, {"id": new_id}, config.defaults(), time.time()) == f"{new_id} is already forgotten"


def test_an_approved_learning_comes_back_approved(tmp_path):
    """Another project's general learning the person approved here, then replaced by consolidation: shown
    again with the person's approval (its fields before the consolidation), not waiting for it again."""
    w = World(ms.make_project(tmp_path, "proj"))
    os.makedirs(w.mdir, exist_ok=True)
    other = os.path.basename(paths.memory_dir(ms.make_project(tmp_path, "other")))
    w.old = ms.write_learning(w.ldir, OLD, "other", NOW - 3 * DAY, scope="general", project_folder=other,
                              origin_session="5e6f7a8b-0000-4000-8000-000000000001")
    w.new = ms.write_learning(w.ldir, NEW, "proj", NOW - DAY, scope="project", project_folder=w.key)
    with open(os.path.join(w.mdir, "decisions.jsonl"), "w", encoding="utf-8") as fh:  # the start's own memory
        fh.write(json.dumps(ms.decision(NOW - 2 * DAY, "Build the node image once per CI run", "cache")) + "\n")
    old_id, new_id = learnings.id_of(w.old), learnings.id_of(w.new)
    assert OLD not in _start(w)  # another project's session wrote it: it waits for the person's approval
    assert invoke("memory", "approve", old_id, "--project", w.root).code == 0
    assert OLD in _start(w)
    approved = _fields(w.old)
    assert str(approved["deprecated_reason"]).startswith("approved by hand")
    _deprecate(w, w.old, w.new, NOW - 3600)
    assert OLD not in _start(w)

    said = _forget(w, new_id)
    assert said.endswith(f"shown again: {old_id} (it was replaced by {new_id})")
    assert _fields(w.old) == approved
    assert OLD in _start(w)
