"""A learning's title and digest as the rewrite rule reads them (ADR 0063): a title of words outside
ASCII spelt otherwise is one title, and a ``text_digest`` edited by hand does not pass for a hand edit
of the text."""

from __future__ import annotations

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import frontmatter, ids, learnings, store
from tests.support import memory_samples as ms

NOW = time.time()
DAY = 86400.0
OLD = "Order cache entries live for ten minutes; the warehouse feed refreshes them."
NEW = "Order cache entries live for two minutes; ten minutes showed sold-out stock as available."


@pytest.fixture
def world(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir, ldir = paths.memory_dir(root), paths.learnings_dir()
    os.makedirs(mdir, exist_ok=True)

    def distil(session: str, title: str, text: str, at: float) -> store.PersistReport:
        meta = {"project": "proj", "session_id": session, "task_id": f"task-{session}", "cwd": root,
                "project_folder": os.path.basename(mdir)}
        answer = {"learnings": [{"title": title, "learning": text, "scope": "project", "tags": ["cache"]}]}
        return store.persist(answer, mdir, ldir, meta, at)

    return distil, ldir


def _heads(ldir: str) -> dict[str, dict]:
    out = {}
    for found in learnings.names_by_slug(ldir).values():
        for path in found:
            head = frontmatter.read_frontmatter_values(path, ("status", "deprecated_by", "title"))
            out[learnings.id_of(path)] = {**head, "path": path}
    return out


@pytest.mark.parametrize(("first", "later"), [
    ("Кэш заказов", "кэш_заказов"),
    ("Кэш заказов", "кэш-заказов"),
    ("Κρυφή μνήμη παραγγελιών", "ΚΡΥΦΉ-ΜΝΉΜΗ ΠΑΡΑΓΓΕΛΙΏΝ"),
    ("ऑर्डर कैश", "ऑर्डर-कैश"),
])
def test_a_title_of_words_outside_ascii_spelt_otherwise_is_one_title(world, first, later):
    distil, ldir = world
    distil("s1", first, OLD, NOW)
    [old] = _heads(ldir)
    report = distil("s2", later, NEW, NOW + DAY)
    assert report.rewritten == [old]
    heads = _heads(ldir)
    [new] = [i for i in heads if i != old]
    assert heads[old]["status"] == "deprecated" and heads[old]["deprecated_by"] == new
    assert heads[new].get("status", "active") == "active"


@pytest.mark.parametrize(("one", "other"), [
    ("Кэш заказов", "кэш_заказов"),
    ("Cafe\u0301 menu", "caf\u00e9-menu"),  # an accent as its own code point, and composed
    ("ऑर्डर कैश", "ऑर्डर_कैश"),  # vowel signs and the virama are part of their word
    ("Ὀδυσσεύς", "ὀδυσσεύσ"),  # a final sigma is a sigma
])
def test_title_words_fold_unicode_spellings(one, other):
    assert ids.title_words(one) == ids.title_words(other)


@pytest.mark.parametrize(("one", "other"), [
    ("कैश नीति", "क श न त"),  # the marks dropped would leave other letters that happen to match
    ("注文キャッシュ", "注文 キャッシュ"),  # a script without case or spaces between words stays as written
    ("C++ flags", "C flags"),
])
def test_title_words_keep_other_titles_apart(one, other):
    assert ids.title_words(one) != ids.title_words(other)


@pytest.mark.parametrize("edited", ["0", "not a digest", "ffffffffffff0", ""])
def test_a_text_digest_edited_by_hand_is_no_digest(world, edited):
    distil, ldir = world
    title = "Order cache lifetime"
    distil("s1", title, OLD, NOW)
    [(old, head)] = _heads(ldir).items()
    with open(head["path"], encoding="utf-8") as fh:
        text = fh.read()
    digest = learnings.text_key(OLD)
    assert f"text_digest: {digest}" in text
    with open(head["path"], "w", encoding="utf-8") as fh:
        fh.write(text.replace(f"text_digest: {digest}", f"text_digest: '{edited}'"))
    report = distil("s2", title, NEW, NOW + DAY)
    assert report.rewritten == [old]
    assert _heads(ldir)[old]["status"] == "deprecated"
