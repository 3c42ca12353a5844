"""Stable ids: derived from identity, so an old line always gets the same id."""

import subprocess
import sys

from lazy_harness.memory import ids


def test_entry_id_shape_and_prefix():
    d = ids.entry_id("decision", "Use SQLite for the index")
    f = ids.entry_id("failure", "Use SQLite for the index")
    assert d.startswith("d-") and f.startswith("f-")
    assert ids.is_id(d) and ids.is_id(f)
    assert d[2:] == f[2:]  # same summary, the kind is in the prefix


def test_same_normalised_summary_same_id_different_summary_different_id():
    assert ids.entry_id("decision", "  Use SQLite!") == ids.entry_id("decision", "use sqlite")
    assert ids.entry_id("decision", "use sqlite") != ids.entry_id("decision", "use postgres")


def test_learning_id_depends_on_origin():
    assert ids.learning_id("alpha", "Pin the CLI") != ids.learning_id("beta", "Pin the CLI")
    assert ids.learning_id("alpha", "Pin the CLI") == ids.learning_id("alpha", "pin the cli.")


def test_is_id_rejects_lookalikes():
    for bad in ("d-1234567", "d-1234567g", "x-12345678", "D-12345678", 12345678, None, "d-12345678 "):
        assert not ids.is_id(bad)
    assert ids.kind_of(ids.handoff_id("x")) == "handoff"
    assert ids.kind_of("nope") is None


def test_of_record_prefers_a_valid_own_id():
    rec = {"type": "failure", "summary": "Tests hung"}
    assert ids.of_record(rec) == ids.entry_id("failure", "Tests hung")
    assert ids.of_record({**rec, "id": "f-0000abcd"}) == "f-0000abcd"
    assert ids.of_record({**rec, "id": "../etc"}) == ids.entry_id("failure", "Tests hung")


def test_surrogates_do_not_raise():
    assert ids.is_id(ids.handoff_id("cut emoji \ud83d"))


def test_ids_are_stable_across_processes():
    code = "from lazy_harness.memory import ids; print(ids.entry_id('decision', 'Use SQLite'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ids.entry_id("decision", "Use SQLite")
