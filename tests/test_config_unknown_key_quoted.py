"""An unknown key or section whose quoted TOML name holds a newline or an escape character was printed
raw: the one-line warning broke over two lines (``lh doctor`` kept only the first half) and an escape
sequence reached the terminal. The name is shown as TOML writes it, quoted and escaped."""

from lazy_harness.config.validate import parse_bytes


def test_unknown_key_with_a_newline_is_one_quoted_line(tmp_path):
    raw = b'[compound_loop]\nenabled = true\n"bad\\u001b[31mkey\\nx" = 1\n'
    _, errors, warnings = parse_bytes(raw, str(tmp_path / "config.toml"))
    assert errors == []
    assert len(warnings) == 1
    line = warnings[0]
    assert "\n" not in line and "\x1b" not in line
    assert 'compound_loop."bad\\u001b[31mkey\\nx": unknown key, ignored' in line


def test_unknown_section_with_a_newline_is_one_quoted_line(tmp_path):
    raw = b'["sec\\ntion"]\nx = 1\n'
    _, errors, warnings = parse_bytes(raw, str(tmp_path / "config.toml"))
    assert errors == []
    assert len(warnings) == 1 and "\n" not in warnings[0]
    assert '"sec\\ntion": unknown section, ignored' in warnings[0]


def test_plain_unknown_key_stays_bare(tmp_path):
    _, _, warnings = parse_bytes(b"[compound_loop]\nbogus_key = 3\n", str(tmp_path / "config.toml"))
    assert warnings and ":2: compound_loop.bogus_key: unknown key, ignored" in warnings[0]
