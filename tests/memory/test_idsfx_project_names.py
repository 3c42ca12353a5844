"""One project (one memory key) whose folder has a different name on each machine: a learning the other
machine wrote under its folder's name, brought by sync, is the learning this machine restates, not a
new one (ADR 0043, amendment); the same learning written on two days is one learning in the digest,
and ``lh memory forget`` tells why it refuses its id."""

import os

import pytest

from lazy_harness import paths
from lazy_harness.errors import LhError
from lazy_harness.memory import by_hand, ids, learnings, store
from lazy_harness.memory.plan import CREATE, EXISTS, SKIP
from lazy_harness.recall.readback.learnings import rank_learnings, read_head

NOW = 1_760_000_000.0
DAY = 86400.0
ITEM = {"title": "Use tmp then rename", "learning": "rename is atomic.", "context": "c", "scope": "project"}


def _meta(project: str, key: str) -> dict:
    return {"project": project, "session_id": "s-" + project, "task_id": "t1", "cwd": "/x/" + project,
            "project_folder": key}


@pytest.fixture
def where(tmp_path, isolated_home) -> tuple[str, str, str]:
    project = tmp_path / "app"
    project.mkdir()
    mdir = paths.memory_dir(str(project))
    os.makedirs(mdir)
    return mdir, paths.learnings_dir(), os.path.basename(mdir)


def _learning_files(ldir: str) -> list[str]:
    return sorted(os.path.join(dp, n) for dp, _, names in os.walk(ldir) for n in names if n.endswith(".md"))


def test_a_learning_written_under_the_other_machines_folder_name_is_not_written_again(where):
    mdir, ldir, key = where
    theirs, written = learnings.write_learning(ldir, dict(ITEM), _meta("app", key), NOW)
    assert written
    p = store.plan({"learnings": [dict(ITEM, learning="fsync the dir too.")]}, mdir, ldir, _meta("app-bob", key),
                   NOW + 60)
    # a recent learning of this title (SKIP) or its file on another day (EXISTS): nothing to create
    assert [a.kind for a in p.actions] in ([EXISTS], [SKIP]) and theirs in str(p.actions) or \
        "a recent learning has this title" in str(p.actions), p.actions
    store.persist({"learnings": [dict(ITEM)]}, mdir, ldir, _meta("app-bob", key), NOW + DAY)
    assert _learning_files(ldir) == [theirs]


def test_the_same_title_of_another_project_is_still_a_learning_of_its_own(where):
    mdir, ldir, key = where
    learnings.write_learning(ldir, dict(ITEM), _meta("app", "-elsewhere-app"), NOW)
    p = store.plan({"learnings": [dict(ITEM)]}, mdir, ldir, _meta("app-bob", key), NOW + 60)
    assert [a.kind for a in p.actions] == [CREATE], p.actions


def _two_days(ldir: str, key: str) -> tuple[str, str]:
    older, _ = learnings.write_learning(ldir, dict(ITEM, learning="A: rename is atomic."), _meta("app", key), NOW)
    newer = learnings.learning_path(ldir, ITEM["title"], NOW + DAY)
    os.makedirs(os.path.dirname(newer), exist_ok=True)
    with open(newer, "w", encoding="utf-8") as fh:  # what the other machine wrote the next day, brought by sync
        fh.write(learnings.render(dict(ITEM, learning="B: fsync the dir too."), _meta("app", key), NOW + DAY))
    assert learnings.id_of(older) == learnings.id_of(newer)
    return older, newer


def test_one_learning_written_on_two_days_is_shown_once_the_newer(where):
    _, ldir, key = where
    older, newer = _two_days(ldir, key)
    heads = [read_head(p) for p in (newer, older)]  # newest first, as the digest lists them
    shown = rank_learnings([h for h in heads if h], "app", None, 10, key)
    assert [h["path"] for h in shown] == [newer]


def test_forget_of_one_learning_written_on_two_days_says_so_and_names_both_files(where):
    mdir, ldir, key = where
    older, newer = _two_days(ldir, key)
    lid = ids.learning_id("app", ITEM["title"])
    with pytest.raises(LhError) as err:
        by_hand.forget(mdir, ldir, "app", lid, "r", NOW + 2 * DAY)
    said = str(err.value) + " " + str(err.value.hint)
    assert "written before ids were checked" not in said
    assert "same title" in said and older in said and newer in said
    assert f"id: {lid}0" in said
    with open(older, encoding="utf-8") as fh:
        text = fh.read()
    with open(older, "w", encoding="utf-8") as fh:  # what the hint says to do
        fh.write(text.replace(f"id: {lid}\n", f"id: {lid}0\n", 1))
    assert by_hand.forget(mdir, ldir, "app", lid, "r", NOW + 2 * DAY)
    assert "status: forgotten" in open(newer, encoding="utf-8").read()
    assert "status: active" in open(older, encoding="utf-8").read()
