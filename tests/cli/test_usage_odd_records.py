"""usage.jsonl records that are JSON but no usage record (an id that is no entry id, a ``ts`` that is no
time, characters that are no count) are skipped as damaged by every reader and named like a line that
is not JSON: ``lh memory usage``, ``lh status``, ``lh memory check`` and the page."""

import json

from lazy_harness import paths
from lazy_harness.memory import damage, lines, usage_log
from tests.cli.lhrun import invoke
from tests.cli.test_memory_usage import NOW, D, here  # noqa: F401 (the fixture)

ODD = [
    usage_log.line("shown", NOW - 50, session="s3", id="not-an-id", chars=10),  # a row of kind "?"
    {"ts": "yesterday", "op": "used", "session": "s2", "id": D, "evidence": "x"},  # a use never "last used"
    usage_log.line("session", NOW - 40, session="s4", chars=-5),  # a session of no characters
    usage_log.line("shown", NOW - 40, session="s5", id=D, chars="900"),
]


def _add_odd(project: str) -> str:
    path = usage_log.path_of(paths.memory_dir(project))
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(rec) + "\n" for rec in ODD))
    return path  # lines 11 to 14


def test_odd_records_count_nothing_and_are_named_by_line(here):  # noqa: F811
    clean = json.loads(invoke("memory", "usage", "--json").out)
    path = _add_odd(here)
    r = invoke("memory", "usage", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out) == clean  # no row of kind "?", no use, no session more
    said = [ln for ln in r.err.splitlines() if path in ln]
    assert len(said) == 1 and "4 line(s) skipped (11: " in said[0] and "14: " in said[0], r.err
    assert "not counted" in said[0]


def test_every_reader_keeps_the_one_rule(here):  # noqa: F811
    path = _add_odd(here)
    mdir = paths.memory_dir(here)
    lines.NOTED.clear()
    assert not [r for r in usage_log.read(mdir) if r["session"] in ("s3", "s4", "s5") or r["ts"] == "yesterday"]
    assert path in lines.NOTED
    lines.NOTED.clear()
    assert [n for n, _ in damage.check_file(path).skipped] == [11, 12, 13, 14]
    week = next(ln for ln in invoke("status").out.splitlines() if ln.startswith("usage in the last 7 days:"))
    assert f"4 damaged line(s) of {path} not counted" in week and "2 session(s)" in week, week
    assert "usage.jsonl:12: skipped" in invoke("memory", "check").out


def test_a_newer_versions_op_is_left_out_and_is_no_damage(here):  # noqa: F811
    """A machine on a newer lazy-harness writes records of an op this one does not know into the synced
    usage.jsonl: they count for nothing here, and no reader calls them damage (marks.jsonl and the
    aliases file leave such ops out the same way); a line whose op is no text at all still is damage."""
    clean = json.loads(invoke("memory", "usage", "--json").out)
    mdir = paths.memory_dir(here)
    path = usage_log.path_of(mdir)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(usage_log.line("pinned", NOW - 30, session="s9", id=D, chars=40)) + "\n")
        fh.write(json.dumps(usage_log.line("session", NOW - 20, session="s8", chars=100)) + "\n")
    r = invoke("memory", "usage", "--json")
    assert r.code == 0 and path not in r.err, r.err
    assert json.loads(r.out) != clean  # the session record after it is read
    lines.NOTED.clear()
    assert not [rec for rec in usage_log.read(mdir) if rec["op"] == "pinned"]
    assert path not in lines.NOTED
    assert damage.check_file(path).found == []
    week = next(ln for ln in invoke("status").out.splitlines() if ln.startswith("usage in the last 7 days:"))
    assert "damaged" not in week, week
    assert path not in invoke("memory", "check").out
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({**usage_log.line("shown", NOW - 10, session="s7", id=D, chars=5), "op": 7}) + "\n")
    assert [n for n, _ in damage.check_file(path).skipped] == [len(open(path).read().splitlines())]
