"""``lh memory usage`` and ``lh status`` met as a user meets them: a usage.jsonl line damaged by hand."""

import json
import os

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.cli.test_memory_usage import D, here  # noqa: F401 (the fixture)


def _damage_a_showing(project: str) -> str:
    """The showing of ``D`` in session s1 (line 3) loses a quote, as a hand edit can; the file's path."""
    path = os.path.join(paths.memory_dir(project), "usage.jsonl")
    with open(path) as fh:
        rows = fh.read().split("\n")
    assert json.loads(rows[2])["id"] == D
    rows[2] = rows[2].replace('"op": "shown"', '"op: "shown"')
    with open(path, "w") as fh:
        fh.write("\n".join(rows))
    return path


def test_a_damaged_usage_line_is_named_by_file_and_line_not_dropped_without_a_word(here):  # noqa: F811
    path = _damage_a_showing(here)
    r = invoke("memory", "usage")
    assert r.code == 0, r.err
    assert "total: 3 session(s), 4 shown" in r.out  # the showing is not read: the figure is lower
    said = [ln for ln in r.err.splitlines() if path in ln]
    assert len(said) == 1 and "1 line(s) skipped (3: not JSON)" in said[0] and "lh memory check" in said[0], r.err
    r = invoke("memory", "usage", "--json")
    assert r.code == 0 and json.loads(r.out)["shown"] == 4
    assert "(3: not JSON)" in r.err


def test_the_weeks_line_of_lh_status_says_a_damaged_usage_line_was_not_counted(here):  # noqa: F811
    path = _damage_a_showing(here)
    r = invoke("status")
    line = next(ln for ln in r.out.splitlines() if ln.startswith("usage in the last 7 days:"))
    assert f"1 damaged line(s) of {path} not counted: lh memory check" in line, line


def test_a_clean_usage_log_says_nothing_on_stderr(here):  # noqa: F811
    r = invoke("memory", "usage")
    assert r.code == 0 and r.err == ""
    line = next(ln for ln in invoke("status").out.splitlines() if ln.startswith("usage in the last 7 days:"))
    assert "damaged" not in line


def test_a_costly_entrys_title_is_its_wording_every_reader_shows(here):  # noqa: F811
    """A decision copied and reworded by hand, its id kept (ADR 0059): SessionStart, search and ``lh
    memory show`` show the newest line; the costly list names it by that wording, not the old one."""
    from lazy_harness.memory import files
    from tests.support import memory_samples as ms

    path = os.path.join(paths.memory_dir(here), files.DECISIONS)
    ms.write_jsonl(path, [ms.decision(1.0, "Sessions go to the old cache", id=D),
                          ms.decision(2.0, "Sessions go to redis_cluster_main now", id=D)])
    r = invoke("memory", "usage")
    costly = r.out.split("most characters for the least use:")[1]
    row = next(ln for ln in costly.splitlines() if D in ln)
    assert row.endswith(": Sessions go to redis_cluster_main now"), row


def test_reset_of_an_entry_memory_holds_reads_a_large_usage_log_once(here, monkeypatch):  # noqa: F811
    """The usage log is read whole and grows with history: ``--reset`` of an entry memory holds reads
    it once (under the count file's lock), not a second time to learn the id was counted."""
    from lazy_harness.memory import files, usage_log
    from tests.support import memory_samples as ms

    mdir = paths.memory_dir(here)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(1.0, "Sessions go to redis", id=D)])
    reads: list[str] = []
    real = usage_log.read

    def counted(memory_dir: str) -> list[dict]:
        reads.append(memory_dir)
        return real(memory_dir)

    monkeypatch.setattr(usage_log, "read", counted)
    r = invoke("memory", "usage", "--reset", D)
    assert r.code == 0, r.err
    assert reads == [mdir]
    r = invoke("memory", "usage", "--reset", "d-0000000f")  # no entry and never counted: refused
    assert r.code == 1 and r.err.startswith(f"lh: no decision d-0000000f in {mdir}"), r.err
