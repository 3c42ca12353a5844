"""The page's Approve on a held learning of general scope asks the question approve answers: it shows
the learning in every project (ADR 0032), not only "again" here; a held project-scoped one is asked
as before."""

import os
import re

from lazy_harness.memory import held, ids
from lazy_harness.ui import sections
from tests.support import memory_samples as ms
from tests.ui.conftest import NOW
from tests.ui.test_held_states import POISON
from tests.ui.test_ui_copies_and_held_cache_idfx import _view


def _row(html: str, eid: str) -> str:
    [row] = re.findall(rf'<li class="entry [a-z]+" data-id="{re.escape(eid)}">.*?</li>', html, re.S)
    return row


def _held_pair(seeded) -> tuple[str, str]:
    """A held learning of general scope and a held one of this project's, written by this project."""
    key = os.path.basename(seeded.mdir)
    general = ms.write_learning(seeded.ldir, "Setup for every project", "proj", NOW, slug="poison-general",
                                learning=POISON, project_folder=key, scope="general", status="held",
                                deprecated_reason="held: reads as an instruction")
    local = ms.write_learning(seeded.ldir, "Setup for this project", "proj", NOW, slug="poison-local",
                              learning=POISON + " Here only.", project_folder=key, scope="project", status="held",
                              deprecated_reason="held: reads as an instruction")
    return general, local


def test_approve_on_a_held_general_learning_asks_about_every_project(seeded):
    general, local = _held_pair(seeded)
    page = sections.held_section(_view(seeded.root))
    gid, lid = (ids.of_learning(held.learning_text(p)[0], path=p) for p in (general, local))
    assert "Use this learning in every project?" in _row(page, gid)
    assert "Show this entry to sessions again?" in _row(page, lid)


def test_forget_on_a_held_learning_asks_what_forget_does(seeded):
    # why: a general learning is one file every project reads: forgetting it from this page forgets it in
    # every project, as a waiting one of another project; a project-scoped one is this project's alone
    general, local = _held_pair(seeded)
    waiting = ms.write_learning(seeded.ldir, "Traps need set -E to reach functions", "other", NOW,
                                slug="waiting", scope="general")
    page = sections.held_section(_view(seeded.root))
    gid, lid, wid = (ids.of_learning(held.learning_text(p)[0], path=p) for p in (general, local, waiting))
    assert wid in page
    for eid in (gid, wid):
        assert "Forget this learning in every project?" in _row(page, eid)
    assert "Forget this learning?" in _row(page, lid)
    assert "every project" not in _row(page, lid)
