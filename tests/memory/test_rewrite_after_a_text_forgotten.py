"""A text of a learning's title the person forgot or the check holds, while another text of the title
is shown (ADR 0063): it is that text left out, not the title. A later session's correction of the
title is written and replaces the text shown; the forgotten or held text stays as it is. A title
whose every text is forgotten stays hidden, as before."""

import os

import pytest

from lazy_harness.memory import held
from tests.cli.lhrun import invoke
from tests.memory.test_learning_new_text import DAY, NEW, NOW, OLD, World, _start
from tests.support import memory_samples as ms

THIRD = "Amounts are stored as NUMERIC(19,6) and rounded half-even at invoice time."


@pytest.fixture
def w(tmp_path) -> World:
    world = World(ms.make_project(tmp_path, "proj"))
    os.makedirs(world.mdir, exist_ok=True)
    return world


def test_a_correction_after_the_new_text_was_forgotten_is_kept(w: World):
    w.distil("s1", OLD)
    [old] = w.files()
    w.distil("s2", NEW, NOW + DAY)
    [new] = [i for i in w.files() if i != old]
    # the person goes back to the first text, as the ADR says: forget the new one
    assert invoke("memory", "forget", new, "--project", w.root).code == 0
    assert [v["path"] for v in w.shown()] == [w.files()[old]["path"]]
    # a week later a session finds the amounts must also be rounded: its text is the title's news
    report = w.distil("s3", THIRD, NOW + 7 * DAY)
    assert len(report.created) == 1 and report.rewritten == [old], "the correction was dropped"
    files = w.files()
    assert [v["text"].count("half-even") for v in w.shown()] == [1]
    assert files[new]["status"] == "forgotten" and files[old]["by"] not in (None, new)
    assert "half-even" in _start(w) and "four decimals" not in _start(w)
    # the forgotten text restated by another session stays forgotten: nothing written, nothing shown again
    again = w.distil("s4", NEW, NOW + 8 * DAY)
    assert again.created == [] and again.restored == [] and len(w.shown()) == 1


def test_a_correction_while_a_new_text_is_held_replaces_the_text_shown(w: World):
    w.distil("s1", OLD)
    [old] = w.files()
    w.distil("s2", NEW, NOW + DAY)
    [new] = [i for i in w.files() if i != old]
    held.hold(w.mdir, w.ldir, [("learning", new, w.files()[new]["path"], "judged by the model check")], "proj",
              NOW + DAY + 1, "worker")
    assert [v["path"] for v in w.shown()] == [w.files()[old]["path"]]
    report = w.distil("s3", THIRD, NOW + 2 * DAY)
    assert len(report.created) == 1 and report.rewritten == [old], "the correction was dropped"
    assert [v["text"].count("half-even") for v in w.shown()] == [1]
    assert w.files()[new]["status"] == "held"


def test_a_title_whose_only_text_was_forgotten_stays_hidden(w: World):
    w.distil("s1", OLD)
    [old] = w.files()
    assert invoke("memory", "forget", old, "--project", w.root).code == 0
    assert w.distil("s2", THIRD, NOW + DAY).created == [] and w.shown() == []
