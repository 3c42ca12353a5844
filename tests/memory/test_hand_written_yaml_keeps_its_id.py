"""A learning written by hand in valid YAML the store's writer would not write (a ``title: >`` or
``title: |`` block scalar, a trailing ``# comment``, a plain title continued on an indented line):
``lh memory show`` lists it under the id ``lh memory forget``, ``approve`` and ``undo`` accept, with
the title ``yaml.safe_load`` reads; approving it releases it (``lh memory held`` no longer lists it)
and forgetting it keeps its id. Before, the commands' reader took the block scalar's ``>`` for its
title (forget: "no learning"; approve: "approved" with nothing released and the title rewritten with
``\\n\\n  ``), kept the comment in the title and cut the plain title at its first line, so the first
rewrite by PyYAML gave the learning another id."""

import os

import pytest
import yaml

from lazy_harness import paths
from lazy_harness.memory import frontmatter, ids, learnings
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

# the title lines of each scenario, and the title YAML reads
TITLES = {
    "folded": ("title: >\n  Retry uploads with\n  exponential backoff", "Retry uploads with exponential backoff\n"),
    "literal": ("title: |\n  Pin the ruff version\n  in pre-commit", "Pin the ruff version\nin pre-commit\n"),
    "comment": ("title: Pin the ruff version   # keep in sync with CI", "Pin the ruff version"),
    "continued": ("title: Plain title that\n  continues on the next line",
                  "Plain title that continues on the next line"),
}


def _write(root: str, name: str, title_lines: str, status: str = "active") -> str:
    """A learning as a person writes it (no ``id``: derived from its origin and title)."""
    key = os.path.basename(paths.memory_dir(root))
    folder = os.path.join(paths.learnings_dir(), "2026-05")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"2026-05-12-{name}.md")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"---\n{title_lines}\norigin: proj\nscope: general\nstatus: {status}\nproject_folder: {key}\n"
                 "created: '2026-05-12T10:00:00Z'\n---\n\n## Learning\n\nbody text here.\n")
    return path


def _listed(root: str) -> dict[str, str]:
    """``{id: its line}`` of ``lh memory show --section learnings``."""
    shown = invoke("memory", "show", "--section", "learnings", "--project", root)
    assert shown.code == 0, shown.err
    return {line.split()[0]: line for line in shown.out.splitlines() if line.startswith("  l-")}


def _front(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh.read().split("---\n")[1])


@pytest.fixture
def project(tmp_path) -> str:
    return ms.make_project(tmp_path, "proj")


@pytest.mark.parametrize("name", sorted(TITLES))
def test_every_reader_reads_the_title_yaml_reads(project, name):
    lines, title = TITLES[name]
    path = _write(project, name, lines)
    assert _front(path)["title"] == title
    with open(path, encoding="utf-8") as fh:
        meta, _ = frontmatter.parse_frontmatter(fh.read())
    assert meta["title"] == title
    assert frontmatter.read_frontmatter_values(path, ("title", "origin"))["title"] == title
    want = ids.learning_id("proj", title)
    assert learnings.id_of(path) == ids.of_learning(meta, path=path) == want
    assert list(_listed(project)) == [want]


@pytest.mark.parametrize("name", sorted(TITLES))
def test_forget_and_undo_take_the_listed_id_and_keep_it(project, name):
    path = _write(project, name, TITLES[name][0])
    [lid] = _listed(project)
    done = invoke("memory", "forget", lid, "--project", project)
    assert done.code == 0 and done.out.startswith(f"forgot {lid}"), (done.out, done.err)
    listed = _listed(project)
    assert list(listed) == [lid] and "forgotten" in listed[lid]
    assert _front(path)["status"] == "forgotten"
    undone = invoke("memory", "undo", lid, "--project", project)
    assert undone.code == 0, undone.err
    assert list(_listed(project)) == [lid] and _front(path)["status"] == "active"


@pytest.mark.parametrize("name", sorted(TITLES))
def test_approve_releases_the_listed_id_and_keeps_it(project, name):
    path = _write(project, name, TITLES[name][0])
    [lid] = _listed(project)
    held = invoke("memory", "held", "--project", project)
    assert lid in held.out, held.out
    done = invoke("memory", "approve", lid, "--project", project)
    assert done.code == 0 and done.out.startswith(f"approved {lid}"), (done.out, done.err)
    assert _front(path)["title"] == TITLES[name][1]  # rewritten by PyYAML, read as before
    assert list(_listed(project)) == [lid]
    assert lid not in invoke("memory", "held", "--project", project).out
    again = invoke("memory", "approve", lid, "--project", project)
    assert lid not in invoke("memory", "held", "--project", project).out, again.out


def test_a_status_with_a_comment_is_the_status_and_no_damage(project):
    path = _write(project, "status-comment", "title: Status with a comment", status="active  # still true")
    assert _front(path)["status"] == "active"
    assert frontmatter.read_frontmatter_values(path, ("status",)) == {"status": "active"}
    [line] = _listed(project).values()
    assert "still true" not in line
    checked = invoke("memory", "check", "--project", project)
    assert checked.code == 0 and "still true" not in checked.out + checked.err, checked.out + checked.err
