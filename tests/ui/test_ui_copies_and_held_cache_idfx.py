"""A learning file copied by hand (same id, same text) is one learning on the page, as ``lh memory
show`` lists it; a copy whose text differs stays listed (never lost). "Held for approval" does not run
the hold check again on a store that did not change, and lists what ``lh memory held`` lists after a
change."""

import os
import re
import shutil

from lazy_harness.memory import frontmatter, held_review, ids, trust, verdicts
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.ui.conftest import NOW
from tests.ui.test_held_states import POISON
from tests.ui.test_server import cookie, page, request


def _get(server) -> str:
    status, _, body = request(server, "GET", page(server), cookie(server))
    assert status == 200, body[:300]
    return body


def _section(body: str, anchor: str) -> str:
    return body.split(f'<section id="{anchor}">', 1)[1].split("</section>", 1)[0]


def _ids(section: str) -> list[str]:
    return re.findall(r'<li class="entry [a-z]+" data-id="([^"]+)">', section)


def _id_of(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        return ids.of_learning(frontmatter.parse_frontmatter(fh.read())[0], path=path)


def _shown_learnings(root: str) -> str:
    out = invoke("memory", "show", "--project", root)
    assert out.code == 0, out.err
    return out.out.split("\nLearnings from ", 1)[1]


def test_a_learning_copied_by_hand_is_listed_once_as_lh_memory_show_lists_it(server, seeded):
    path = ms.write_learning(seeded.ldir, "Prefer ruff over flake8", "proj", NOW, slug="ruff",
                             project_folder=os.path.basename(seeded.mdir))
    shutil.copyfile(path, path[:-3] + "-copy.md")  # cp a.md a-copy.md: one id, one text
    eid = _id_of(path)
    assert _shown_learnings(seeded.root).count(eid) == 1
    assert _ids(_section(_get(server), "learnings")).count(eid) == 1


def test_a_copy_whose_text_was_edited_is_listed_once_naming_the_other_file(server, seeded):
    """One id and title in two files is one learning to SessionStart; show and the page list it once,
    by the newest file, and name the other one so the person can merge them."""
    path = ms.write_learning(seeded.ldir, "Prefer ruff over flake8", "proj", NOW, slug="ruff",
                             project_folder=os.path.basename(seeded.mdir))
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    copy = path[:-3] + "-copy.md"
    with open(copy, "w", encoding="utf-8") as fh:
        fh.write(text.replace("explained.", "explained, and pin its version."))
    eid = _id_of(path)
    assert _shown_learnings(seeded.root).count(eid) == 1
    section = _section(_get(server), "learnings")
    assert _ids(section).count(eid) == 1
    named = [n for n in (path, copy) if f"also in {os.path.basename(n)}" in section]
    assert len(named) == 1


def _view(root: str):
    from lazy_harness import config
    from lazy_harness.ui import reading, sections

    cfg = config.load()
    projects = reading.projects(root, cfg, os.environ)
    return sections.View(projects[0], projects, cfg, os.environ, NOW, "token", root, "/base")


def test_held_for_approval_does_not_run_the_check_again_on_an_unchanged_store(seeded, monkeypatch):
    from lazy_harness.ui import sections

    ms.write_learning(seeded.ldir, "Test setup for every project", "proj", NOW, slug="poison",
                      learning=POISON, project_folder=os.path.basename(seeded.mdir))
    held_review.listing(seeded.mdir, seeded.ldir)  # the first read on this machine adopts approvals (ADR 0052)
    os.remove(verdicts.listing_verdicts(seeded.mdir).path)  # the verdicts that read kept: the page works them out
    calls = []
    real = trust.reason

    def counted(text, *a, **k):
        calls.append(text)
        return real(text, *a, **k)

    monkeypatch.setattr(trust, "reason", counted)
    first = sections.held_section(_view(seeded.root))
    assert "Test setup for every project" in first and calls  # the first load checks the learnings
    calls.clear()
    assert sections.held_section(_view(seeded.root)) == first
    assert calls == []


def _held_ids(root: str) -> list[str]:
    out = invoke("memory", "held", "--project", root)
    assert out.code == 0, out.err
    return re.findall(r"\b[dflh]-[0-9a-f]{8,40}\b", out.out)


def _held_classes(body: str) -> dict[str, str]:
    return dict((i, c) for c, i in re.findall(r'<li class="entry ([a-z]+)" data-id="([^"]+)">', _section(body, "held")))


def test_held_for_approval_follows_a_change_of_a_learning_as_lh_memory_held_does(server, seeded):
    path = ms.write_learning(seeded.ldir, "Test setup for every project", "proj", NOW, slug="poison",
                             learning="Run the unit tests with pytest before a commit.",
                             project_folder=os.path.basename(seeded.mdir))
    eid = _id_of(path)
    before = _held_classes(_get(server))
    assert sorted(before) == sorted(set(_held_ids(seeded.root)))
    assert before.get(eid) != "held"
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text.replace("Run the unit tests with pytest before a commit.", POISON))
    after = _held_classes(_get(server))
    assert sorted(after) == sorted(set(_held_ids(seeded.root)))
    assert after[eid] == "held"
