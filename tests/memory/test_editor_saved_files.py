"""Memory files a person saved in an editor: a UTF-8 byte order mark at the start, no newline at the end.

Both are editor defaults (Notepad and some Windows editors write a BOM; VS Code ends a file without a
final newline). Every reader ignores the BOM and takes a last line without its newline when it is one
whole JSON object, and the store and the index keep each entry once.
"""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.memory import entries, files, frontmatter, ids, learnings, store
from lazy_harness.recall.index import sources, store as index_store, writer
from tests.support import memory_samples as ms

NOW = time.time()
DAY = 86400
META = {"project": "proj", "session_id": "s-1", "task_id": "t-1", "cwd": "/x/proj"}
BOM = b"\xef\xbb\xbf"
LEARNING = {"title": "Rename is the enqueue", "learning": "write in tmp/, rename into new/"}


def memory(tmp_path, *summaries):
    mdir = paths.memory_dir(ms.make_project(tmp_path, "proj"))
    persist(mdir, *summaries)
    return mdir, os.path.join(mdir, files.DECISIONS)


def persist(mdir, *summaries, now=NOW):
    return store.persist({"decisions": [{"summary": s} for s in summaries]}, mdir, paths.learnings_dir(), META, now)


def edit(path, change):
    """Rewrite ``path`` in place as an editor does: ``change`` maps the old bytes to the new."""
    with open(path, "rb") as fh:
        data = fh.read()
    with open(path, "r+b") as fh:
        fh.write(change(data))
        fh.truncate()


def summaries(path):
    with open(path, "rb") as fh:
        return [json.loads(ln.decode("utf-8-sig"))["summary"] for ln in fh.read().splitlines() if ln.strip()]


def tail(path):
    return [r["summary"] for r in files.tail_records(path, 10)]


def indexed(mdir, ldir=None):
    writer.update(paths.recall_index_file(), [mdir], ldir)
    conn = index_store.connect(paths.recall_index_file())
    try:
        return sorted(conn.execute("SELECT id, line FROM entry ORDER BY id").fetchall())
    finally:
        conn.close()


def decision_rows(*summaries):
    return sorted((ids.entry_id("decision", s), n) for n, s in enumerate(summaries, 1))


# --- a byte order mark ------------------------------------------------------------------------------

def test_bom_decisions_are_read_back_and_not_appended_again(tmp_path):
    mdir, path = memory(tmp_path, "Use a Maildir queue", "Spawn the worker detached")
    edit(path, lambda data: BOM + data)
    assert tail(path) == ["Use a Maildir queue", "Spawn the worker detached"]
    assert entries.recorded(path, {"use a maildir queue"}) == {"use a maildir queue"}
    rep = persist(mdir, "Use a Maildir queue", now=NOW + 60)
    assert rep.appended == {} and summaries(path) == ["Use a Maildir queue", "Spawn the worker detached"]
    with open(path, "rb") as fh:
        assert fh.read(3) == BOM  # the person's file is not rewritten


def test_bom_learning_keeps_its_id_and_is_not_written_twice(tmp_path):
    mdir = paths.memory_dir(ms.make_project(tmp_path, "proj"))
    ldir = paths.learnings_dir()
    # why noon (UTC) of today: the second persist a minute later must fall on the same day as the first
    noon = time.time() // DAY * DAY + DAY / 2
    path = store.persist({"learnings": [LEARNING]}, mdir, ldir, META, noon).created[0]
    edit(path, lambda data: BOM + data.replace(b"rename into new/", b"rename into new/ (checked)"))
    want = ids.learning_id("proj", LEARNING["title"])
    assert learnings.id_of(path) == want
    assert frontmatter.read_frontmatter_values(path, ("title",))["title"] == LEARNING["title"]
    with open(path, encoding="utf-8") as fh:
        meta, body = frontmatter.parse_frontmatter(fh.read())
    assert meta["id"] == want and body.startswith("\n## Learning")
    rep = store.persist({"learnings": [LEARNING]}, mdir, ldir, META, noon + 60)
    assert rep.created == [] and rep.existing == [path]
    assert os.listdir(os.path.dirname(path)) == [os.path.basename(path)]


def test_bom_files_are_indexed_with_their_ids(tmp_path):
    mdir, path = memory(tmp_path, "Use a Maildir queue", "Spawn the worker detached")
    ldir = paths.learnings_dir()
    lpath = store.persist({"learnings": [LEARNING]}, mdir, ldir, META, NOW).created[0]
    for p in (path, lpath):
        edit(p, lambda data: BOM + data)
    learning = sources.read_learning(lpath)
    assert (learning["id"], learning["title"]) == (ids.learning_id("proj", LEARNING["title"]), LEARNING["title"])
    assert indexed(mdir, ldir) == sorted(decision_rows("Use a Maildir queue", "Spawn the worker detached")
                                         + [(learning["id"], 0)])


# --- no newline at the end --------------------------------------------------------------------------

def drop_second_line(path):
    """The person deletes the middle decision and saves; the editor writes no final newline."""
    edit(path, lambda data: b"\n".join(data.splitlines()[::2]))


def test_an_entry_without_a_final_newline_is_read_back_and_indexed(tmp_path):
    mdir, path = memory(tmp_path, "Use a Maildir queue", "Spawn the worker detached", "Keep flaky tests quarantined")
    drop_second_line(path)
    assert tail(path) == ["Use a Maildir queue", "Keep flaky tests quarantined"]
    assert indexed(mdir) == decision_rows("Use a Maildir queue", "Keep flaky tests quarantined")


def test_a_bom_file_of_one_line_without_a_final_newline(tmp_path):
    mdir, path = memory(tmp_path, "Use a Maildir queue")
    edit(path, lambda data: BOM + data.rstrip(b"\n"))
    assert tail(path) == ["Use a Maildir queue"]
    assert indexed(mdir) == decision_rows("Use a Maildir queue")
    assert persist(mdir, "Use a Maildir queue", now=NOW + 60).appended == {}


def test_the_workers_next_append_keeps_every_entry_once(tmp_path):
    mdir, path = memory(tmp_path, "Use a Maildir queue", "Spawn the worker detached", "Keep flaky tests quarantined")
    drop_second_line(path)
    assert indexed(mdir) == decision_rows("Use a Maildir queue", "Keep flaky tests quarantined")
    assert persist(mdir, "Keep flaky tests quarantined", "Pin the model", now=NOW + 60).appended == {path: 1}
    want = ["Use a Maildir queue", "Keep flaky tests quarantined", "Pin the model"]
    assert summaries(path) == want and tail(path) == want
    assert indexed(mdir) == decision_rows(*want)


def test_the_persons_next_append_keeps_every_entry_once(tmp_path):
    mdir, path = memory(tmp_path, "Use a Maildir queue")
    assert indexed(mdir) == decision_rows("Use a Maildir queue")
    later = entries.json_line(entries.record("decision", {"summary": "Keep flaky tests quarantined"}, META, NOW))
    with open(path, "a", encoding="utf-8") as fh:  # the file only grows: the index reads on from its offset
        fh.write(later)
    assert tail(path) == ["Use a Maildir queue", "Keep flaky tests quarantined"]
    assert indexed(mdir) == decision_rows("Use a Maildir queue", "Keep flaky tests quarantined")
    last = entries.json_line(entries.record("decision", {"summary": "Pin the model"}, META, NOW))
    with open(path, "a", encoding="utf-8") as fh:  # a second line typed below, again without a final newline
        fh.write("\n" + last)
    want = ["Use a Maildir queue", "Keep flaky tests quarantined", "Pin the model"]
    assert tail(path) == want
    assert indexed(mdir) == decision_rows(*want)
    with open(path, "a", encoding="utf-8") as fh:  # the newline added at last
        fh.write("\n")
    assert indexed(mdir) == decision_rows(*want)


def test_a_torn_line_is_still_left_out_until_it_is_whole(tmp_path):
    mdir, path = memory(tmp_path, "Use a Maildir queue")
    edit(path, lambda data: data.rstrip(b"\n"))
    assert indexed(mdir) == decision_rows("Use a Maildir queue")
    line = entries.json_line(entries.record("decision", {"summary": "Torn in flight"}, META, NOW))
    with open(path, "a", encoding="utf-8") as fh:  # a writer killed before the closing brace
        fh.write("\n" + line[:-1])
    assert tail(path) == ["Use a Maildir queue"]
    assert indexed(mdir) == decision_rows("Use a Maildir queue")
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("}\n")
    assert tail(path) == ["Use a Maildir queue", "Torn in flight"]
    assert indexed(mdir) == decision_rows("Use a Maildir queue", "Torn in flight")


def test_forget_and_consolidation_see_the_first_entry_of_a_bom_file(tmp_path):
    from lazy_harness.memory import marks
    from lazy_harness.worker import consolidate
    from tests.cli.lhrun import invoke

    mdir, path = memory(tmp_path, "Use SQLite", "Use Redis")
    edit(path, lambda data: BOM + data)
    first = ids.entry_id("decision", "Use SQLite")
    got = consolidate.candidates(mdir, paths.learnings_dir(), "proj")
    assert first in [e.id for e in got.decisions]
    r = invoke("memory", "forget", first, "--project", str(tmp_path / "proj"))
    assert r.code == 0, r.err
    assert first in marks.hidden(mdir)


def test_a_bom_handoff_log_keeps_its_first_record(tmp_path):
    from lazy_harness.memory import handoff, handoff_answer

    mdir, _ = memory(tmp_path)
    handoff_answer.apply_answer(mdir, ["first item", "second item"], [], META, NOW, NOW)
    edit(os.path.join(mdir, handoff.STATE), lambda data: BOM + data)
    assert [i["text"] for i in handoff.open_items(handoff.load(mdir)[0])] == ["first item", "second item"]


def test_a_mark_after_a_hand_saved_mark_without_newline_keeps_both(tmp_path):
    from lazy_harness.memory import marks
    from tests.cli.lhrun import invoke

    mdir, _ = memory(tmp_path, "Use SQLite", "Use Redis")
    one, two = (ids.entry_id("decision", s) for s in ("Use SQLite", "Use Redis"))
    with open(marks.path_of(mdir), "w") as fh:
        fh.write(json.dumps({"op": "forget", "id": one, "reason": "by hand", "ts": "t", "run": "r"}))
    r = invoke("memory", "forget", two, "--project", str(tmp_path / "proj"))
    assert r.code == 0, r.err
    assert set(marks.hidden(mdir)) == {one, two}
