"""A key given on two lines of a learning's frontmatter (a hand edit, a synced file) reads the same in
every reader: the hooks' line reader (``read_frontmatter_values``), the block reader the index and
the digest use (``parse_frontmatter``) and the status writer (``status_fields``). A key that decides
who sees a learning, given twice with different values, reads the way that shows it least: a scope
of ``project`` and ``general`` is ``project`` (docs/how/project-key.md, "Scope")."""

import os

import pytest
import yaml

from lazy_harness import paths
from lazy_harness.memory import frontmatter, status_fields
from tests.cli.lhrun import invoke
from tests.hooks.test_trust import ask, learning, start, write_as_session
from tests.support import memory_samples as ms

TITLE = "The invoices table is partitioned by month"
TEXT = "Queries on invoices must name the month partition, or the nightly migration lock waits on all of them."
PROMPT = "what about the nightly migration lock on the invoices partition"
PHRASE = "partitioned by month"


def learning_file() -> str:
    root = paths.learnings_dir()
    [path] = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".md")]
    return path


def edit_file(path: str, old: str, new: str) -> None:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    assert old in text
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text.replace(old, new, 1))


def two_projects(tmp_path) -> tuple[str, str]:
    """Alpha's session wrote a ``scope: project`` learning; gamma has memory of its own."""
    alpha, gamma = ms.make_project(tmp_path, "alpha"), ms.make_project(tmp_path, "gamma")
    write_as_session(alpha, {"learnings": [learning(TITLE, TEXT, scope="project", tags=["invoices"],
                                                    cues=["the nightly migration lock"])]})
    write_as_session(gamma, {"decisions": [{"summary": "Run the migrations with alembic", "rationale": "one tool"}]},
                     session="sess-g")
    return alpha, gamma


@pytest.fixture
def alpha_gamma(tmp_path):
    return (*two_projects(tmp_path), learning_file())


@pytest.mark.parametrize("scopes", [("project", "general"), ("general", "project")],
                         ids=["general-last", "general-first"])
def test_a_project_learning_given_a_second_scope_line_stays_in_its_project(alpha_gamma, scopes):
    alpha, gamma, path = alpha_gamma
    edit_file(path, "scope: project\n", "".join(f"scope: {s}\n" for s in scopes))
    assert PHRASE not in ask(gamma, PROMPT)  # the prompt hook injected it: its check read the first line
    assert PHRASE not in start(gamma, sid="s-g")[0]
    listed = invoke("memory", "held", "--project", gamma)
    assert listed.code == 0 and TITLE not in listed.out, listed.out  # not "waiting": it is alpha's alone
    found = invoke("memory", "search", "invoices", "--project", gamma)
    assert TITLE not in found.out, found.out
    # in alpha, its own project, it is used as before
    assert PHRASE in ask(alpha, PROMPT, sid="p-alpha")
    assert PHRASE in start(alpha, sid="s-a")[0]


def test_check_can_name_the_keys_given_twice(alpha_gamma):
    path = alpha_gamma[2]
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    assert frontmatter.repeated_keys(text) == []
    edit_file(path, "scope: project\n", "scope: project\nscope: general\n")
    edit_file(path, "status: active\n", "status: active\nstatus: active\n")
    with open(path, encoding="utf-8") as fh:
        assert frontmatter.repeated_keys(fh.read()) == ["scope", "status"]


HEAD = "---\ntitle: Partitions\norigin: alpha\n{lines}tags:\n- invoices\n---\n\n## Learning\n\nText.\n"


@pytest.mark.parametrize(("lines", "key", "expected"), [
    ("scope: project\nscope: general\n", "scope", "project"),
    ("scope: general\nscope: project\n", "scope", "project"),
    ("scope: general\nscope: General\n", "scope", "general"),
    ("scope: general\nscope: projcet\n", "scope", "project"),
    ("status: active\nstatus: forgotten\n", "status", "forgotten"),
    ("status: held\nstatus: active\n", "status", "held"),
    ("status: Active\nstatus: active\n", "status", "active"),
    ("deprecated_by: l-1a2b3c4d\ndeprecated_by: null\n", "deprecated_by", "l-1a2b3c4d"),
    ("deprecated_reason: approved by hand\ndeprecated_reason: dup\n", "deprecated_reason", None),
    ("project_folder: alpha-key\nproject_folder: gamma-key\n", "project_folder", "gamma-key"),
    ("via: session\nvia: hand\n", "via", "hand"),
])
def test_every_reader_reads_a_repeated_key_the_same_way(tmp_path, lines, key, expected):
    path = str(tmp_path / "2026-12-01-partitions.md")
    text = HEAD.format(lines=lines)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    parsed = frontmatter.parse_frontmatter(text)
    assert parsed is not None
    assert parsed[0].get(key) == expected
    assert frontmatter.read_frontmatter_values(path, (key,)).get(key) == expected
    if key in status_fields.STATUS_FIELDS:
        assert status_fields.fields_of(text, path)[key] == expected
    assert frontmatter.repeated_keys(text) == [key]


def test_a_status_change_writes_one_scope_line_and_it_is_project(tmp_path):
    path = str(tmp_path / "2026-12-01-partitions.md")
    text = HEAD.format(lines="scope: project\nscope: general\nstatus: active\n")
    written = status_fields.with_fields(text, path, {"status": "forgotten"})
    assert written.count("\nscope:") == 1
    front = yaml.safe_load(written.split("---\n")[1])
    assert front["scope"] == "project" and front["status"] == "forgotten"
    assert written.endswith("\n## Learning\n\nText.\n")


def test_lh_memory_check_names_a_key_given_twice(isolated_home, tmp_path):
    from lazy_harness.memory import learning_damage

    path = tmp_path / "2026-11-30-twice.md"
    path.write_text("---\ntitle: Twice\nscope: project\nscope: general\n---\n\n## Learning\n\nx\n")
    why = learning_damage.learning_damage(str(path))
    assert why is not None and "given twice" in why and "scope" in why
