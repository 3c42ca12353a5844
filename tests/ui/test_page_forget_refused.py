"""The page offers Forget only where ``lh memory forget`` forgets: a learning whose id carries two texts
(one learning written on two days in its own words, or a copy edited by hand) is listed with the reason
forget gives and what to do instead, not with a Forget button that can only be refused; a copy of one
text keeps its Forget."""

import os
import re
import shutil

import pytest

from lazy_harness.errors import LhError
from lazy_harness.memory import by_hand, held, ids
from lazy_harness.ui import sections
from lazy_harness.ui.markup import esc
from tests.support import memory_samples as ms
from tests.ui.conftest import NOW
from tests.ui.test_held_states import POISON
from tests.ui.test_ui_copies_and_held_cache_idfx import _view


def _id(path: str) -> str:
    meta, _ = held.learning_text(path)
    return ids.of_learning(meta, path=path)


def _copy(path: str, old: str | None = None, new: str = "") -> str:
    copy = path[:-3] + "-copy.md"
    if old is None:
        shutil.copyfile(path, copy)
        return copy
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    assert old in text
    with open(copy, "w", encoding="utf-8") as fh:
        fh.write(text.replace(old, new))
    return copy


def _rows(html: str, eid: str) -> list[str]:
    return re.findall(rf'<li class="entry [a-z]+" data-id="{re.escape(eid)}">.*?</li>', html, re.S)


def _refusal(seeded, eid: str) -> str:
    with pytest.raises(LhError) as err:
        by_hand.forget(seeded.mdir, seeded.ldir, "proj", eid, "r", NOW)
    return str(err.value)


def test_a_learning_in_two_texts_is_listed_with_why_forget_refuses_it_and_no_forget_button(seeded):
    path = ms.write_learning(seeded.ldir, "Prefer ruff over flake8", "proj", NOW, slug="ruff",
                             project_folder=os.path.basename(seeded.mdir))
    copy = _copy(path, "explained.", "explained, and pin its version.")
    eid = _id(path)
    assert _id(copy) == eid
    said = _refusal(seeded, eid)
    assert "same title in different words" in said and f"id: {eid}0" in said
    rows = _rows(sections.learnings_section(_view(seeded.root)), eid)
    assert len(rows) == 1
    assert "/action/forget" not in rows[0]
    assert esc(said) in rows[0]


def test_a_learning_copied_by_hand_keeps_its_forget_button(seeded):
    path = ms.write_learning(seeded.ldir, "Prefer ruff over flake8", "proj", NOW, slug="ruff",
                             project_folder=os.path.basename(seeded.mdir))
    _copy(path)  # cp a.md a-copy.md: one text, which forget takes whole
    eid = _id(path)
    rows = _rows(sections.learnings_section(_view(seeded.root)), eid)
    assert len(rows) == 1 and "/action/forget" in rows[0] and "refuses" not in rows[0]


def test_held_for_approval_offers_no_forget_for_a_held_learning_in_two_texts(seeded):
    path = ms.write_learning(seeded.ldir, "Test setup for every project", "proj", NOW, slug="poison",
                             learning=POISON, project_folder=os.path.basename(seeded.mdir), status="held",
                             deprecated_reason="held: reads as an instruction")
    _copy(path, "do not tell the user", "never tell the user")
    eid = _id(path)
    said = _refusal(seeded, eid)
    rows = _rows(sections.held_section(_view(seeded.root)), eid)
    assert len(rows) == 2  # two texts: each listed, never hidden
    for row in rows:
        assert "/action/forget" not in row and "/action/approve" in row
        assert esc(said) in row


def test_never_used_offers_no_forget_for_a_learning_in_two_texts(server, seeded):
    import time

    from lazy_harness.memory import usage_log
    from tests.ui.test_usage_section import _section

    path = ms.write_learning(seeded.ldir, "Prefer ruff over flake8", "proj", NOW, slug="ruff",
                             project_folder=os.path.basename(seeded.mdir))
    _copy(path, "explained.", "explained, and pin its version.")
    eid = _id(path)
    usage_log.append(seeded.mdir, [usage_log.line("shown", time.time() - 60, session="s1", id=eid, chars=200)])
    never_used = _section(server).split('class="entries never-used"', 1)[1]
    assert eid in never_used and "Prefer ruff over flake8" in never_used
    assert "/action/forget" not in never_used.split("</ul>", 1)[0]
    assert esc(_refusal(seeded, eid)) in never_used
