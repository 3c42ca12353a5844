"""A new text of a learning's title (ADR 0063) met by the person and by later sessions: a held new text
the person approves replaces the older text as the persist would have (one undoable run), and a
session that writes a replaced text again adds nothing."""

import os

import pytest

from lazy_harness.memory import held, journal
from tests.cli.lhrun import invoke
from tests.memory.test_learning_new_text import DAY, NEW, NOW, OLD, World, _start
from tests.support import memory_samples as ms


@pytest.fixture
def w(tmp_path) -> World:
    world = World(ms.make_project(tmp_path, "proj"))
    os.makedirs(world.mdir, exist_ok=True)
    return world


def _held_rewrite(w: World) -> tuple[str, str]:
    """The old text, then a new one the check holds (what the worker's check does after the persist)."""
    w.distil("s1", OLD)
    [old] = w.files()
    w.distil("s2", NEW, NOW + DAY)
    [new] = [i for i in w.files() if i != old]
    held.hold(w.mdir, w.ldir, [("learning", new, w.files()[new]["path"], "judged by the model check")], "proj",
              NOW + DAY + 1, "written by the worker")
    assert [v["text"].count("NUMERIC(14,4)") for v in w.shown()] == [1]  # the old text, shown again
    return old, new


def test_approving_a_held_new_text_replaces_the_old_one(w: World):
    old, new = _held_rewrite(w)
    r = invoke("memory", "approve", new, "--project", w.root)
    assert r.code == 0, r.err
    files = w.files()
    assert files[new]["status"] == "active"
    assert files[old]["status"] == "deprecated" and files[old]["by"] == new
    start = _start(w)
    assert "NUMERIC(19,6)" in start and "four decimals" not in start


def test_undoing_the_approval_shows_the_old_text_alone_again(w: World):
    old, new = _held_rewrite(w)
    assert invoke("memory", "approve", new, "--project", w.root).code == 0
    [run] = [r for r in journal.runs(w.mdir) if r["kind"] == "approve"]
    assert invoke("memory", "undo", run["run"], "--project", w.root).code == 0
    files = w.files()
    assert files[new]["status"] == "held" and files[old]["status"] == "active"


def test_forgetting_the_approved_new_text_gives_the_old_one_back_with_its_approval(w: World):
    from tests.memory.test_learning_new_text import _status_fields

    w.distil("s1", OLD)
    [old] = w.files()
    path = w.files()[old]["path"]
    held.hold(w.mdir, w.ldir, [("learning", old, path, "judged by the model check")], "proj", NOW + 1, "worker")
    assert invoke("memory", "approve", old, "--project", w.root).code == 0
    approved = _status_fields(path)
    w.distil("s2", NEW, NOW + DAY)
    [new] = [i for i in w.files() if i != old]
    held.hold(w.mdir, w.ldir, [("learning", new, w.files()[new]["path"], "judged by the model check")], "proj",
              NOW + DAY + 1, "written by the worker")
    assert invoke("memory", "approve", new, "--project", w.root).code == 0
    assert w.files()[old]["status"] == "deprecated"
    assert invoke("memory", "forget", new, "--project", w.root).code == 0
    assert _status_fields(path) == approved


def test_a_session_restating_a_replaced_text_adds_nothing(w: World):
    w.distil("s1", OLD)
    [old] = w.files()
    w.distil("s2", NEW, NOW + DAY)
    report = w.distil("s3", OLD, NOW + 2 * DAY)  # a later session goes back to the first text, word for word
    assert report.created == [] and report.restored == [] and report.rewritten == []
    assert len(w.files()) == 2
    assert w.files()[old]["status"] == "deprecated"
    start = _start(w)
    assert "NUMERIC(19,6)" in start and "four decimals" not in start


def test_sessions_going_back_and_forth_leave_two_files(w: World):
    """Two sessions that each hold their own text (a stale note read again, say) take turns: the first
    rewrite stands and no file piles up."""
    w.distil("s1", OLD)
    w.distil("s2", NEW, NOW + DAY)
    for n in range(3, 7):
        w.distil(f"s{n}", OLD if n % 2 else NEW, NOW + n * DAY)
    assert len(w.files()) == 2
    assert [v["text"].count("NUMERIC(19,6)") for v in w.shown()] == [1]


@pytest.mark.parametrize("spelling", ["orders-table", "Orders table", "orders_table", "ORDERS TABLE."])
def test_a_title_spelt_otherwise_is_the_same_title(w: World, spelling: str):
    """Case, spaces and punctuation between the words do not make another title for the rewrite rule;
    each file keeps the name its title gave it."""
    w.distil("s1", OLD, title="Orders table")
    [old] = w.files()
    report = w.distil("s2", NEW, NOW + DAY, title=spelling)
    assert len(report.created) == 1 and report.rewritten == [old]
    assert w.distil("s3", NEW, NOW + 2 * DAY, title="orders  table").created == []
    shown = [v for v in _all(w) if v[1] == "active"]
    assert [t.count("NUMERIC(19,6)") for _, _, t in shown] == [1]


def _all(w: World) -> list[tuple[str, str, str]]:
    """(file name, status, text) of every learning file."""
    from lazy_harness.memory import frontmatter, learnings

    out = []
    for found in learnings.names_by_slug(w.ldir).values():
        for path in found:
            with open(path, encoding="utf-8") as fh:
                out.append((os.path.basename(path), frontmatter.read_frontmatter_values(path, ("status",))["status"],
                            fh.read()))
    return sorted(out)


def test_approving_a_waiting_text_after_the_person_undid_its_rewrite_keeps_both(w: World):
    """A general learning waits for approval to cross projects (not held): the person who undid its
    rewrite (both texts shown, their choice) and then lets it cross keeps both texts."""
    from lazy_harness.memory import by_hand, state, store

    def general(session: str, text: str, at: float):
        answer = {"learnings": [{"title": "Money columns in the orders table", "learning": text, "context": "c",
                                 "scope": "general", "tags": ["money"]}]}
        return store.persist(answer, w.mdir, w.ldir, w.meta(session), at)

    general("s1", OLD, NOW)
    general("s2", NEW, NOW + DAY)
    [run] = [r for r in journal.runs(w.mdir) if r["kind"] == "rewrite"]
    journal.undo(w.mdir, (w.mdir, w.ldir), run["run"])
    assert len(w.shown()) == 2
    [new] = [i for i, v in w.files().items() if "NUMERIC(19,6)" in v["text"]]
    by_hand.approve(w.mdir, w.ldir, "proj", [new], "approved by hand", NOW + DAY + 60, cross=state.ASK)
    assert len(w.shown()) == 2


LATER = "Amounts are stored as NUMERIC(19,6) and rounded half-even at invoice time."


def _held_then_corrected(w: World) -> tuple[str, str, str]:
    """The old text, a new one the check holds, then a later session's correction of the title (it
    replaces the text shown, the old one): the held text is older than the one now shown."""
    old, new = _held_rewrite(w)
    w.distil("s3", LATER, NOW + 2 * DAY)
    [later] = [i for i in w.files() if i not in (old, new)]
    files = w.files()
    assert files[old]["status"] == "deprecated" and files[old]["by"] == later
    assert files[new]["status"] == "held" and files[later]["status"] == "active"
    return old, new, later


def test_approving_a_held_text_older_than_a_correction_keeps_the_correction_alone_shown(w: World):
    old, new, later = _held_then_corrected(w)
    r = invoke("memory", "approve", new, "--project", w.root)
    assert r.code == 0, r.err
    files = w.files()
    assert [v["path"] for v in w.shown()] == [files[later]["path"]]
    assert files[new]["status"] == "deprecated" and files[new]["by"] == later
    assert files[old]["status"] == "deprecated" and files[old]["by"] == later  # as the correction left it
    start = _start(w)
    assert "half-even" in start and "crypto payouts" not in start and "four decimals" not in start
    assert "approved" in r.out and later in r.out  # the person is told the approved text is not the one shown


def test_the_approved_older_text_comes_back_approved_when_the_correction_is_forgotten(w: World):
    from tests.memory.test_learning_new_text import _status_fields

    old, new, later = _held_then_corrected(w)
    assert invoke("memory", "approve", new, "--project", w.root).code == 0
    assert invoke("memory", "forget", later, "--project", w.root).code == 0
    files = w.files()
    assert files[new]["status"] == "active" and "approved by hand" in str(_status_fields(files[new]["path"]))
    assert "crypto payouts" in _start(w)


def test_undoing_that_approval_holds_the_text_again(w: World):
    old, new, later = _held_then_corrected(w)
    assert invoke("memory", "approve", new, "--project", w.root).code == 0
    [run] = [r for r in journal.runs(w.mdir) if r["kind"] == "approve"]
    assert invoke("memory", "undo", run["run"], "--project", w.root).code == 0
    files = w.files()
    assert files[new]["status"] == "held" and files[later]["status"] == "active"
