"""A session's showings file grows large. The worker totals a session's characters from its first
showing (worker/usage.py: session_lines), so ``usage.read_showings`` reads the whole file, far past
the 1 MiB the recurrence files are read to (MAX_SEEN), up to MAX_SHOWINGS; only past that does it keep
the end of the file, and the line the window starts inside is dropped, never parsed as a cut showing."""

import os

from lazy_harness.memory import usage

SID = "11111111-2222-4333-8444-555555555555"


def test_the_newest_showing_of_a_file_past_the_cap_is_read_back(isolated_home, monkeypatch):
    monkeypatch.setattr(usage, "MAX_SHOWINGS", usage.MAX_SEEN)  # why: the window's edge without a 64 MiB file
    path = usage.seen_file(None, SID)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    line = "100.000 prompt 300 @proj " + " ".join(f"d-{i:08x}:30" for i in range(40)) + "\n"
    newest = "999.500 prompt 120 @proj f-0000abcd:120\n"  # what usage.note appends below
    # why this cut line (an older torn write): it puts the window's start one byte into a whole line,
    # whose rest ("00.000 prompt 300 ...") would parse as a showing at epoch 0
    cut = line[:(1 + usage.MAX_SEEN - len(newest) - 1) % len(line)]
    assert cut
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(line * (usage.MAX_SEEN // len(line) + 7) + cut + "\n")
    usage.note(None, SID, "prompt", 120, [("f-0000abcd", 120)], 999.5, memory_dir="/x/mem/proj")
    assert (os.path.getsize(path) - usage.MAX_SEEN) % len(line) == 1
    got = usage.read_showings(None, SID)
    assert got[-1] == (999.5, "prompt", 120, [("f-0000abcd", 120)], "proj")
    whole = (100.0, "prompt", 300, [(f"d-{i:08x}", 30) for i in range(40)], "proj")
    assert all(s == whole for s in got[:-2]), [s for s in got[:-2] if s != whole][:1]  # no cut showing
    assert len(got) == usage.MAX_SEEN // len(line) + 1  # the whole lines of the window, no more


def test_a_file_past_one_mib_is_read_whole(isolated_home):
    path = usage.seen_file(None, SID)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    line = "100.000 prompt 300 @proj " + " ".join(f"d-{i:08x}:30" for i in range(40)) + "\n"
    n = 2 * usage.MAX_SEEN // len(line)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("50.000 startup 900 f-00000001:120\n" + line * n)
    assert usage.MAX_SEEN < os.path.getsize(path) < usage.MAX_SHOWINGS
    got = usage.read_showings(None, SID)
    assert len(got) == n + 1 and got[0] == (50.0, "startup", 900, [("f-00000001", 120)], "")


def test_a_small_showings_file_reads_as_before(isolated_home):
    usage.note(None, SID, "startup", 900, [("f-00000001", 120)], 100.0)
    usage.note(None, SID, "prompt", 300, [("l-00000003", 290)], 160.5, memory_dir="/x/mem/proj")
    assert usage.read_showings(None, SID) == [(100.0, "startup", 900, [("f-00000001", 120)], ""),
                                              (160.5, "prompt", 300, [("l-00000003", 290)], "proj")]
    assert usage.read_showings(None, "no-such-session") == []
