"""A project's history lists the runs journaled in another project's memory folder that changed one of its
own learnings: a forget of a general learning in project proj gives back shop's own learning (ADR 0060)
and is journaled in proj's folder, so nothing in shop said why its learning was back. ``lh memory
history`` in shop now lists that run, says where it is journaled and that its undo is made there, and
shows only its changes to shop's learnings; runs elsewhere that touched none of them stay out."""

import json
import os
import time

import pytest

from lazy_harness.memory import learnings
from tests.cli.lhrun import invoke
from tests.memory.test_forget_gives_back_everywhere import GENERAL, THEIRS
from tests.memory.test_forget_the_newer_learning import World, _deprecate, _forget, _newest_run
from tests.support import memory_samples as ms

NOW = time.time()
DAY = 86400.0


@pytest.fixture
def two(tmp_path) -> tuple[World, World, str]:
    """proj wrote a general learning that shop's consolidation let replace shop's own learning; proj also
    has a decision of its own."""
    here, shop = World(ms.make_project(tmp_path, "proj")), World(ms.make_project(tmp_path, "shop"))
    for w in (here, shop):
        os.makedirs(w.mdir, exist_ok=True)
    here.new = ms.write_learning(here.ldir, GENERAL, "proj", NOW - DAY, project_folder=here.key)
    decision = ms.decision(NOW - 2 * DAY, "Keep the invoice queue in Redis streams", "queue")
    with open(os.path.join(here.mdir, "decisions.jsonl"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps(decision) + "\n")
    theirs = ms.write_learning(shop.ldir, THEIRS, "shop", NOW - 2 * DAY, scope="project", project_folder=shop.key)
    _deprecate(shop, theirs, here.new, NOW - 3600)
    return here, shop, theirs


def history(w: World) -> list[str]:
    r = invoke("memory", "history", "--project", w.root)
    assert r.code == 0, r.err
    return r.out.splitlines()


def block(lines: list[str], run: str) -> list[str]:
    """The run's line and its change lines."""
    at = next(n for n, ln in enumerate(lines) if ln.startswith(run))
    end = next((n for n in range(at + 1, len(lines)) if not lines[n].startswith("    ")), len(lines))
    return lines[at:end]


def test_the_forget_in_proj_that_gave_shops_learning_back_is_in_shops_history(two):
    here, shop, theirs = two
    tid, gid = learnings.id_of(theirs), learnings.id_of(here.new)
    shown = invoke("memory", "show", "--project", here.root, "--section", "decisions").out
    [decision_id] = [ln.split()[0] for ln in shown.splitlines() if ln.lstrip().startswith("d-")]
    _forget(here, decision_id)
    other = _newest_run(here)
    _forget(here, gid)
    run = _newest_run(here)

    lines = block(history(shop), run)
    assert f"journaled in project proj's memory ({os.path.join(here.mdir, 'journal')})" in lines[0], lines
    assert f"lh memory undo {run} --project <the folder of proj>" in lines[0], lines
    assert lines[1:] == [f"    release {tid} in project shop: its replacement {gid} is forgotten"], lines
    assert not any(ln.startswith(other) for ln in history(shop))  # proj's forget of its own decision
    assert any(ln.startswith(run) and "journaled in" not in ln for ln in history(here))  # proj's own, as before


def test_an_undo_made_in_proj_shows_undone_in_shops_history(two):
    here, shop, _ = two
    _forget(here, learnings.id_of(here.new))
    run = _newest_run(here)
    assert invoke("memory", "undo", run, "--project", here.root).code == 0
    [line] = [ln for ln in history(shop) if ln.startswith(run)]
    assert "[undone " in line and "journaled in project proj's memory" in line


def test_runs_elsewhere_that_touch_none_of_its_learnings_stay_out(two):
    here, shop, _ = two
    before = history(shop)
    mine = ms.write_learning(here.ldir, "Run the proj migrations before the seed", "proj", NOW - DAY, scope="project",
                             project_folder=here.key)
    _forget(here, learnings.id_of(mine))
    assert history(shop) == before


def test_the_page_lists_the_run_too_with_no_undo_here(two):
    """The page's list of runs is ``lh memory history``'s: the run made in proj is listed in shop, says
    where it is journaled, shows only its change to shop's learning, and offers no undo (an undo here
    would look for it in shop's journal)."""
    from lazy_harness import config
    from lazy_harness.ui import reading, sections

    here, shop, theirs = two
    tid, gid = learnings.id_of(theirs), learnings.id_of(here.new)
    _forget(here, gid)
    run = _newest_run(here)
    cfg = config.load()
    projects = reading.projects(shop.root, cfg, os.environ)
    page = sections.runs_section(sections.View(projects[0], projects, cfg, os.environ, NOW, "t", shop.root, "/b"))
    row = page.split(f'data-run="{run}"', 1)[1].split("</li></ul></li>", 1)[0]
    assert "journaled in project proj&#x27;s memory" in row and "undo it there" in row, row
    assert f"release {tid} in project shop" in row and f"forget {gid}" not in row
    assert "/b/action/undo" not in row
