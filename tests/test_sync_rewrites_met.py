"""Two machines that each rewrote one learning's title (ADR 0063) meet in a sync round: the round
settles the title where the texts meet, before any session of either machine, so the very next session
start shows one text. The settling is the rule the persist uses (the newest text stands), one journalled
``rewrite`` run, and ``lh memory undo`` of it shows both texts again, which the next round leaves so.
Real git, two machine homes, one bare remote."""

from lazy_harness import paths
from lazy_harness.memory import journal
from tests.memory.test_rewrite_two_machines import DAY, NEW_A, NEW_B, NOW, OLD, _distil, _shown, _two


def _met(tmp_path):
    a, b = _two(tmp_path)
    _distil(a, "s1", NOW, OLD)
    a.sync()
    b.sync()
    _distil(a, "s2", NOW + DAY, NEW_A)
    _distil(b, "s3", NOW + DAY + 60, NEW_B)  # b's the later text, written before a's reached it
    a.sync()  # a's text goes out
    return a, b


def _settling(m) -> list[dict]:
    runs = journal.runs(str(m.mdir))
    return [r for r in runs if r["kind"] == "rewrite" and "met" in " ".join(r.get("changes") or [])]


def test_the_round_where_the_texts_meet_leaves_one_shown(tmp_path):
    a, b = _met(tmp_path)
    b.sync()  # a's text meets b's here: no session has run on b since
    assert _shown(b) == [NEW_B]
    [run] = _settling(b)
    assert run["project"] == "demo"  # the project's name, as its sessions' runs carry it
    a.sync()  # and b's reaches a
    assert _shown(a) == [NEW_B]
    for m in (a, b):
        m.no_conflict_markers()


def test_undoing_the_rounds_settling_shows_both_and_the_next_round_leaves_them(tmp_path):
    a, b = _met(tmp_path)
    b.sync()
    [run] = _settling(b)
    journal.undo(str(b.mdir), (str(b.mdir), paths.learnings_dir(None, b.env)), run["run"])
    assert sorted(_shown(b)) == sorted([NEW_A, NEW_B])
    b.sync()
    assert sorted(_shown(b)) == sorted([NEW_A, NEW_B])
    assert len(_settling(b)) == 1
