"""A damaged line full of braces or of keys (a scribble, a hostile synced line) is salvaged as much as
a line can be, and read in time that grows with its length: each object tried costs the parser's
error a count of the line up to where it failed, so the tries are bounded (``lines.MAX_TRIES``) and a
brace that opens no object holding something (no key after it) is not tried. A 1 MB line of "{"
kept SessionStart busy for minutes (251 s; 17 ms now: benchmarks/bench_damaged_line.py)."""

import json

import pytest

from lazy_harness.memory import lines

REC = {"id": "d-1a2b3c4d", "ts": "2026-11-02T10:00:00Z", "summary": "Use the pooled connection", "rationale": "load"}


@pytest.mark.parametrize("junk", ["{" * 50_000, "{ x" * 20_000, "{{}" * 20_000, "{} " * 20_000,
                                  '{"' * 100, '{"a": [' * 100])
def test_a_record_after_braces_that_open_nothing_is_salvaged(junk):
    found, why = lines.records_of((junk + json.dumps(REC)).encode())
    assert why.startswith("salvaged") and REC in found


def test_a_record_after_more_failed_objects_than_the_bound_is_not_salvaged():
    junk = '{"a": 1, ' * (lines.MAX_TRIES + 1)
    found, why = lines.records_of((junk + json.dumps(REC)).encode())
    assert found == [] and why.startswith("skipped")


def test_two_glued_records_and_a_torn_one_still_come_back():
    torn = json.dumps({**REC, "id": "d-00000000"})[:40]
    other = {**REC, "id": "d-99999999", "summary": "Keep the retries"}
    found, why = lines.records_of((json.dumps(REC) + torn + json.dumps(other)).encode())
    assert found == [REC, other] and why == "salvaged: not JSON"


def test_string_fields_stop_after_the_bound():
    bad = '"summary": "\\q", ' * (lines.MAX_TRIES + 5) + '"summary": "kept"'
    assert lines.string_fields(bad, ("summary",)) == {}
    assert lines.string_fields('"summary": "\\q", "summary": "kept"', ("summary",)) == {"summary": "kept"}
