"""The shown-ids file of a long session grows past what ``already_shown.read`` reads (MAX_BYTES). The
newest ids are the ones the prompt hook must not show again, so the read keeps the end of the file;
the line the window starts inside is dropped, never returned as a cut id."""

import os

from lazy_harness.recall.prompt import already_shown

SID = "11111111-2222-4333-8444-555555555555"
LINE = 11  # ``d-xxxxxxxx\n``


def ids(start: int, n: int) -> list[str]:
    return [f"d-{i:08x}" for i in range(start, start + n)]


def write_raw(text: str) -> str:
    path = already_shown.state_file(None, SID)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


def test_the_newest_id_of_a_file_past_the_cap_is_read_back():
    old = ids(0, already_shown.MAX_BYTES // LINE + 500)
    already_shown.add(None, SID, old, replace=True)
    already_shown.add(None, SID, ["d-ffffffff"])  # what the last prompt injected
    assert os.path.getsize(already_shown.state_file(None, SID)) > already_shown.MAX_BYTES
    got = already_shown.read(None, SID)
    assert "d-ffffffff" in got
    assert old[-1] in got


def test_no_cut_id_is_read_at_the_edge_of_the_window():
    written = ids(0, already_shown.MAX_BYTES // LINE + 321)
    text = "".join(f"{i}\n" for i in written)
    assert (len(text) - already_shown.MAX_BYTES) % LINE not in (0, 1)  # the window starts inside an id
    write_raw(text)
    got = already_shown.read(None, SID)
    assert got <= set(written), sorted(got - set(written))[:3]
    assert written[-1] in got
    assert len(got) >= already_shown.MAX_BYTES // LINE - 1  # only the cut line is dropped


def test_a_window_that_starts_on_a_line_keeps_that_line():
    newest = ids(1000, already_shown.MAX_BYTES // LINE - 1)
    tail = "".join(f"{i}\n" for i in newest)
    first = "p" * (already_shown.MAX_BYTES - len(tail) - 1)  # a whole line, the first of the last MAX_BYTES
    older = ids(0, 50)
    write_raw("".join(f"{i}\n" for i in older) + first + "\n" + tail)
    got = already_shown.read(None, SID)
    assert got == {first, *newest}


def test_a_small_file_reads_as_before():
    already_shown.add(None, SID, ["d-00000001", "f-00000002"], replace=True)
    already_shown.add(None, SID, ["l-00000003", " ", ""])
    assert already_shown.read(None, SID) == {"d-00000001", "f-00000002", "l-00000003"}
    assert already_shown.read(None, "") == set()
    assert already_shown.read(None, "no-such-session") == set()


def test_a_file_of_exactly_the_cap_is_read_whole():
    written = ids(0, already_shown.MAX_BYTES // LINE)
    text = "".join(f"{i}\n" for i in written)
    text = "p" * (already_shown.MAX_BYTES - len(text) - 1) + "\n" + text
    assert len(text) == already_shown.MAX_BYTES
    write_raw(text)
    got = already_shown.read(None, SID)
    assert set(written) <= got and written[0] in got
