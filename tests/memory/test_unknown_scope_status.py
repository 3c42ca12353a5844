"""A scope the writer never writes (``projcet``, ``universal``: worker/answer.py stores those as
``project``) reads as ``project``, the side that never shows a learning where it may not belong; a
status in another case (``Active``) reads as the writer's lower-case value. Every reader agrees
(docs/how/project-key.md, "Scope")."""

import pytest

from lazy_harness.memory import frontmatter, status_fields
from tests.cli.lhrun import invoke
from tests.hooks.test_trust import ask, start
from tests.memory.test_frontmatter_duplicates import PHRASE, PROMPT, TITLE, edit_file, learning_file, two_projects


def _edit(old: str, new: str) -> None:
    edit_file(learning_file(), old, new)


@pytest.fixture
def alpha_gamma(tmp_path):
    return two_projects(tmp_path)


def test_a_mistyped_scope_keeps_the_learning_in_its_project(alpha_gamma):
    alpha, gamma = alpha_gamma
    _edit("scope: project\n", "scope: projcet\n")
    listed = invoke("memory", "held", "--project", gamma)
    assert listed.code == 0 and TITLE not in listed.out, listed.out  # was "waiting: approve for other projects"
    assert PHRASE not in start(gamma)[0] and PHRASE not in ask(gamma, PROMPT)
    assert PHRASE in start(alpha, sid="s-a")[0] and PHRASE in ask(alpha, PROMPT, sid="p-a")


def test_a_capitalised_status_is_read_as_the_writer_writes_it(alpha_gamma):
    alpha, gamma = alpha_gamma
    _edit("status: active\n", "status: Active\n")
    assert PHRASE in start(alpha, sid="s-a")[0]  # was left out of the digest
    assert PHRASE in ask(alpha, PROMPT, sid="p-a")
    assert PHRASE not in start(gamma)[0]


def test_a_capitalised_forgotten_status_hides_it(alpha_gamma):
    alpha, _ = alpha_gamma
    _edit("status: active\n", "status: Forgotten\n")
    assert PHRASE not in start(alpha, sid="s-a")[0] and PHRASE not in ask(alpha, PROMPT, sid="p-a")


def test_a_general_scope_in_capitals_is_still_general(alpha_gamma):
    alpha, gamma = alpha_gamma
    _edit("scope: project\n", "scope: General\n")
    listed = invoke("memory", "held", "--project", gamma)
    assert TITLE in listed.out and "wait for your approval" in listed.out, listed.out
    assert PHRASE not in ask(gamma, PROMPT)
    assert PHRASE in start(alpha, sid="s-a")[0]


@pytest.mark.parametrize(("line", "scope"), [("scope: projcet", "project"), ("scope: universal", "project"),
                                             ("scope: General", "general"), ("scope: ' general '", "general"),
                                             ("scope: [general]", "project"), ("scope: PROJECT", "project")])
def test_every_reader_reads_a_scope_as_project_or_general(tmp_path, line, scope):
    path = str(tmp_path / "2026-12-01-x.md")
    text = f"---\ntitle: X\n{line}\nstatus: Held\n---\n\nText.\n"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    parsed = frontmatter.parse_frontmatter(text)
    assert parsed is not None and parsed[0]["scope"] == scope and parsed[0]["status"] == "held"
    assert frontmatter.read_frontmatter_values(path, ("scope", "status")) == {"scope": scope, "status": "held"}
    assert status_fields.fields_of(text, path)["status"] == "held"


def test_no_scope_stays_no_scope(tmp_path):
    """A learning written by hand without a scope: its readers' rule (ADR 0032) is not changed here."""
    text = "---\ntitle: X\n---\n\nText.\n"
    parsed = frontmatter.parse_frontmatter(text)
    assert parsed is not None and "scope" not in parsed[0]
