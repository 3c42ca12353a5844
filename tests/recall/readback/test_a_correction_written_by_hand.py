"""A learning the worker wrote for a project, corrected by hand in a new file of the same title (so of
the same id), ``origin: proj`` and ``scope: project`` but no ``project_folder``: a file written by hand
has no key, so whose it is waits for its adoption (``lh memory unassigned``, the worker's
housekeeping, or ``lh memory assign``; ADR 0035). Until then the start must not lose the learning.

What the person sees, as decided here:

- One project named ``proj``: the start never adopts (a reader does not write), so the first start
  after the edit shows the text the project had, and asks the worker for an index task (a learning file
  changed), after which the worker adopts the correction (the one project of its name). The next start
  shows the correction, and only it: one text per id, the newest this project can use. Adopted before
  that first start (the person ran ``lh memory unassigned``), the correction is what it shows.
- Two repositories named ``proj``: the correction has no owner (no session's transcript names one), so
  it is adopted by nobody; every start keeps showing the text the project had, never nothing, until the
  person assigns the correction, and from then on the correction alone.
"""

import calendar
import glob
import os
import time

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import start, write_as_session
from tests.support import memory_samples as ms

TITLE = "Billing webhooks retry for three days"
OLD = "Stripe retries a webhook for 3 days."
NEW = "CORRECTION: Stripe retries webhooks for up to 3 days in live mode, only hours in test mode."


def _project(tmp_path) -> str:
    root = ms.make_project(tmp_path / "work", "proj")
    write_as_session(root, {"learnings": [{"title": TITLE, "learning": OLD, "context": "billing service",
                                           "scope": "project", "tags": ["billing"]}],
                            "decisions": [{"summary": "Use PostgreSQL for the billing database"}]})
    return root


def _correct_by_hand() -> str:
    [old] = glob.glob(os.path.join(paths.learnings_dir(), "*", "*.md"))
    path = os.path.join(os.path.dirname(old), "billing-correction.md")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"---\ntitle: {TITLE}\norigin: proj\nscope: project\n---\n\n## Learning\n\n{NEW}\n")
    return path


def _which(text: str) -> str:
    """Which text of the learning a start showed: "old", "new", "both" or "none"."""
    return {(True, False): "old", (False, True): "new", (True, True): "both"}.get((OLD in text, NEW in text), "none")


def test_the_first_start_after_the_edit_keeps_the_old_text_and_the_next_one_shows_the_correction(tmp_path):
    root = _project(tmp_path)
    assert _which(start(root, sid="s-1")) == "old"
    _correct_by_hand()
    assert _which(start(root, sid="s-2")) == "old"  # not adopted yet; the worker this start asked for adopts it
    assert _which(start(root, sid="s-3")) == "new"
    assert _which(start(root, sid="s-4")) == "new"


def test_a_correction_adopted_before_the_start_is_shown_at_it(tmp_path):
    root = _project(tmp_path)
    _correct_by_hand()
    assert invoke("memory", "unassigned").code == 0  # the one project of its name adopts it
    assert _which(start(root, sid="s-1")) == "new"


def test_with_two_repositories_of_that_name_the_old_text_stays_until_the_correction_is_assigned(tmp_path):
    root = _project(tmp_path)
    other = ms.make_project(tmp_path / "clients", "proj")
    write_as_session(other, {"decisions": [{"summary": "Other project decision"}]}, session="sess-o")
    assert _which(start(root, sid="s-1")) == "old"
    _correct_by_hand()
    for n in range(3):  # each start's worker is done before the next (``start`` waits for it)
        assert _which(start(root, sid=f"s-{n + 2}")) == "old", n
    assert _which(start(other, sid="o-1")) == "none"  # neither text is the other repository's
    listed = invoke("memory", "unassigned")
    assert listed.code == 0 and "billing-correction" in listed.out, listed.out
    [lid] = {w.strip("():,") for w in listed.out.split() if w.startswith("l-")}
    assigned = invoke("memory", "assign", lid, "--project", root)
    assert assigned.code == 0, assigned.err
    assert _which(start(root, sid="s-5")) == "new"
    assert _which(start(other, sid="o-2")) == "none"


def test_another_repositorys_newer_text_of_the_id_waiting_for_approval_leaves_the_projects_text(tmp_path):
    """The same displacement by another repository of the name: a general learning of the title written
    there (brought by sync, from a version that gave no id of its own) has the same id (origin and title)
    and is newer; it waits for approval here (``cross_projects`` is ``ask``), so it cannot stand for the
    project's own text at this project's start. In the other repository its own text is shown."""
    root = _project(tmp_path)
    other = ms.make_project(tmp_path / "clients", "proj")
    write_as_session(other, {"decisions": [{"summary": "Other project decision"}]}, session="sess-o")
    [old] = glob.glob(os.path.join(paths.learnings_dir(), "*", "*.md"))
    noon = calendar.timegm(time.strptime(os.path.basename(old)[:10], "%Y-%m-%d")) + 12 * 3600  # its day
    new = ms.write_learning(paths.learnings_dir(), TITLE, "proj", noon, learning=NEW, scope="general",
                            slug="billing-webhooks-retry-from-sync",
                            project_folder=os.path.basename(paths.memory_dir(other)))
    assert sorted(os.listdir(os.path.dirname(old)), reverse=True)[0] == os.path.basename(new)  # the newer name
    assert _which(start(root, sid="s-1")) == "old"
    assert _which(start(other, sid="o-1")) == "new"
