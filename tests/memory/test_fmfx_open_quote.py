"""A learning whose frontmatter opens a quote that never closes (a hand edit that lost one): the quote
swallows the keys after it (origin, scope, status). Readers name it by file and line, count it as
nobody's learning waiting for approval, and a later session's learning of the same title is written,
not dropped as "exists"."""

import os

import pytest

from lazy_harness import config, paths
from lazy_harness.memory import frontmatter, learnings, store
from lazy_harness.memory.plan import CREATE, EXISTS, SKIP
from lazy_harness.recall.readback import digest, prepared
from lazy_harness.recall.readback import learnings as heads
from tests.support import memory_samples as ms

NOW = 1_760_000_000.0
META = {"project": "proj", "session_id": "sess-2", "task_id": "1760000000000000000-ab12", "cwd": "/x/proj"}
TITLE = "Backoff on retries"
ITEM = {"title": TITLE, "learning": "Every retry loop needs exponential backoff with jitter.", "scope": "general"}


def _break(path: str, with_text: str = 'title: "unclosed ') -> str:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text.replace("title: ", with_text, 1))
    return path


@pytest.fixture
def written(tmp_path) -> tuple[str, str, str]:
    """(project root, memory folder, the learning file the store wrote, then damaged by hand)."""
    root = ms.make_project(tmp_path, "proj")
    mdir, ldir = paths.memory_dir(root), paths.learnings_dir()
    store.persist({"learnings": [ITEM]}, mdir, ldir, {**META, "session_id": "sess-1", "cwd": root}, NOW)
    [path] = [os.path.join(dp, n) for dp, _, names in os.walk(ldir) for n in names if n.endswith(".md")]
    return root, mdir, _break(path)


def test_open_quote_names_the_line_and_key_and_a_closed_one_nothing(tmp_path):
    path = ms.write_learning(paths.learnings_dir(), TITLE, "proj", NOW)
    with open(path, encoding="utf-8") as fh:
        assert frontmatter.open_quote(fh.read()) is None
    with open(_break(path), encoding="utf-8") as fh:
        said = frontmatter.open_quote(fh.read())
    assert said is not None and said.startswith("line 2: title: ")


def test_the_read_back_head_carries_the_damage(written):
    _, _, path = written
    head = heads.read_head(path)
    assert head is not None and head[frontmatter.DAMAGED].startswith("line 3: title: ")
    assert heads.brief(head)[frontmatter.DAMAGED] == head[frontmatter.DAMAGED]


def test_session_start_names_it_and_counts_it_as_no_one_waiting(written):
    root, _, path = written
    _, stats = digest.digest(root, config.load_checked(os.environ), os.environ, NOW + 60, "startup")
    assert stats["waiting_learnings"] == []
    named = [e for e in stats["errors"] if path in e]
    assert len(named) == 1 and f"{path}:3" in named[0], stats["errors"]
    assert f"{path}:3" in prepared.describe(stats)


@pytest.mark.parametrize("later", [0.0, 3 * 86400.0])
def test_a_later_learning_of_that_title_is_written_not_taken_for_the_damaged_one(written, later):
    root, mdir, path = written
    before = open(path, "rb").read()
    planned = store.plan({"learnings": [ITEM]}, mdir, paths.learnings_dir(), {**META, "cwd": root}, NOW + later)
    kinds = [a.kind for a in planned.actions]
    assert kinds == [CREATE], planned.actions
    report = store.persist({"learnings": [ITEM]}, mdir, paths.learnings_dir(), {**META, "cwd": root}, NOW + later)
    [new] = [a.path for a in planned.actions]
    assert report is not None and os.path.isfile(new) and new != path
    assert frontmatter.read_frontmatter_values(new, ("title",))["title"] == TITLE
    assert learnings.id_of(new) != learnings.id_of(path)
    assert open(path, "rb").read() == before  # the damaged file is left to the person
    again = store.plan({"learnings": [ITEM]}, mdir, paths.learnings_dir(), {**META, "cwd": root}, NOW + later + 60)
    assert [a.kind for a in again.actions] in ([EXISTS], [SKIP]), again.actions


def test_a_damaged_file_without_an_id_of_the_same_title_is_no_slot_taken(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir, ldir = paths.memory_dir(root), paths.learnings_dir()
    path = ms.write_learning(ldir, TITLE, "proj", NOW, slug="backoff-on-retries")
    _break(path, 'title: "')  # the same title, its closing quote lost
    planned = store.plan({"learnings": [ITEM]}, mdir, ldir, {**META, "cwd": root}, NOW)
    assert [a.kind for a in planned.actions] == [CREATE], planned.actions
    assert planned.actions[0].path != path
