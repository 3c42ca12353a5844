"""Text shaping for stored memory: one-line fields, bodies, de-dup keys."""

import pytest

from lazy_harness.memory.sanitize import normalise, one_line, text_block


@pytest.mark.parametrize("raw,expected", [
    ("a\nb\r\nc", "a b c"),
    ("  lots   of\tspace ", "lots of space"),
    ("sep\u2028and\u2029para\x85nel", "sep and para nel"),
    ("zero\u200bwidth \u202ertl \ufeffbom", "zero width rtl bom"),
    ("lone \ud800", "lone ?"),
    (None, ""),
    (42, "42"),
])
def test_one_line(raw, expected):
    assert one_line(raw) == expected


def test_text_block_keeps_lines_and_drops_controls():
    assert text_block("\r\n first\r\nsecond\rthird\x00!\t ok \n") == "first\nsecond\nthird !\t ok"


@pytest.mark.parametrize("a,b", [
    ("Use X!", "  use x"),
    ("**Use  the queue**", "use the queue."),
    ("«Ünïcode»", "ünïcode"),
    ("Straße", "STRASSE"),
    ("— dash led —", "dash led"),
])
def test_normalise_equates_trivial_variants(a, b):
    assert normalise(a) == normalise(b)


def test_normalise_keeps_inner_punctuation():
    assert normalise("Use X, not Y") != normalise("Use X not Y")
    assert normalise("...") == ""
