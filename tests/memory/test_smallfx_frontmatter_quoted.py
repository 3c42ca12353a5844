"""A quoted frontmatter value, on one line or folded over several, reads as ``yaml.safe_load`` reads
it: an escaped blank (``\\t``, ``\\ ``) before a line break is kept, an escaped line break keeps the
empty lines after it, and ``\\x85``, U+2028 and U+2029 break lines as YAML 1.1 says."""

import random

import yaml

from lazy_harness.memory import frontmatter as fm, frontmatter_scalars as scalars

DOUBLE = ["\\0", "\\a", "\\b", "\\t", "\\\t", "\\n", "\\v", "\\f", "\\r", "\\e", "\\ ", '\\"', "\\/", "\\\\",
          "\\N", "\\_", "\\L", "\\P", "\\x41", "\\x7F", "\\u00e9", "\\U0001F600", "\\\n", "\\\r\n", "\\\u2028",
          "\n", "\n\n", "  \n  ", "\t\n\t", "\r\n", "\x85", "\u2028", "\u2029", " ", "\t", "'", "a", "b", "é"]
SINGLE = ["''", "\\", '"', "\n", "\n\n", "  \n  ", "\t\n\t", "\r\n", "\x85", "\u2028", "\u2029", " ", "\t",
          "a", "b", "é", "\xa0"]


def _values(seed: int, quote: str, pieces: list[str], count: int):
    rng = random.Random(seed)
    for _ in range(count):
        raw = quote + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 10))) + quote
        try:
            want = yaml.safe_load("title: " + raw)["title"]
        except yaml.YAMLError:
            continue
        yield raw, want


def _read(raw: str) -> object:
    got = fm.parse_frontmatter("---\ntitle: " + raw + "\nscope: project\n---\nbody\n")
    assert got is not None
    assert got[0]["scope"] == "project", raw  # the quote closed where YAML closes it
    return got[0]["title"]


def test_an_escaped_tab_before_a_folded_line_is_kept():
    assert _read('"\\t\n\n\\x4a"') == yaml.safe_load('t: "\\t\n\n\\x4a"')["t"] == "\t\nJ"
    assert _read('"a\\ \n b"') == "a  b"


def test_double_quoted_values_read_as_yaml_reads_them(tmp_path):
    compared = multi = 0
    for raw, want in _values(20260501, '"', DOUBLE, 4000):
        assert scalars.decode_quoted(raw) == (want, True), repr(raw)
        assert _read(raw) == want, repr(raw)
        if "\n" in raw:
            multi += 1
        else:
            path = tmp_path / "l.md"
            path.write_bytes(("---\ntitle: " + raw + "\n---\n").encode())
            assert fm.read_frontmatter_values(str(path), ("title",)).get("title") == want, repr(raw)
        compared += 1
    assert compared > 3000 and multi > 1000, (compared, multi)


def test_single_quoted_values_read_as_yaml_reads_them(tmp_path):
    compared = 0
    for raw, want in _values(7, "'", SINGLE, 3000):
        assert scalars.decode_quoted(raw) == (want, True), repr(raw)
        assert _read(raw) == want, repr(raw)
        if "\n" not in raw:
            path = tmp_path / "l.md"
            path.write_bytes(("---\ntitle: " + raw + "\n---\n").encode())
            assert fm.read_frontmatter_values(str(path), ("title",)).get("title") == want, repr(raw)
        compared += 1
    assert compared > 2000, compared
