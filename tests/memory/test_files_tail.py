"""files.tail_lines: the newest whole lines, whatever the length of the lines after them."""

import json
import os

import pytest

from lazy_harness.memory import files


def write(path, data: bytes) -> str:
    with open(path, "wb") as fh:
        fh.write(data)
    return str(path)


def line(i: int) -> bytes:
    return json.dumps({"summary": f"entry {i}"}).encode() + b"\n"


@pytest.mark.parametrize("block", [7, 64, 65536])
def test_the_newest_lines_oldest_first_whatever_the_block(tmp_path, block):
    path = write(tmp_path / "d.jsonl", b"".join(line(i) for i in range(50)))
    got = files.tail_lines(path, 3, block=block)
    assert [json.loads(x)["summary"] for x in got] == ["entry 47", "entry 48", "entry 49"]
    assert len(files.tail_lines(path, 500, block=block)) == 50


def test_a_terminated_long_last_line_is_left_out_and_the_newest_whole_entry_shown(tmp_path):
    long = b'{"summary": "' + b"x" * (files.MAX_LINE + 10) + b'"}\n'
    path = write(tmp_path / "d.jsonl", line(1) + line(2) + long)
    skipped: list = []
    assert [json.loads(x)["summary"] for x in files.tail_lines(path, 2, skipped=skipped)] == ["entry 1", "entry 2"]
    assert skipped == [os.path.getsize(path) - 1]
    assert [r["summary"] for r in files.tail_records(path, 1)] == ["entry 2"]


def test_an_unterminated_long_last_line_is_left_out(tmp_path):
    path = write(tmp_path / "d.jsonl", line(1) + line(2) + b'{"summary": "' + b"y" * (files.MAX_LINE * 3))
    assert [r["summary"] for r in files.tail_records(path, 5)] == ["entry 1", "entry 2"]


def test_a_long_line_in_the_middle_is_skipped_and_older_lines_still_read(tmp_path):
    long = b"z" * (files.MAX_LINE + 1) + b"\n"
    path = write(tmp_path / "d.jsonl", line(1) + long + line(2) + line(3))
    assert [r["summary"] for r in files.tail_records(path, 3)] == ["entry 1", "entry 2", "entry 3"]


def test_a_line_of_exactly_the_limit_is_kept(tmp_path):
    body = b'{"summary": "' + b"k" * (files.MAX_LINE - 15) + b'"}'
    assert len(body) == files.MAX_LINE
    path = write(tmp_path / "d.jsonl", line(1) + body + b"\n")
    assert len(files.tail_records(path, 1)[0]["summary"]) == files.MAX_LINE - 15


def test_a_torn_last_line_is_left_out_and_a_whole_unterminated_object_kept(tmp_path):
    torn = write(tmp_path / "t.jsonl", line(1) + b'{"summary": "ha')
    assert [r["summary"] for r in files.tail_records(torn, 5)] == ["entry 1"]
    whole = write(tmp_path / "w.jsonl", line(1) + b'{"summary": "saved"}')
    assert [r["summary"] for r in files.tail_records(whole, 5)] == ["entry 1", "saved"]


def test_a_byte_order_mark_and_a_file_without_newline(tmp_path):
    path = write(tmp_path / "b.jsonl", files.BOM + b'{"summary": "only"}')
    for block in (1, 2, 4, 64):  # the BOM split across blocks too
        assert files.tail_lines(path, 3, block=block) == ['{"summary": "only"}']
    assert files.tail_lines(str(tmp_path / "missing"), 3) == []
    assert files.tail_lines(path, 0) == []


def test_a_long_first_line_is_skipped_and_counted(tmp_path):
    path = write(tmp_path / "d.jsonl", b"q" * (files.MAX_LINE * 2 + 5) + b"\n" + line(1))
    skipped: list = []
    assert [json.loads(x)["summary"] for x in files.tail_lines(path, 5, skipped=skipped)] == ["entry 1"]
    assert skipped == [files.MAX_LINE * 2 + 5]


# -- issue 35, item 9: the search for a long line's start is bounded --------------------------------

def test_the_start_of_a_line_within_the_bound_is_found_and_older_lines_read(tmp_path):
    long = b'{"summary": "' + b"w" * (files.MAX_LINE + files.LONG_SCAN - 1000) + b'"}\n'
    path = write(tmp_path / "d.jsonl", line(1) + line(2) + long)
    cut: list = []
    assert [json.loads(x)["summary"] for x in files.tail_lines(path, 2) if x] == ["entry 1", "entry 2"]
    assert files.tail_bytes(path, 2, cut=cut) and cut == []


@pytest.mark.parametrize("end", [b'"}\n', b""], ids=["terminated", "unterminated"])
def test_past_the_bound_reading_stops_and_says_where(tmp_path, end):
    long = b'{"summary": "' + b"v" * (files.MAX_LINE + files.LONG_SCAN + (1 << 17)) + end
    path = write(tmp_path / "d.jsonl", line(1) + line(2) + long)
    cut: list = []
    skipped: list = []
    assert files.tail_bytes(path, 5, skipped=skipped, cut=cut) == []
    assert len(cut) == 1 and cut[0] > len(line(1) + line(2))  # it stopped inside the long line
    assert len(skipped) == 1


def test_a_stopped_tail_is_said_once_per_file_state(tmp_path, isolated_home):
    from lazy_harness import logfile, paths
    from lazy_harness.memory import damage, lines

    long = b'{"summary": "' + b"u" * (files.MAX_LINE + files.LONG_SCAN + (1 << 17))
    path = write(tmp_path / "decisions.jsonl", line(1) + long)
    assert files.tail_records(path, 3) == []
    said = damage.report(logfile.HOOKS)
    assert len(said) == 1 and path in said[0] and "SessionStart stops reading there" in said[0]
    assert files.tail_records(path, 3) == []
    assert damage.report(logfile.HOOKS) == []  # the same file: not said again
    assert not lines.NOTED and not lines.CUT
    logged = open(os.path.join(paths.logs_dir(), logfile.HOOKS)).read()
    assert logged.count("SessionStart stops reading there") == 1


def test_a_hook_over_a_reported_long_line_does_not_load_the_damage_check_again(tmp_path, isolated_home,
                                                                               monkeypatch):
    """The report is made once per file state; later starts only compare the file's stamp (importing
    memory.damage cost SessionStart 20 ms at every start over a long line)."""
    import sys

    from lazy_harness import logfile
    from lazy_harness.hooks import entry
    from lazy_harness.memory import damage, lines

    long = b'{"summary": "' + b"t" * (files.MAX_LINE + files.LONG_SCAN + (1 << 17))
    path = write(tmp_path / "decisions.jsonl", line(1) + long)
    files.tail_records(path, 3)
    assert len(damage.report(logfile.HOOKS)) == 1
    import lazy_harness.memory

    monkeypatch.delitem(sys.modules, "lazy_harness.memory.damage")
    monkeypatch.delattr(lazy_harness.memory, "damage")
    files.tail_records(path, 3)
    assert {path} == lines.NOTED
    entry.report_damaged_lines("SessionStart ", None, 0.0)
    assert "lazy_harness.memory.damage" not in sys.modules
    assert not lines.NOTED and not lines.CUT
    with open(path, "ab") as fh:  # a new state of the file: checked and said again
        fh.write(b"t")
    files.tail_records(path, 3)
    entry.report_damaged_lines("SessionStart ", None, 0.0)
    assert "lazy_harness.memory.damage" in sys.modules
