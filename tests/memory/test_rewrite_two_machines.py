"""A learning rewritten under its title (ADR 0063) on two machines that sync one data folder. Each
machine's session rewrites the same title with its own text before seeing the other's: the merge keeps
one deprecation of the old text and both new texts active. The next persist on either machine settles
the title (the newest text stands, the other deprecated by it, a ``rewrite`` run), and a person who
undoes that settling keeps both. Real git, two machine homes, one bare remote."""

import glob
import time

from lazy_harness import paths
from lazy_harness.memory import frontmatter, journal, store
from tests.test_sync import KEY, Machine, _git

NOW = time.time()
DAY = 86400.0
TITLE = "Money columns in the orders table"
OLD = "Amounts are stored as NUMERIC(14,4); four decimals are enough for every currency we bill."
NEW_A = "Amounts are stored as NUMERIC(19,6); NUMERIC(14,4) overflowed on crypto payouts in March."
NEW_B = "Amounts are stored as integer cents; NUMERIC made the exports slow."


def _two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    a.mdir.mkdir(parents=True)
    b.mdir.mkdir(parents=True)
    return a, b


def _distil(m: Machine, session: str, at: float, text: str = "", title: str = TITLE):
    answer = {"learnings": [{"title": title, "learning": text, "context": f"seen in {session}",
                             "scope": "project", "tags": ["money"]}]} if text else {}
    meta = {"project": "demo", "session_id": session, "task_id": f"t-{session}", "cwd": "/work/demo",
            "project_folder": KEY}
    return store.persist(answer, str(m.mdir), paths.learnings_dir(None, m.env), meta, at, m.env)


def _shown(m: Machine) -> list[str]:
    """The learning text of each active file of the title on machine ``m``."""
    out = []
    for path in sorted(glob.glob(paths.learnings_dir(None, m.env) + "/*/*.md")):
        head = frontmatter.read_frontmatter_values(path, ("title", "status"))
        if head.get("title") == TITLE and (head.get("status") or "active") == "active":
            with open(path, encoding="utf-8") as fh:
                out.append(fh.read().split("## Learning")[1].split("## Context")[0].strip())
    return out


def _rounds(a: Machine, b: Machine) -> None:
    a.sync()
    b.sync()
    a.sync()
    for m in (a, b):
        m.no_conflict_markers()


def _split(tmp_path) -> tuple[Machine, Machine]:
    a, b = _two(tmp_path)
    _distil(a, "s1", NOW, OLD)
    a.sync()
    b.sync()
    assert _shown(b) == [OLD]
    _distil(a, "s2", NOW + DAY, NEW_A)
    _distil(b, "s3", NOW + DAY + 60, NEW_B)  # b's the later text, written before a's reached it
    _rounds(a, b)
    return a, b


def test_both_machines_rewrite_the_title_and_each_shows_one_text(tmp_path):
    a, b = _split(tmp_path)
    # the rounds settled the title where the texts met (sync/after_merge.py): the next persist has nothing to do
    for m in (a, b):
        assert _shown(m) == [NEW_B]
    report = _distil(a, "s4", NOW + 2 * DAY, "Invoices are numbered per year.", title="Invoice numbers")
    assert report.rewritten == []
    # a's rewrite, b's (synced) and a's settling, a run the person can undo
    assert len([r for r in journal.runs(str(a.mdir)) if r["kind"] == "rewrite"]) >= 3
    _rounds(a, b)
    assert _shown(b) == [NEW_B]
    assert _distil(b, "s5", NOW + 3 * DAY).rewritten == []


def test_undoing_the_settling_keeps_both_texts(tmp_path):
    a, b = _split(tmp_path)
    [settling] = [r for r in journal.runs(str(a.mdir)) if r["kind"] == "rewrite" and r["files"]
                  and "met" in " ".join(r["changes"])]
    journal.undo(str(a.mdir), (str(a.mdir), paths.learnings_dir(None, a.env)), settling["run"])
    assert sorted(_shown(a)) == sorted([NEW_A, NEW_B])
    # the person's undo stands against the next persist
    assert _distil(a, "s5", NOW + 3 * DAY, "Refunds go through the ledger.", title="Refunds").rewritten == []
    assert sorted(_shown(a)) == sorted([NEW_A, NEW_B])


def test_one_machine_rewrites_while_the_other_restates_the_old_text(tmp_path):
    a, b = _two(tmp_path)
    _distil(a, "s1", NOW, OLD)
    _rounds(a, b)
    _distil(a, "s2", NOW + DAY, NEW_A)
    assert _distil(b, "s3", NOW + DAY + 60, OLD).created == []  # b has not seen the new text yet: no news
    _rounds(a, b)
    for m in (a, b):
        assert _shown(m) == [NEW_A]
    assert _distil(b, "s4", NOW + 2 * DAY).rewritten == []


def _zone(monkeypatch, tz: str) -> None:
    monkeypatch.setenv("TZ", tz)
    time.tzset()


def test_the_text_written_last_stands_whatever_the_machines_time_zones(tmp_path, monkeypatch):
    """a writes its text an hour after b, but a's clock is at UTC-10 and b's at UTC+14: b's stamp reads
    later as text ("...T10:00+14:00" against "...T21:00-10:00" of the day before)."""
    a, b = _two(tmp_path)
    _distil(a, "s1", NOW, OLD)
    _rounds(a, b)
    try:
        _zone(monkeypatch, "UTC+10")  # POSIX sign: ten hours behind UTC
        _distil(a, "s2", NOW + DAY + 3600, NEW_A)
        _zone(monkeypatch, "UTC-14")  # fourteen hours ahead of UTC
        _distil(b, "s3", NOW + DAY, NEW_B)
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    _rounds(a, b)
    _distil(a, "s4", NOW + 2 * DAY)
    assert _shown(a) == [NEW_A]


def test_a_machine_that_rewrote_twice_meets_the_other_machines_rewrite(tmp_path):
    a, b = _two(tmp_path)
    _distil(a, "s1", NOW, OLD)
    _rounds(a, b)
    _distil(b, "s3", NOW + DAY, NEW_B)
    _distil(a, "s2", NOW + DAY + 60, NEW_A)
    third = "Amounts are stored as NUMERIC(19,6), rounded half-even at invoice time."
    _distil(a, "s5", NOW + DAY + 120, third)  # a's second rewrite, of its own text
    _rounds(a, b)
    _distil(b, "s6", NOW + 2 * DAY)
    assert _shown(b) == [third]
