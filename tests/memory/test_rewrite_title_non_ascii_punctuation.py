"""A learning's title spelt with a punctuation mark outside ASCII (an em dash, a middle dot, a curly
apostrophe) where another session wrote an ASCII one, or a space: the same words, so one title for the
rewrite rule (ADR 0063, ``ids.title_words``). Its file's name drops the mark (``orderstable``), where
the other's keeps a dash (``orders-table``): the title is still found and its new text replaces the old."""

import os

import pytest

from lazy_harness.memory import store
from tests.memory.test_learning_new_text import DAY, NEW, NOW, OLD, World, _start
from tests.support import memory_samples as ms


@pytest.fixture
def w(tmp_path) -> World:
    world = World(ms.make_project(tmp_path, "proj"))
    os.makedirs(world.mdir, exist_ok=True)
    return world


def _distil(w: World, session: str, title: str, text: str, at: float):
    answer = {"learnings": [{"title": title, "learning": text, "context": "billing", "scope": "project"}]}
    return store.persist(answer, w.mdir, w.ldir, w.meta(session), at)


def _shown(w: World) -> list[str]:
    from lazy_harness.memory import frontmatter, learnings

    out = []
    for found in learnings.names_by_slug(w.ldir).values():
        for path in found:
            if frontmatter.read_frontmatter_values(path, ("status",)).get("status") == "active":
                with open(path, encoding="utf-8") as fh:
                    out.append(fh.read())
    return out


@pytest.mark.parametrize(("first", "then"), [
    ("Orders\u2014table money columns", "Orders table money columns"),
    ("Orders-table money columns", "Orders\u00b7table money columns"),
    ("The ledger\u2019s money columns", "The ledger's money columns"),
], ids=["em-dash-first", "middle-dot-later", "curly-apostrophe"])
def test_a_title_that_differs_by_a_non_ascii_mark_is_one_title(w: World, first: str, then: str):
    assert len(_distil(w, "s1", first, OLD, NOW).created) == 1
    report = _distil(w, "s2", then, NEW, NOW + DAY)
    assert len(report.created) == 1 and len(report.rewritten) == 1, "both texts of the title are shown"
    assert [t.count("NUMERIC(19,6)") for t in _shown(w)] == [1]
    assert "four decimals" not in _start(w)


def test_one_answer_with_the_title_spelt_twice_writes_one_text(w: World):
    """An answer that holds the title twice, spelt otherwise (``Orders table``, ``orders-table``), each with
    its own text: the second is the title twice in this answer, so the first new text alone is shown."""
    _distil(w, "s1", "Orders table money columns", OLD, NOW)
    answer = {"learnings": [
        {"title": "Orders table money columns", "learning": NEW, "context": "billing", "scope": "project"},
        {"title": "orders-table money-columns", "learning": "Amounts are integer cents.", "context": "billing",
         "scope": "project"}]}
    report = store.persist(answer, w.mdir, w.ldir, w.meta("s2"), NOW + DAY)
    assert len(report.created) == 1 and len(report.rewritten) == 1
    assert [t.count("NUMERIC(19,6)") for t in _shown(w)] == [1]


@pytest.mark.parametrize(("first", "then"), [
    ("C++ compiler flags", "C compiler flags"),
    ("C# build output", "C build output"),
    ("R&D budget codes", "R D budget codes"),
    ("Prices in \u20ac per seat", "Prices in per seat"),
], ids=["c++", "c#", "ampersand", "euro-sign"])
def test_titles_apart_by_a_symbol_are_two_learnings(w: World, first: str, then: str):
    """A symbol is part of a title's words (``C++`` is not ``C``): a project's learning of the C compiler's
    flags is no new text of its C++ one, and both stay shown."""
    _distil(w, "s1", first, OLD, NOW)
    report = _distil(w, "s2", then, NEW, NOW + DAY)
    assert len(report.created) == 1 and report.rewritten == [], "another subject's learning was replaced"
    assert len(_shown(w)) == 2
