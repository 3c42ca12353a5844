"""memory/usage_log.py after review r3 (ADR 0036): a hand-save without a final newline glues no two
records, a damaged line is salvaged and named like the other memory files, and a merged entry's
usage counts for the entry it was merged into."""

import json
import os

from lazy_harness.memory import lines, marks, usage, usage_log
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

F_OLD, F_KEPT, F_OTHER = "f-0000000a", "f-0000000b", "f-0000000c"


def _mdir(tmp_path) -> str:
    d = tmp_path / "mem"
    d.mkdir()
    return str(d)


def _lines(mdir: str, *records: tuple[str, float, dict]) -> None:
    usage_log.append(mdir, [usage_log.line(op, when, **fields) for op, when, fields in records])


def test_a_hand_save_without_the_final_newline_glues_no_two_records(isolated_home, tmp_path):
    mdir = _mdir(tmp_path)
    _lines(mdir, ("session", 10.0, {"session": "a", "chars": 500}),
           ("shown", 10.0, {"session": "a", "id": "d-00000002", "chars": 100}))
    path = usage_log.path_of(mdir)
    with open(path, "rb") as fh:
        data = fh.read()
    with open(path, "wb") as fh:  # an editor saved it without its last newline
        fh.write(data.rstrip(b"\n"))
    _lines(mdir, ("used", 11.0, {"session": "a", "id": "d-00000002", "evidence": "x"}),
           ("session", 20.0, {"session": "b", "chars": 300}))
    with open(path, encoding="utf-8") as fh:
        raw = fh.read().splitlines()
    assert len(raw) == 4 and all(isinstance(json.loads(line), dict) for line in raw), raw
    assert [r["op"] for r in usage_log.read(mdir)] == ["session", "shown", "used", "session"]


def test_a_damaged_line_is_salvaged_or_skipped_and_the_file_noted(isolated_home, tmp_path):
    mdir = _mdir(tmp_path)
    a = json.dumps(usage_log.line("shown", 10.0, session="a", id="d-00000002", chars=100))
    b = json.dumps(usage_log.line("used", 11.0, session="a", id="d-00000002", evidence="x"))
    c = json.dumps(usage_log.line("session", 20.0, session="b", chars=300))
    with open(usage_log.path_of(mdir), "w", encoding="utf-8") as fh:
        fh.write(a + "\n" + '{"ts": "1970-01-01T00:00:10+00:00", "op": "sho' + "\n" + b + c + "\n")
    lines.NOTED.clear()
    got = usage_log.read(mdir)
    assert [r["op"] for r in got] == ["shown", "used", "session"]  # the glued pair salvaged, the torn one not
    assert usage_log.path_of(mdir) in lines.NOTED
    lines.NOTED.clear()


def test_lh_memory_check_names_a_damaged_usage_line(isolated_home, tmp_path, monkeypatch):
    """Passes once memory/damage.py lists usage.jsonl among the memory files (its KINDS)."""
    from lazy_harness import paths

    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    mdir = paths.memory_dir(project)
    os.makedirs(mdir, exist_ok=True)
    good = json.dumps(usage_log.line("session", 20.0, session="b", chars=300))
    with open(usage_log.path_of(mdir), "w", encoding="utf-8") as fh:
        fh.write(good + "\n" + '{"ts": "1970-01-01T00:00:10+00:00", "op": "sho' + "\n" + good + "\n")
    r = invoke("memory", "check")
    assert f"{usage_log.USAGE}:2: skipped" in r.out, r.out


def _merge(mdir: str, old: str, by: str) -> None:
    from lazy_harness.atomic import append_line

    append_line(marks.path_of(mdir), json.dumps({"op": "merge", "id": old, "by": by, "reason": "duplicate",
                                                 "ts": usage_log.stamp(30.0), "run": "r1"}))


def test_a_merged_entrys_sessions_count_for_the_entry_it_was_merged_into(isolated_home, tmp_path):
    mdir = _mdir(tmp_path)
    recs: list[tuple[str, float, dict]] = []
    for k in range(6):
        recs += [("shown", 10.0, {"session": f"s{k}", "id": F_KEPT, "chars": 150}),
                 ("shown", 10.0, {"session": f"s{k}", "id": F_OTHER, "chars": 150})]
    for k in range(3):
        recs += [("shown", 10.0, {"session": f"s{k}", "id": F_OLD, "chars": 150}),
                 ("used", 11.0, {"session": f"s{k}", "id": F_OLD, "evidence": "make migrate-db"})]
    _lines(mdir, *recs)
    _merge(mdir, F_OLD, F_KEPT)
    t = usage_log.refresh_ranks(None, mdir)
    ranks = usage.load_ranks(None, mdir, 5)
    assert ranks.get(F_KEPT) == usage.USED and ranks.get(F_OTHER) == usage.UNUSED
    kept = t.entries[F_KEPT]
    assert (len(kept.shown), len(kept.used)) == (6, 3)  # sessions s0..s2 counted once, not twice
    assert F_OLD not in t.entries
