"""A learning from before keys were recorded (``origin: api``) that two projects named api could own is
in neither until the person assigns it. The views of either project (``lh memory show``, ``lh memory
held``) say it waits there, with the command that gives it to this project; before, only ``lh memory
unassigned`` (a command one has to know of) named it, and the project's own views were silent."""

import os
import time

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.memory.test_owners import OLD, legacy_learning, project


def test_show_and_held_of_a_project_of_that_name_name_the_learning_and_the_assign_command(tmp_path):
    work, client = project(tmp_path / "work"), project(tmp_path / "clients", session="sess-c")
    legacy_learning()
    lid = invoke("memory", "unassigned").out.split("lh memory assign ", 1)[1].split()[0]
    for root in (work, client):
        for args in (("memory", "show", "--section", "learnings"), ("memory", "held")):
            out = invoke(*args, "--project", root)
            assert out.code == 0, out.err
            assert lid in out.out and OLD in out.out, (args, out.out)
            assert f"lh memory assign {lid} --project {root}" in out.out, out.out
    assert invoke("memory", "assign", lid, "--project", work).code == 0
    for root in (work, client):
        out = invoke("memory", "held", "--project", root).out
        assert "lh memory assign" not in out, out
    shown = invoke("memory", "show", "--section", "learnings", "--project", work).out
    assert "lh memory assign" not in shown and OLD in shown, shown


def test_a_project_of_another_name_is_not_told(tmp_path):
    project(tmp_path / "work"), project(tmp_path / "clients", session="sess-c")
    other = project(tmp_path / "web", name="web", session="sess-w")
    legacy_learning()
    out = invoke("memory", "show", "--section", "learnings", "--project", other).out
    assert OLD not in out and "lh memory assign" not in out, out
    assert os.path.isdir(paths.memory_dir(other))


def test_an_index_without_learnings_of_no_key_spares_the_scan_of_every_learning(tmp_path, monkeypatch):
    """What waits to be assigned is looked for by reading every learning's head (16,700 at 100,000
    entries, on every lh memory show): when the index, up to date, holds no learning without a key,
    nothing can wait and none is read; with one there (or no index to ask), they are."""
    from lazy_harness.memory import owners
    from tests.support import memory_samples as ms

    work = project(tmp_path / "work")
    ms.write_learning(paths.learnings_dir(), "Keyed learning of work", "api", time.time(), slug="keyed",
                      project_folder=os.path.basename(paths.memory_dir(work)))
    ms.index_now()
    scans = []
    real = owners.orphans
    monkeypatch.setattr(owners, "orphans", lambda *a, **k: scans.append(1) or real(*a, **k))
    assert invoke("memory", "show", "--section", "learnings", "--project", work).code == 0
    assert scans == []
    legacy_learning()
    ms.index_now()
    assert invoke("memory", "show", "--section", "learnings", "--project", work).code == 0
    assert scans == [1]
