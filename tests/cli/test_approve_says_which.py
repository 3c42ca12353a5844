"""``lh memory approve`` says how many entries it approved and which, ``--all`` too (it used to say
only "approved them")."""

import time

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()


def _waiting(*titles: str) -> None:
    for n, title in enumerate(titles):
        ms.write_learning(paths.learnings_dir(), title, "web", NOW - 60 - n, slug=f"waits-{n}", learning=title)


def _ids(root: str) -> list[str]:
    listed = invoke("memory", "held", "--project", root).out
    return [ln.split()[0] for ln in listed.splitlines() if ln.startswith("  l-")]


def test_approve_all_names_how_many_and_which(tmp_path):
    root = ms.make_project(tmp_path, "live")
    _waiting("Pin the linter version", "Cache the wheels on CI", "Run the slow tests nightly")
    waiting = _ids(root)
    assert len(waiting) == 3
    done = invoke("memory", "approve", "--all", "--project", root)
    assert done.code == 0, done.err
    said = done.out.strip()
    assert said.startswith("approved 3 learnings: ") and "them" not in said, said
    assert sorted(said.split(": ", 1)[1].split(" (undo: ")[0].split(", ")) == sorted(waiting)
    assert "(undo: lh memory undo " in said


def test_approve_all_of_one_learning_names_it(tmp_path):
    root = ms.make_project(tmp_path, "live")
    _waiting("Pin the linter version")
    [lid] = _ids(root)
    done = invoke("memory", "approve", "--all", "--project", root)
    assert done.code == 0, done.err
    assert done.out.startswith(f"approved {lid} (undo: lh memory undo "), done.out


def test_approve_by_ids_names_them_as_before(tmp_path):
    root = ms.make_project(tmp_path, "live")
    _waiting("Pin the linter version", "Cache the wheels on CI")
    one, two = _ids(root)
    done = invoke("memory", "approve", one, "--project", root)
    assert done.code == 0 and done.out.startswith(f"approved {one} (undo: lh memory undo "), done.out
    both = invoke("memory", "approve", two, "--all", "--project", root)
    assert both.code == 0 and both.out.startswith(f"approved {two} (undo: "), both.out
