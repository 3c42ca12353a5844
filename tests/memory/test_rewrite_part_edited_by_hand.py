"""A learning's ``origin_part`` (the part of its session's transcript it was distilled from, ADR 0063)
edited by hand into anything: a later session's new text of the title is still written and replaces it,
and the session that wrote it, read again, still gives back its own learning (a part not known)."""

import os

import pytest

from lazy_harness.memory import store
from tests.memory.test_learning_new_text import DAY, NEW, NOW, OLD, TITLE, World
from tests.support import memory_samples as ms


@pytest.fixture
def w(tmp_path) -> World:
    world = World(ms.make_project(tmp_path, "proj"))
    os.makedirs(world.mdir, exist_ok=True)
    return world


def _distil(w: World, session: str, text: str, part: tuple[int, int], at: float):
    answer = {"learnings": [{"title": TITLE, "learning": text, "context": "billing", "scope": "project"}]}
    return store.persist(answer, w.mdir, w.ldir, {**w.meta(session), "read_from": part[0], "read_to": part[1]}, at)


@pytest.mark.parametrize("edited", ["²-³", "١٢-٣٤", "-5-10", "0-0", "99999999999999999999999-1", "x", "10-5"])
def test_a_hand_edited_origin_part_neither_breaks_nor_hides_a_correction(w: World, edited: str):
    _distil(w, "s1", OLD, (0, 5000), NOW)
    [(old, v)] = w.files().items()
    with open(v["path"], encoding="utf-8") as fh:
        text = fh.read()
    assert "origin_part: 0-5000" in text
    with open(v["path"], "w", encoding="utf-8") as fh:  # the person's editor
        fh.write(text.replace("origin_part: 0-5000", f"origin_part: '{edited}'"))
    # the same session read again from its top: its own learning, worded otherwise, is no news
    again = _distil(w, "s1", OLD + " Checked.", (0, 5000), NOW + 60)
    assert again.created == [] and again.rewritten == []
    report = _distil(w, "s2", NEW, (0, 4000), NOW + DAY)
    assert len(report.created) == 1 and report.rewritten == [old]
    assert [x["text"].count("NUMERIC(19,6)") for x in w.shown()] == [1]
