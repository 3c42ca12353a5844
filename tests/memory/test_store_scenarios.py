"""The store over time: a learning restated on a later day, a worker killed between handoff.jsonl and
handoff.md, a handoff.md with a BOM, an entry made again after consolidation hid it."""

import glob
import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import (files, frontmatter, handoff, handoff_answer, handoff_markdown, ids, journal, learnings,
                                 marks, store)
from lazy_harness.recall.readback import digest as recall
from lazy_harness.worker import consolidate as job
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = 1_760_000_000.0
DAY = 86400.0


def meta(session: str, project: str = "proj", when: float = NOW) -> dict:
    return {"project": project, "session_id": session, "task_id": f"t-{session}", "cwd": f"/x/{project}",
            "session_time": when}


@pytest.fixture
def where(tmp_path) -> tuple[str, str, str]:
    """(project folder, its memory folder, the learnings folder)."""
    project = ms.make_project(tmp_path, "proj")
    return project, paths.memory_dir(project), paths.learnings_dir()


def read_bytes(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def status_of(learning: str) -> str | None:
    return frontmatter.read_frontmatter_values(learning, ("status",)).get("status")


def read_md(mdir: str) -> str:
    with open(os.path.join(mdir, files.HANDOFF), encoding="utf-8") as fh:
        return fh.read()


def open_texts(mdir: str) -> list[str]:
    return [i["text"] for i in handoff.open_items(handoff.load(mdir)[0])]


def killed_before_render(monkeypatch):
    """handoff.md is never rendered: the worker dies right after appending to handoff.jsonl."""
    def kill(*args, **kwargs):
        raise KeyboardInterrupt("SIGKILL between the append and the render")
    monkeypatch.setattr(handoff, "write_markdown", kill)


# --- a learning restated later ------------------------------------------------------------------------

def test_a_learning_restated_days_later_keeps_its_one_file(where):
    _, mdir, ldir = where
    other = paths.memory_dir(ms.make_project(os.path.dirname(where[0]), "other"))
    item = {"title": "Rename is the enqueue", "learning": "Write in tmp/, rename into new/."}
    mine = store.persist({"learnings": [item]}, mdir, ldir, meta("s1"), NOW).created[0]
    # the same title from another project on the later day: another learning, another id
    theirs = store.persist({"learnings": [item]}, other, ldir, meta("o1", "other"), NOW + 3 * DAY).created[0]
    for i in range(store.RECENT_TITLES):  # the folder is shared: 50 newer learnings of any project
        store.persist({"learnings": [{"title": f"other learning {i}", "learning": "x"}]}, other, ldir,
                      meta(f"o{i}", "other"), NOW + DAY + i)
    report = store.persist({"learnings": [item]}, mdir, ldir, meta("s2"), NOW + 3 * DAY + 60)
    found = sorted(glob.glob(os.path.join(ldir, "*", "*rename-is-the-enqueue*.md")))
    assert found == sorted([mine, theirs]), found
    assert report.created == [] and report.existing == [mine]
    assert learnings.id_of(mine) == ids.learning_id("proj", item["title"]) != learnings.id_of(theirs)


# --- handoff.md behind handoff.jsonl after a kill -----------------------------------------------------

def test_a_rerun_after_a_kill_renders_handoff_md_but_never_over_a_hand_edit(where, monkeypatch):
    _, mdir, ldir = where
    store.persist({"handoff": ["old item"]}, mdir, ldir, meta("s1"), NOW)
    answer = {"handoff": ["new item one", "new item two"], "handoff_closed": ["old item"]}
    real = handoff.write_markdown
    killed_before_render(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        store.persist(answer, mdir, ldir, meta("s2", when=NOW + 60), NOW + 120)
    monkeypatch.setattr(handoff, "write_markdown", real)
    assert "old item" in read_md(mdir)  # the kill left the old view
    # why: the persist is all or nothing (memory.intent): its records went with it
    assert [r["session_id"] for r in handoff.read_records(mdir)] == ["s1"]
    report = store.persist(answer, mdir, ldir, meta("s2", when=NOW + 60), NOW + 180)  # the restarted worker
    assert report.handoff == "written" and (report.opened, report.closed) == (2, 1)
    assert len(handoff.read_records(mdir)) == 4  # each record once
    text = read_md(mdir)
    assert "new item one" in text and "new item two" in text and "old item" not in text
    assert not handoff_markdown.edited(*handoff_markdown.parse_markdown(text))
    assert [i["text"] for i in handoff.open_for_reading(mdir)] == ["new item one", "new item two"]

    # a log ahead of handoff.md without an undo record (a writer of an older version killed before its
    # render), and the person saves a hand edit of the stale file while the re-run is applying
    state = handoff.fold(handoff.read_records(mdir))
    [one] = [i for i in state.values() if i["text"] == "new item one"]
    handoff.append(mdir, [handoff.record(handoff.CLOSE, one["text"], "s3", "t", NOW + 240)])
    path = os.path.join(mdir, files.HANDOFF)
    edit = read_md(mdir) + "- call the vendor\n"
    changes, calls = handoff.changes, []

    def user_saves(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:  # the first call is the plan's, the second the apply's, after its read
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(edit)
            os.utime(path, (NOW + 400, NOW + 400))
        return changes(*args, **kwargs)
    monkeypatch.setattr(handoff, "changes", user_saves)
    store.persist({"handoff_closed": ["new item one"]}, mdir, ldir, meta("s3", when=NOW + 240), NOW + 420)
    monkeypatch.setattr(handoff, "changes", changes)
    assert len(calls) == 2 and read_md(mdir) == edit  # not imported yet: left as the person saved it
    assert open_texts(mdir) == ["new item two", "call the vendor"]
    store.persist({"decisions": [{"summary": "an answer without handoff items"}]}, mdir, ldir,
                  meta("s4", when=NOW + 500), NOW + 520)
    text = read_md(mdir)
    assert "call the vendor" in text and "new item two" in text and "new item one" not in text
    assert [r["text"] for r in handoff.read_records(mdir) if r["session_id"] == handoff_markdown.HAND_EDIT] == \
        ["call the vendor"]


def test_a_stale_handoff_md_is_rendered_by_the_next_answer_even_without_handoff_items(where, monkeypatch):
    _, mdir, ldir = where
    # a log with no handoff.md (a writer of an older version killed before its render; a persist of this
    # one is rolled back as a whole, tested above)
    os.makedirs(mdir)
    handoff.append(mdir, [handoff.record(handoff.OPEN, "first item", "s1", "t", NOW)])
    assert not os.path.exists(os.path.join(mdir, files.HANDOFF))
    report = store.persist({"failures": [{"summary": "tests hang"}]}, mdir, ldir, meta("s2", when=NOW + 60),
                           NOW + 60)
    assert "first item" in read_md(mdir) and report.handoff == "kept"
    before = os.stat(os.path.join(mdir, files.HANDOFF)).st_mtime_ns
    report = store.persist({"failures": [{"summary": "tests hang again"}]}, mdir, ldir, meta("s3"), NOW + 90)
    assert report.handoff is None  # current: not rendered again
    assert os.stat(os.path.join(mdir, files.HANDOFF)).st_mtime_ns == before


# --- a BOM in front of handoff.md -----------------------------------------------------------------------

def test_a_legacy_handoff_md_with_a_bom_imports_every_item(where):
    _, mdir, ldir = where
    os.makedirs(mdir)
    with open(os.path.join(mdir, files.HANDOFF), "wb") as fh:
        fh.write("\ufeff- first item\n- second item\n".encode())
    os.utime(os.path.join(mdir, files.HANDOFF), (NOW - 10, NOW - 10))
    assert open_texts(mdir) == ["first item", "second item"]
    store.persist({"handoff": ["third item"]}, mdir, ldir, meta("s1"), NOW)
    assert [i["text"] for i in handoff.open_items(handoff.fold(handoff.read_records(mdir)))] == \
        ["first item", "second item", "third item"]
    assert handoff.merge_markdown(mdir, "\ufeff- fourth item\n", NOW + 10, "migration") == 1


# --- an entry made again after consolidation hid it ----------------------------------------------------

def consolidate(mdir: str, ldir: str, *changes: job.Change) -> str:
    """Apply ``changes`` the way a consolidation run does (journalled); returns the run id."""
    j = journal.Journal(mdir, "consolidate", "proj", NOW + 50)
    job.apply(list(changes), job.candidates(mdir, ldir, "proj"), mdir, ldir, NOW + 50, j)
    return j.run


def live(mdir: str, name: str, kind: str) -> list[str]:
    return [r["summary"] for r in recall.live_tail(mdir, name, kind, 10, marks.hidden(mdir))]


@pytest.mark.parametrize("kind, action", [("decision", "supersede"), ("failure", "merge_failures")])
def test_an_entry_made_again_after_consolidation_hid_it_comes_back(where, kind, action):
    project, mdir, ldir = where
    name = files.DECISIONS if kind == "decision" else files.FAILURES
    old, new = "Use Postgres for the ledger", "Use SQLite for the ledger"
    store.persist({kind + "s": [{"summary": old}]}, mdir, ldir, meta("s1"), NOW)
    store.persist({kind + "s": [{"summary": new}]}, mdir, ldir, meta("s2"), NOW + 10)
    a, b = ids.entry_id(kind, old), ids.entry_id(kind, new)
    run = consolidate(mdir, ldir, job.Change(action, a, b, "replaced"))  # a hidden, b kept
    assert a in marks.hidden(mdir) and old not in live(mdir, name, kind)
    lines = read_bytes(os.path.join(mdir, name))

    p = store.plan({kind + "s": [{"summary": old}]}, mdir, ldir, meta("s3"), NOW + 99)
    assert [r[0] for r in p.describe()] == ["restore"]
    report = store.apply(p)
    assert report.restored == [a] and "1 restored" in report.summary()
    assert old in live(mdir, name, kind) and a not in marks.hidden(mdir)
    assert read_bytes(os.path.join(mdir, name)) == lines  # no second line for the same entry
    newest = journal.runs(mdir)[0]
    assert newest["kind"] == "restore" and newest["run"] != run and a in newest["changes"][0]
    hist = invoke("memory", "history", "--project", project)
    assert hist.code == 0 and "restore" in hist.out and a in hist.out
    # re-processing the same task writes nothing more
    assert [r[0] for r in store.plan({kind + "s": [{"summary": old}]}, mdir, ldir, meta("s3"), NOW + 99)
            .describe()] == ["skip"]
    # the restore is a change like any other: undo puts the mark back
    assert invoke("memory", "undo", newest["run"], "--project", project).code == 0
    assert a in marks.hidden(mdir)


def test_an_entry_the_person_forgot_stays_hidden_when_made_again(where):
    project, mdir, ldir = where
    store.persist({"decisions": [{"summary": "Use Postgres for the ledger"}]}, mdir, ldir, meta("s1"), NOW)
    a = ids.entry_id("decision", "Use Postgres for the ledger")
    assert invoke("memory", "forget", a, "--project", project).code == 0
    before = read_bytes(marks.path_of(mdir))
    runs = len(journal.runs(mdir))
    report = store.persist({"decisions": [{"summary": "Use Postgres for the ledger"}]}, mdir, ldir, meta("s2"),
                           NOW + 99)
    assert report.restored == [] and a in marks.hidden(mdir)
    assert read_bytes(marks.path_of(mdir)) == before and len(journal.runs(mdir)) == runs
    assert [why for _, why in report.skipped if a in why and "lh memory forget" in why]


def test_a_deprecated_learning_restated_is_active_again_and_a_forgotten_one_is_not(where):
    project, mdir, ldir = where
    titles = ["Rename is the enqueue", "Link then rename is the enqueue", "Forget this one"]
    made = store.persist({"learnings": [{"title": t, "learning": "x"} for t in titles]}, mdir, ldir, meta("s1"),
                         NOW).created
    lid, by, gone = (ids.learning_id("proj", t) for t in titles)
    consolidate(mdir, ldir, job.Change("deprecate_learnings", lid, by, "superseded"))
    assert invoke("memory", "forget", gone, "--project", project).code == 0
    assert (status_of(made[0]), status_of(made[2])) == ("deprecated", "forgotten")
    report = store.persist({"learnings": [{"title": titles[0], "learning": "x"},
                                          {"title": titles[2], "learning": "x"}]}, mdir, ldir, meta("s2"),
                           NOW + 5 * DAY)
    assert report.created == [] and report.restored == [lid]
    assert (status_of(made[0]), status_of(made[2])) == ("active", "forgotten")
    assert [why for _, why in report.skipped if gone in why and "lh memory forget" in why]
    restores = [r for r in journal.runs(mdir) if r["kind"] == "restore"]
    assert len(restores) == 1 and lid in restores[0]["changes"][0]
    with open(made[0], encoding="utf-8") as fh:
        assert "## Learning\n\nx\n" in fh.read()  # the body stays
    assert len(glob.glob(os.path.join(ldir, "*", "*.md"))) == 3


def test_every_kind_of_list_line_added_to_handoff_md_by_hand_opens_an_item(tmp_path):
    mdir = str(tmp_path / "mem")
    os.makedirs(mdir)
    meta = {"session_id": "s1", "task_id": "t1"}
    handoff_answer.apply_answer(mdir, ["from the session"], [], meta, 1_700_000_000, 1_700_000_000)
    path = os.path.join(mdir, files.HANDOFF)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("1. numbered item\n2) other numbered item\n+ plus item\n* star item\n")
    handoff.close_items(mdir, [(ids.handoff_id("star item"), "done")], meta, 1_700_000_100)
    texts = [i["text"] for i in handoff.open_items(handoff.load(mdir)[0])]
    assert texts == ["from the session", "numbered item", "other numbered item", "plus item"]
    rendered = open(path, encoding="utf-8").read()
    assert "numbered item" in rendered and "plus item" in rendered and "star item" not in rendered


def test_consolidation_does_not_hide_again_what_a_session_made_again_after_the_entry_that_replaced_it(where):
    project, mdir, ldir = where
    old, new, later = "Use Postgres for the ledger", "Use SQLite for the ledger", "Use DuckDB for the ledger"
    store.persist({"decisions": [{"summary": old}]}, mdir, ldir, meta("s1", when=NOW), NOW)
    store.persist({"decisions": [{"summary": new}]}, mdir, ldir, meta("s2", when=NOW + 10), NOW + 10)
    a, b, c = (ids.entry_id("decision", s) for s in (old, new, later))
    consolidate(mdir, ldir, job.Change("supersede", a, b, "replaced"))
    store.persist({"decisions": [{"summary": old}]}, mdir, ldir, meta("s3", when=NOW + 99), NOW + 99)  # back
    assert a not in marks.hidden(mdir)
    answer = {"supersede": [{"old": a, "new": b, "reason": "b is newer"}]}
    changes, problems = job.validate(answer, job.candidates(mdir, ldir, "proj"), 10)
    assert changes == [] and [p for p in problems if "made again" in p]
    store.persist({"decisions": [{"summary": later}]}, mdir, ldir, meta("s4", when=NOW + 200), NOW + 200)
    answer = {"supersede": [{"old": a, "new": c, "reason": "c came after"}]}
    changes, problems = job.validate(answer, job.candidates(mdir, ldir, "proj"), 10)
    assert [(ch.action, ch.target, ch.other) for ch in changes] == [("supersede", a, c)], problems


# --- a hand edit of handoff.md around a persist -------------------------------------------------------

def _killed_after_the_render(monkeypatch):
    """The persist dies after handoff.md is written and before it counts as done, and nothing rolls it
    back then (SIGKILL): its undo record is left for the next writer."""
    from lazy_harness.memory import apply as applying
    from lazy_harness.memory import intent

    def kill(*args, **kwargs):
        raise KeyboardInterrupt("SIGKILL after the render")
    monkeypatch.setattr(applying, "_apply_restores", kill)
    monkeypatch.setattr(intent.Intent, "rollback", lambda self, env=None: [])


@pytest.mark.parametrize("first", [True, False], ids=["handoff-md-before", "no-handoff-md-before"])
def test_recovery_after_a_kill_never_writes_over_a_hand_edit_saved_since(where, monkeypatch, first):
    from lazy_harness.memory import intent

    _, mdir, ldir = where
    if first:
        store.persist({"handoff": ["item A"]}, mdir, ldir, meta("s1"), NOW)
    with monkeypatch.context() as m:
        _killed_after_the_render(m)
        with pytest.raises(KeyboardInterrupt):
            store.persist({"handoff": ["item B"]}, mdir, ldir, meta("s2", when=NOW + 60), NOW + 120)
    path = os.path.join(mdir, files.HANDOFF)
    with open(path, "a", encoding="utf-8") as fh:  # the person, before any writer ran again
        fh.write("- my own item C\n")
    assert "my own item C" in open_texts(mdir)
    assert intent.recover(mdir) and "my own item C" in read_md(mdir)
    assert "my own item C" in open_texts(mdir)
    store.persist({"decisions": [{"summary": "the next answer"}]}, mdir, ldir, meta("s3", when=NOW + 200), NOW + 220)
    assert "my own item C" in open_texts(mdir) and "my own item C" in read_md(mdir)


def test_recovery_after_a_kill_puts_back_handoff_md_the_persist_wrote(where, monkeypatch):
    """No hand edit since: the rolled-back persist's handoff.md goes, the one before comes back."""
    from lazy_harness.memory import intent

    _, mdir, ldir = where
    store.persist({"handoff": ["item A"]}, mdir, ldir, meta("s1"), NOW)
    before = read_md(mdir)
    with monkeypatch.context() as m:
        _killed_after_the_render(m)
        with pytest.raises(KeyboardInterrupt):
            store.persist({"handoff": ["item B"]}, mdir, ldir, meta("s2", when=NOW + 60), NOW + 120)
    assert "item B" in read_md(mdir)
    intent.recover(mdir)
    assert read_md(mdir) == before and open_texts(mdir) == ["item A"]


def test_a_hand_edit_saved_while_a_persist_writes_is_kept(where, monkeypatch):
    """The person saves handoff.md after the persist read it and before it renders it again (its
    learnings take a while): the render comes after the edit is recorded, so the edit stays."""
    _, mdir, ldir = where
    store.persist({"handoff": ["item A"]}, mdir, ldir, meta("s1"), NOW)
    path = os.path.join(mdir, files.HANDOFF)
    real = learnings.write_learning

    def slow(*args, **kwargs):
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("- my own item C\n")
        return real(*args, **kwargs)
    monkeypatch.setattr(learnings, "write_learning", slow)
    report = store.persist({"handoff": ["item B"], "learnings": [{"title": "Slow one", "learning": "x"}]},
                           mdir, ldir, meta("s2", when=NOW + 60), NOW + 120)
    assert report.handoff == "written" and report.hand_opened == 1
    assert open_texts(mdir) == ["item A", "item B", "my own item C"]
    assert "my own item C" in read_md(mdir)
    assert not handoff_markdown.edited(*handoff_markdown.parse_markdown(read_md(mdir)))
