"""Two files of one learning that differ only by their line endings (CRLF) or the spacing of the title
are one learning in every view: SessionStart's summary, ``lh memory show``, the page's learnings and
"Held for approval", ``lh memory held`` and consolidation (``hand_runs.learning_text``, the rule
``lh memory forget`` uses)."""

import os
import re

import pytest

from lazy_harness import config
from lazy_harness.memory import by_hand, hand_runs, held, held_review, ids
from lazy_harness.ui import held_and_usage, memory_lists, reading
from lazy_harness.worker import consolidate, consolidate_prompt
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.ui.conftest import NOW
from tests.ui.test_held_states import POISON


def _id(path: str) -> str:
    meta, _ = held.learning_text(path)
    return ids.of_learning(meta, path=path)


def _project(root: str) -> reading.Project:
    return reading.projects(root, config.load(), os.environ)[0]


def _variant(path: str, how: str) -> str:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    if how == "crlf":
        text = text.replace("\n", "\r\n")
    else:  # the title's spacing: the id and the normalised title stay
        title = re.search(r"^title: (.*)$", text, re.M).group(1)
        text = text.replace(f"title: {title}", "title: " + title.replace(" ", "   ", 1) + " ")
    copy = path[:-3] + f"-{how}.md"
    with open(copy, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    return copy


def _views(seeded, eid: str) -> dict[str, int]:
    shown = invoke("memory", "show", "--project", seeded.root)
    assert shown.code == 0, shown.err
    listed = invoke("memory", "held", "--project", seeded.root)
    assert listed.code == 0, listed.err
    p = _project(seeded.root)
    own, general = memory_lists.learnings(p)
    c, _, problems = consolidate.one_per_learning(consolidate_prompt.candidates(seeded.mdir, seeded.ldir, "proj"))
    assert not [x for x in problems if eid in x], problems
    return {"session start": shown.out.split("\nLearnings from ", 1)[0].count(eid),
            "show": shown.out.split("\nLearnings from ", 1)[1].count(eid),
            "page": [m["id"] for m in own + general].count(eid),
            "held": [h["id"] for h in held_review.listing(seeded.mdir, seeded.ldir)].count(eid),
            "page held": [h["id"] for h in held_and_usage.held(p, "ask")].count(eid),
            "lh memory held": listed.out.count(eid),
            "consolidation": [e.id for e in c.learnings].count(eid)}


@pytest.mark.parametrize("how", ["crlf", "title"])
def test_copies_differing_only_by_line_endings_or_title_spacing_are_one_learning_everywhere(seeded, how):
    path = ms.write_learning(seeded.ldir, "Prefer ruff over flake8", "proj", NOW, slug="ruff",
                             project_folder=os.path.basename(seeded.mdir))
    copy = _variant(path, how)
    eid = _id(path)
    assert _id(copy) == eid and hand_runs.learning_text(copy) == hand_runs.learning_text(path)
    assert _views(seeded, eid) == {"session start": 1, "show": 1, "page": 1, "held": 1, "page held": 1,
                                   "lh memory held": 1,
                                   "consolidation": 1}


@pytest.mark.parametrize("how", ["crlf", "title"])
def test_a_held_learning_so_copied_is_listed_once_and_approved_whole(seeded, how):
    path = ms.write_learning(seeded.ldir, "Test setup for every project", "proj", NOW, slug="poison",
                             learning=POISON, project_folder=os.path.basename(seeded.mdir))
    copy = _variant(path, how)
    eid = _id(path)
    assert [h["state"] for h in held_review.listing(seeded.mdir, seeded.ldir) if h["id"] == eid] == ["held"]
    by_hand.approve(seeded.mdir, seeded.ldir, "proj", eid, "mine", NOW)
    assert [h for h in held_review.listing(seeded.mdir, seeded.ldir) if h["id"] == eid] == []
    for p in (path, copy):
        meta, text = held.learning_text(p)
        assert held.learning_approved(meta, text, p), p
