"""memory/usage_log.py's tally after review r4 (ADR 0036): a use counts only with its session's showing
(a reset in between drops both), a session's characters injected add up across memory folders, and an
entry the audit cannot measure is kept out of the never-used rank and lists."""

from lazy_harness.memory import usage, usage_log

E, M = "f-0000000e", "d-0000000d"


def _mdir(tmp_path, name: str = "mem") -> str:
    d = tmp_path / name
    d.mkdir()
    return str(d)


def _lines(mdir: str, *records: tuple[str, float, dict]) -> None:
    usage_log.append(mdir, [usage_log.line(op, when, **fields) for op, when, fields in records])


def test_a_reset_while_a_session_runs_drops_its_later_use_with_its_showing(isolated_home, tmp_path):
    mdir = _mdir(tmp_path)
    _lines(mdir, ("shown", 100.0, {"session": "a", "id": E, "chars": 100}),
           ("reset", 150.0, {"id": E}),  # lh memory usage --reset while session a runs
           ("used", 200.0, {"session": "a", "id": E, "evidence": "echo hi"}),
           ("recurred", 210.0, {"session": "a", "id": E}))
    row = usage_log.tally(usage_log.read(mdir)).entries.get(E)
    assert row is None or (len(row.shown), len(row.used), len(row.recurred)) == (0, 0, 0)
    _lines(mdir, ("shown", 300.0, {"session": "b", "id": E, "chars": 100}),
           ("used", 310.0, {"session": "b", "id": E, "evidence": "echo hi"}))
    t = usage_log.refresh_ranks(None, mdir)
    assert (len(t.entries[E].shown), len(t.entries[E].used)) == (1, 1)
    assert usage.load_ranks(None, mdir, 1).get(E) == usage.USED
    assert t.totals()["used"] <= t.totals()["shown"]


def test_a_use_whose_showing_came_before_the_reset_leaves_last_used_empty(isolated_home, tmp_path):
    mdir = _mdir(tmp_path)
    _lines(mdir, ("shown", 100.0, {"session": "a", "id": E, "chars": 100}), ("reset", 150.0, {"id": E}),
           ("used", 200.0, {"session": "a", "id": E, "evidence": "echo hi"}))
    t = usage_log.refresh_ranks(None, mdir)
    assert usage.load_ranks(None, mdir, 1).get(E) != usage.USED
    assert all(e.public()["last_used"] is None for e in t.entries.values())


def test_one_sessions_characters_injected_add_up_across_memory_folders(isolated_home, tmp_path):
    a, b = _mdir(tmp_path, "a"), _mdir(tmp_path, "b")
    _lines(a, ("session", 100.0, {"session": "s", "chars": 1144}),
           ("shown", 100.0, {"session": "s", "id": E, "chars": 9}))
    _lines(b, ("session", 120.0, {"session": "s", "chars": 570}),
           ("shown", 120.0, {"session": "s", "id": M, "chars": 9}))
    ta, tb = usage_log.tally(usage_log.read(a)).totals(), usage_log.tally(usage_log.read(b)).totals()
    both = usage_log.tally(usage_log.read(a) + usage_log.read(b)).totals()
    assert both["injected_chars"] == ta["injected_chars"] + tb["injected_chars"] == 1714
    assert both["sessions"] == 1  # one session, shown entries of two folders


def test_a_session_distilled_again_in_one_folder_keeps_its_larger_count(isolated_home, tmp_path):
    a = _mdir(tmp_path)
    _lines(a, ("session", 100.0, {"session": "s", "chars": 500}), ("session", 100.0, {"session": "s", "chars": 800}))
    assert usage_log.tally(usage_log.read(a)).totals()["injected_chars"] == 800


def _five_sessions(mdir: str, eid: str, **flag: object) -> None:
    for k in range(5):
        _lines(mdir, ("shown", 100.0 + k, {"session": f"s{k}", "id": eid, "chars": 400, **flag}))


def test_an_entry_the_audit_cannot_measure_is_never_ranked_or_listed_unused(isolated_home, tmp_path):
    mdir = _mdir(tmp_path)
    _five_sessions(mdir, M, measurable=False)
    _five_sessions(mdir, E)
    t = usage_log.refresh_ranks(None, mdir)
    ranks = usage.load_ranks(None, mdir, 5)
    assert ranks.get(M) == usage.PEER and ranks.get(E) == usage.UNUSED
    assert [e.id for e in t.never_used()] == [E]
    assert [e.id for e in t.costly()] == [E]
    rows = {r["id"]: r for r in t.report()["entries"]}
    assert rows[M]["measurable"] is False and "measurable" not in rows[E]
    assert rows[M]["shown"] == 5 and rows[M]["used"] == 0


def test_an_entry_rewritten_with_a_mark_is_measured_again_from_its_next_showing(isolated_home, tmp_path):
    mdir = _mdir(tmp_path)
    _five_sessions(mdir, M, measurable=False)
    _lines(mdir, ("shown", 200.0, {"session": "later", "id": M, "chars": 400}))
    t = usage_log.refresh_ranks(None, mdir)
    assert t.entries[M].measurable and usage.load_ranks(None, mdir, 5).get(M) == usage.UNUSED
