"""read_record.py: what a run touched, as a kept result's check (the start's read-back, ADR 0084) needs it."""

import os

from lazy_harness import read_record


def test_a_read_is_stamped_as_it_was_before_the_read_and_a_folder_looked_at_by_what_it_is(tmp_path):
    f, folder, gone = tmp_path / "a.jsonl", tmp_path / "sub", tmp_path / "missing"
    f.write_text("one\n")
    folder.mkdir()

    def run(env):
        data = open(f, "rb").read()
        f.write_text("two, longer\n")  # changed after its read: the stamp is the one from before
        os.path.isdir(folder)
        os.path.exists(gone)
        return data, {}

    (data, _), rec = read_record.record({}, run)
    assert data == b"one\n" and not rec.blind
    assert rec.seen["s" + str(f)][1] == len(b"one\n")  # mode, size, ...: the size it had when read
    assert len(rec.seen["s" + str(folder)]) == 3  # what it is (mode, inode, device), not its times
    assert rec.seen["s" + str(gone)] is None
    assert not read_record.unchanged(list(rec.seen.items()))  # the file changed since


def test_a_listed_folder_is_stamped_whole(tmp_path):
    (tmp_path / "x").write_text("")
    _, rec = read_record.record({}, lambda env: (os.listdir(tmp_path), {}))
    assert len(rec.seen["s" + str(tmp_path)]) == 6
    assert read_record.unchanged(list(rec.seen.items()))
    (tmp_path / "y").write_text("")  # a file more in it
    assert not read_record.unchanged(list(rec.seen.items()))


def test_the_variables_read_are_recorded_with_their_values(tmp_path):
    env = {"HOME": "/h", "XDG_CACHE_HOME": "/c", "UNREAD": "u"}
    _, rec = read_record.record(env, lambda e: (e.get("XDG_CACHE_HOME"), "XDG_DATA_HOME" in e), ("HOME",))
    assert rec.read["XDG_CACHE_HOME"] == "/c" and rec.read["XDG_DATA_HOME"] is None
    assert "UNREAD" not in rec.read and rec.read["HOME"] == "/h"  # HOME always
    _, rec = read_record.record(env, lambda e: dict(e.items()))
    assert rec.read["UNREAD"] == "u"  # a reader of all depends on all


def test_what_cannot_be_named_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rel").write_text("x")
    _, rec = read_record.record({}, lambda env: (open("rel").read(), {}))
    assert rec.blind


def test_a_stat_someone_else_set_still_runs_and_is_put_back(monkeypatch, tmp_path):
    calls: list[str] = []
    real = os.stat

    def swapped(path, *args, **kwargs):
        calls.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", swapped)
    _, rec = read_record.record({}, lambda env: (os.stat(tmp_path), {}))
    assert calls == [str(tmp_path)] and os.stat is swapped
    assert "s" + str(tmp_path) in rec.seen
