"""The search index: catching up with the files, markers, torn lines, two writers at once."""

import json
import math
import multiprocessing
import os
import sqlite3
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids
from lazy_harness.recall.index import for_commands, lookup, porter, store, terms
from tests.support import memory_samples as ms

NOW = time.time()


def setup(tmp_path, n=5):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW + i, f"decision {i} about queues", "r")
                                                       for i in range(n)])
    return mem


def found_by(conn, word, where, args, limit):
    """The rows the word lists give for ``word`` in the memory folders ``where`` names (its ``args``)
    and the learnings, as a prompt searches them."""
    scopes = [s for (s,) in conn.execute("SELECT scope FROM lex_scope") if s == "" or s in args]
    return lookup.candidates(conn, [[word]], scopes, where, args, limit)[0]


def holders(conn, word):
    """How many entries of the index hold ``word`` (its df in the word lists)."""
    row = conn.execute("SELECT df FROM lex_total WHERE key=?", (porter.key(word),)).fetchone()
    return row[0] if row else 0


def rows(conn):
    return conn.execute("SELECT id, line FROM entry WHERE kind='decision' ORDER BY line").fetchall()


def test_appends_are_read_from_where_the_index_stopped(tmp_path):
    mem = setup(tmp_path)
    conn = store.connect(paths.recall_index_file())
    assert store.refresh_within(conn, [mem], None) == (5, True)
    assert store.refresh_within(conn, [mem], None) == (0, True)  # nothing changed: nothing read
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW, "decision 5 about queues", "r")])
    assert store.refresh_within(conn, [mem], None) == (1, True)  # only the new line
    assert [r[1] for r in rows(conn)] == [1, 2, 3, 4, 5, 6]
    assert rows(conn)[-1][0] == ids.entry_id("decision", "decision 5 about queues")


def test_a_torn_last_line_is_read_once_it_is_whole(tmp_path):
    mem = setup(tmp_path, 1)
    path = os.path.join(mem, files.DECISIONS)
    line = json.dumps(ms.decision(NOW, "the torn one", "r"))
    with open(path, "a") as fh:
        fh.write(line[:20])
    conn = store.connect(paths.recall_index_file())
    assert store.refresh_within(conn, [mem], None) == (1, True)
    with open(path, "a") as fh:
        fh.write(line[20:] + "\n")
    assert store.refresh_within(conn, [mem], None) == (1, True)
    assert len(rows(conn)) == 2


def test_markers_hide_ids_and_are_not_entries(tmp_path):
    mem = setup(tmp_path, 3)
    gone = ids.entry_id("decision", "decision 1 about queues")
    with open(os.path.join(mem, files.DECISIONS), "a") as fh:
        fh.write(json.dumps({"op": "merge", "id": "d-12345678", "drop": [gone], "summary": "not an entry"}) + "\n")
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mem], None)
    where, args = lookup.scope_sql([mem], "proj")
    found = {r[1] for r in found_by(conn, "queues", where, args, 10)}
    assert len(rows(conn)) == 3 and gone not in found and len(found) == 2


def _refresh(mem):
    conn = store.connect(paths.recall_index_file(), timeout=30)
    store.refresh_within(conn, [mem], None)


def test_two_processes_catching_up_at_once_index_each_line_once(tmp_path):
    mem = setup(tmp_path, 2000)
    # why: not fork: the test process may hold onnxruntime's threads by now (tests/recall/test_embedder.py),
    # and forking a threaded process can deadlock the child
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_refresh, args=(mem,)) for _ in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    assert all(p.exitcode == 0 for p in procs)
    conn = store.connect(paths.recall_index_file())
    assert len(rows(conn)) == 2000
    assert holders(conn, "queues") == 2000


def test_the_index_lives_in_the_cache_folder(isolated_home, monkeypatch):
    assert paths.recall_index_file() == os.path.join(str(isolated_home), ".cache", "lazy-harness", "recall",
                                                     "index.sqlite")
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere/cache")
    assert paths.cache_dir() == "/somewhere/cache/lazy-harness"


def test_the_entry_count_follows_appends_rewrites_and_removals(tmp_path):
    """The count the bar's word weights divide by is kept in ``meta`` rather than counted per prompt;
    it must stay equal to the rows through every kind of change."""
    mem = setup(tmp_path, 4)
    path = os.path.join(mem, files.DECISIONS)
    conn = store.connect(paths.recall_index_file())

    def same() -> int:
        n = conn.execute("SELECT count(*) FROM entry").fetchone()[0]
        assert lookup.doc_count(conn) == n
        return n

    store.refresh_within(conn, [mem], None)
    assert same() == 4
    ms.write_jsonl(path, [ms.decision(NOW, "an appended one", "r")])
    store.refresh_within(conn, [mem], None)
    assert same() == 5
    with open(path, "w") as fh:  # edited by hand: two lines left
        fh.write("\n".join(json.dumps(ms.decision(NOW, f"kept {i}", "r")) for i in range(2)) + "\n")
    store.refresh_within(conn, [mem], None)
    assert same() == 2
    os.unlink(path)
    store.refresh_within(conn, [mem], None)
    assert same() == 0


def test_the_cli_rebuilds_an_index_damaged_inside(tmp_path):
    mem = setup(tmp_path, 400)
    path = paths.recall_index_file()
    conn = store.connect(path)
    store.refresh_within(conn, [mem], None)
    conn.close()
    size = os.path.getsize(path)
    assert size > 20 * 4096
    with open(path, "r+b") as fh:  # the roots of the tables survive, their leaves do not
        for page in range(15, size // 4096):
            fh.seek(page * 4096)
            fh.write(b"\xff" * 4096)
    where, args = lookup.scope_sql([mem], "proj")
    found, indexed = for_commands.read_current(path, [mem], None,
                                          lambda c: found_by(c, "queues", where, args, 1000), deep=True)
    assert indexed == 400  # the refresh found nothing to do; the search failed on a leaf: built again
    assert len(found) == 400



def test_a_commands_read_that_meets_damage_the_writer_did_not_read_is_built_again(tmp_path):
    """The writer's update, with nothing to index and every text its vector, reads no entry's words:
    a damaged page of them is met by the command's read, which removes the index and reads one built
    again from the files (``for_commands.read_current``)."""
    from lazy_harness.recall.index import writer

    mem = setup(tmp_path, 400)
    path = paths.recall_index_file()
    assert writer.update(path, [mem], None) == (400, 400)
    conn = sqlite3.connect(path)
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    leaves = [p for (p,) in conn.execute("SELECT pageno FROM dbstat WHERE name='lex_doc' AND pagetype='leaf'")]
    conn.close()
    assert len(leaves) > 5
    with open(path, "r+b") as fh:  # the entries' words: only a search reads them
        for page in leaves:
            fh.seek((page - 1) * size)
            fh.write(b"\xff" * size)
    where, args = lookup.scope_sql([mem], "proj")
    found, indexed = for_commands.read_current(path, [mem], None,
                                               lambda c: found_by(c, "queues", where, args, 1000), deep=True)
    assert indexed == 400 and len(found) == 400

def _visible(conn, mdir, project, query):
    where, args = lookup.scope_sql([mdir], project)
    return [(r[1], r[10]) for r in found_by(conn, query, where, args, 10)]


def test_a_marker_hides_an_id_in_its_own_project_only(tmp_path):
    """Decision ids come from the summary: two projects can hold the same one. Forgetting it in one
    leaves the other's copy in the other's recall and search."""
    summary = "Use advisory locks for the deployment scheduler"
    mdirs = {}
    for name in ("alpha", "beta"):
        mdirs[name] = paths.memory_dir(ms.make_project(tmp_path, name))
        ms.write_jsonl(os.path.join(mdirs[name], files.DECISIONS), [ms.decision(NOW, summary, "r", project=name)])
    did = ids.entry_id("decision", summary)
    ms.write_jsonl(os.path.join(mdirs["alpha"], "marks.jsonl"),
                   [{"op": "forget", "id": did, "reason": "not here", "ts": ms.iso(NOW), "run": "r"}])
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, list(mdirs.values()), None)
    assert _visible(conn, mdirs["alpha"], "alpha", '"advisory"') == []
    assert _visible(conn, mdirs["beta"], "beta", '"advisory"') == [(did, mdirs["beta"])]


def test_a_learning_forgotten_by_its_project_is_hidden_wherever_it_is_seen(tmp_path):
    """A learning is one file, seen by every project when its scope is general: a marker of its
    project hides it from all of them."""
    ldir = str(tmp_path / "learnings")
    alpha = paths.memory_dir(ms.make_project(tmp_path, "alpha"))
    beta = paths.memory_dir(ms.make_project(tmp_path, "beta"))
    ms.write_learning(ldir, "Rebase onto main before tagging a release", "alpha", NOW, scope="general")
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [alpha, beta], ldir)
    [(lid, _)] = _visible(conn, beta, "beta", '"rebase"')
    ms.write_jsonl(os.path.join(alpha, "marks.jsonl"),
                   [{"op": "forget", "id": lid, "reason": "wrong", "ts": ms.iso(NOW), "run": "r"}])
    store.refresh_within(conn, [alpha, beta], ldir)
    assert _visible(conn, alpha, "alpha", '"rebase"') == []
    assert _visible(conn, beta, "beta", '"rebase"') == []


def test_an_edit_in_place_that_keeps_the_size_is_reindexed(tmp_path):
    """A word overwritten by as many characters (a typo fixed, a secret blanked out) in the middle of
    the file, same inode, same size: the index drops the old text at the next refresh."""
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    path = os.path.join(mem, files.DECISIONS)
    ms.write_jsonl(path, [ms.decision(NOW + i, f"decision {i} about queues", "r" * 300) for i in range(20)])
    conn = store.connect(paths.recall_index_file())
    assert store.refresh_within(conn, [mem], None) == (20, True)
    with open(path, "rb") as fh:
        data = fh.read()
    edited = data.replace(b"decision 10 about queues", b"decision 10 about XXXXXX")
    assert len(edited) == len(data) and edited != data
    with open(path, "r+b") as fh:  # in place: the same inode
        fh.write(edited)
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 1_000_000))  # a new time, whatever the clock's grain
    assert store.refresh_within(conn, [mem], None) == (20, True)
    assert holders(conn, "xxxxxx") == 1
    assert holders(conn, "queues") == 19


def test_an_edit_in_place_then_a_line_appended_is_reindexed(tmp_path):
    """A secret blanked out in the middle of the file by as many characters, same inode, then a line
    appended before the index is refreshed (the worker persists after a hand edit made during the
    session): the blanked text is what the index holds, not the secret."""
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    path = os.path.join(mem, files.DECISIONS)
    ms.write_jsonl(path, [ms.decision(NOW + i, f"decision {i} token ghp{i:02d}secretsecret", "r" * 300)
                          for i in range(20)])
    conn = store.connect(paths.recall_index_file())
    assert store.refresh_within(conn, [mem], None) == (20, True)
    with open(path, "rb") as fh:
        data = fh.read()
    edited = data.replace(b"ghp15secretsecret", b"REDACTEDredacted_")
    assert len(edited) == len(data) and edited != data
    with open(path, "r+b") as fh:  # in place: the same inode
        fh.write(edited)
    ms.write_jsonl(path, [ms.decision(NOW + 30, "decision 20 about queues", "r")])
    assert store.refresh_within(conn, [mem], None) == (21, True)
    assert holders(conn, "ghp15secretsecret") == 0 and holders(conn, "redactedredact") == 1
    assert conn.execute("SELECT count(*) FROM entry WHERE title LIKE '%ghp15%'").fetchone()[0] == 0
    ms.write_jsonl(path, [ms.decision(NOW + 31, "decision 21 about queues", "r")])
    assert store.refresh_within(conn, [mem], None) == (1, True)  # a plain append: read from where it stopped


def test_a_line_with_a_byte_that_is_not_utf8_is_indexed_all_the_same(tmp_path):
    mem = setup(tmp_path, 2)
    with open(os.path.join(mem, files.DECISIONS), "ab") as fh:
        fh.write(json.dumps(ms.decision(NOW, "Run kubernetes jobs caf\u00e9 style", "r")).encode().replace(
            b"caf\\u00e9", b"caf\xff") + b"\n")
    conn = store.connect(paths.recall_index_file())
    assert store.refresh_within(conn, [mem], None) == (3, True)
    assert holders(conn, "kubernetes") == 1


def test_the_index_and_the_folders_it_creates_are_private_to_the_user(tmp_path):
    import stat

    path = tmp_path / "cache" / "lazy-harness" / "recall" / "index.sqlite"
    store.connect(str(path)).close()
    for p in (path.parent.parent.parent, path.parent.parent, path.parent):
        assert stat.S_IMODE(p.stat().st_mode) == 0o700, p
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_an_index_made_again_after_an_upgrade_or_damage_is_private_too(tmp_path):
    """The file of another version (an upgrade) or a damaged one is removed and made again by
    ``connect``: the new one is the user's alone as well (SQLite alone would make it 0644)."""
    import stat

    path = tmp_path / "recall" / "index.sqlite"
    old = os.umask(0o022)
    try:
        conn = store.connect(str(path))
        conn.execute("UPDATE meta SET v = '1' WHERE k = 'version'")
        conn.close()
        store.connect(str(path)).close()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert store.connect(str(path)).execute("SELECT v FROM meta WHERE k='version'").fetchone()[0] == store.VERSION
        for name in os.listdir(path.parent):
            if name.startswith("index.sqlite-"):
                os.remove(path.parent / name)
        path.write_bytes(b"not an index at all" * 100)
        store.connect(str(path)).close()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_cues_are_kept_apart_one_per_line_in_their_order(tmp_path):
    # why: the embedder compares the prompt with each cue alone (ADR 0020); the tags column joins them
    mem = setup(tmp_path, 0)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW, "queue files, not sqlite", "r", cues=["why a file queue\nand not sqlite", "  spool  folder "]),
        ms.decision(NOW, "written before cues", "r")])
    ms.write_jsonl(os.path.join(mem, files.FAILURES), [ms.failure(NOW, "worker died", "p", cues=["worker gone"])])
    ldir = paths.learnings_dir()
    ms.write_learning(ldir, "fts5 needs the porter tokenizer", "proj", NOW, cues=["stemming in sqlite search",
                                                                                 "why deploying misses deployment"])
    ms.write_handoff(mem, ["finish the embedder"], "s-1", NOW)
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mem], ldir)
    got = dict(conn.execute("SELECT title, cues FROM entry").fetchall())
    assert got == {"queue files, not sqlite": "why a file queue and not sqlite\nspool folder",
                   "written before cues": "", "worker died": "worker gone",
                   "fts5 needs the porter tokenizer": "stemming in sqlite search\nwhy deploying misses deployment",
                   "finish the embedder": ""}
    # the words of the cues are still searched with the tags
    tags = conn.execute("SELECT tags FROM entry WHERE title = 'worker died'").fetchone()[0]
    assert "worker gone" in tags


def test_an_index_of_the_version_before_the_cues_column_is_rebuilt(tmp_path):
    mem = setup(tmp_path, 2)
    path = paths.recall_index_file()
    conn = store.connect(path)
    store.refresh_within(conn, [mem], None)
    conn.execute("UPDATE meta SET v = '7' WHERE k = 'version'")
    conn.close()
    conn = store.connect(path)
    assert conn.execute("SELECT count(*) FROM entry").fetchone()[0] == 0  # started again
    assert store.refresh_within(conn, [mem], None) == (2, True)
    assert [r[0] for r in conn.execute("SELECT cues FROM entry")] == ["", ""]


def _slow_candidates(conn, word, where, args, limit):
    """What ``candidates`` must equal: FTS5 (the porter tokenizer, bm25 with the same weights) over
    every entry's text in a table of its own, every match joined and filtered: (id, score) best first."""
    fts = sqlite3.connect(":memory:")
    fts.execute("CREATE VIRTUAL TABLE fts USING fts5(title, body, tags, "
                "tokenize='porter unicode61 remove_diacritics 2')")
    fts.executemany("INSERT INTO fts(rowid, title, body, tags) VALUES (?,?,?,?)",
                    conn.execute("SELECT rowid, title, body, tags FROM entry").fetchall())
    w = ",".join(str(x) for x in lookup.FIELD_WEIGHTS)
    score = dict(fts.execute(f"SELECT rowid, bm25(fts, {w}) FROM fts WHERE fts MATCH ?", (f'"{word}"',)))
    visible = conn.execute(f"SELECT e.rowid, e.id FROM entry e WHERE {where}{lookup.VISIBLE}", args).fetchall()
    return sorted(((i, score[r], r) for r, i in visible if r in score), key=lambda x: (x[1], x[2]))[:limit]


def same(got, want):
    return [r[1] for r in got] == [w[0] for w in want] and all(
        math.isclose(r[-1], w[1], rel_tol=1e-9) for r, w in zip(got, want, strict=True))


def test_candidates_equal_the_whole_query_when_other_projects_hold_the_best_matches(tmp_path):
    ours = ms.make_project(tmp_path, "ours")
    theirs = ms.make_project(tmp_path, "theirs")
    mine, other = paths.memory_dir(ours), paths.memory_dir(theirs)
    # the other project's entries match better (the word three times) and outnumber the shortlist
    ms.write_jsonl(os.path.join(other, files.DECISIONS), [
        ms.decision(NOW + i, f"queue queue queue number {i}", "queue", project="theirs") for i in range(40)])
    ms.write_jsonl(os.path.join(mine, files.DECISIONS), [
        ms.decision(NOW + i, f"the queues of ours, {i}", "kept short", project="ours") for i in range(6)])
    forgotten = ids.entry_id("decision", "the queues of ours, 2")
    ms.write_jsonl(os.path.join(mine, files.DECISIONS), [{"op": "forget", "id": forgotten}])
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mine, other], None)
    where, args = lookup.scope_sql([mine], "ours")
    for limit in (1, 3, 5, 10):
        got = found_by(conn, "queue", where, args, limit)
        assert same(got, _slow_candidates(conn, "queue", where, args, limit))
        assert all(r[10] == mine for r in got) and forgotten not in [r[1] for r in got]
    assert len(found_by(conn, "queue", where, args, 10)) == 5  # every visible one of ours ("queues": one stem)
    # one project alone
    where, args = lookup.scope_sql([other], "theirs")
    assert same(found_by(conn, "queue", where, args, 7), _slow_candidates(conn, "queue", where, args, 7))
    assert found_by(conn, "nothing", where, args, 7) == []


def test_hidden_entries_that_match_better_do_not_crowd_a_visible_one_out(tmp_path):
    """More hidden entries (forgotten here; superseded ones and other projects' learnings alike)
    match the prompt better than the whole shortlist holds: the visible one is still found, as the
    whole query finds it."""
    ours = ms.make_project(tmp_path, "ours")
    mine = paths.memory_dir(ours)
    hidden = [f"queue queue queue number {i}" for i in range(130)]
    ms.write_jsonl(os.path.join(mine, files.DECISIONS), [
        ms.decision(NOW + i, text, "queue", project="ours") for i, text in enumerate(hidden)] + [
        ms.decision(NOW + 200, "the queue of ours", "kept short", project="ours")] + [
        {"op": "forget", "id": ids.entry_id("decision", text)} for text in hidden])
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mine], None)
    where, args = lookup.scope_sql([mine], "ours")
    for limit in (1, 5, 60):
        got = found_by(conn, "queue", where, args, limit)
        assert [r[8] for r in got] == ["the queue of ours"], (limit, got[:3])
        assert same(got, _slow_candidates(conn, "queue", where, args, limit))


def test_a_line_appended_while_the_index_reads_is_read_next_time_from_where_it_stopped(tmp_path, monkeypatch):
    """The worker may append while a hook catches up: what the index records (stamp, offset) must
    describe the bytes it read, or the next search reads the whole file again."""
    from lazy_harness.recall.index import sources

    mem = setup(tmp_path, 5)
    path = os.path.join(mem, files.DECISIONS)
    conn = store.connect(paths.recall_index_file())
    assert store.refresh_within(conn, [mem], None) == (5, True)
    ms.write_jsonl(path, [ms.decision(NOW, "decision 5 about queues", "r")])
    real = sources.read_jsonl

    def racing(*args, **kwargs):  # the worker appends between the plan's stat and the read
        ms.write_jsonl(path, [ms.decision(NOW, "decision 6 about queues", "r")])
        monkeypatch.setattr(sources, "read_jsonl", real)
        return real(*args, **kwargs)

    monkeypatch.setattr(sources, "read_jsonl", racing)
    # the line the plan saw, then (the refresh goes on until the files and the index agree) the one
    # appended meanwhile, alone: 7 would mean the whole file was read again
    assert store.refresh_within(conn, [mem], None) == (2, True)
    assert [r[1] for r in rows(conn)] == [1, 2, 3, 4, 5, 6, 7]
    assert store.refresh_within(conn, [mem], None) == (0, True)


def test_a_locked_index_is_an_error_and_is_not_removed(tmp_path):
    """Busy is not damage: the file another process is writing must survive a hook that gives up."""
    import sqlite3

    path = paths.recall_index_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    other = sqlite3.connect(path, isolation_level=None)  # rollback journal: a writer locks readers out
    other.execute("CREATE TABLE meta(k TEXT PRIMARY KEY, v TEXT)")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("INSERT INTO meta VALUES ('being', 'written')")
    try:
        try:
            store.connect(path, timeout=0.2).close()
            raised = None
        except sqlite3.OperationalError as exc:
            raised = exc
        assert raised is not None and "locked" in str(raised)
        assert os.path.exists(path)
    finally:
        other.execute("COMMIT")
        other.close()
    check = sqlite3.connect(path)
    assert check.execute("SELECT v FROM meta WHERE k='being'").fetchone() == ("written",)
    check.close()


def test_a_deep_count_looks_for_edits_in_place_in_the_newest_month_folders_only(tmp_path):
    """An editor that writes a learning in place leaves its folder's stat unchanged: ``deep=1`` (as
    ``lh memory search`` does with its newest folders) finds the edit in the newest folder only,
    ``deep=True`` (the builder) in every one."""
    ldir = paths.learnings_dir()
    old = ms.write_learning(ldir, "Pin the base image digest", "proj", NOW - 90 * ms.DAY, learning="kept short")
    new = ms.write_learning(ldir, "Rotate the signing key yearly", "proj", NOW, learning="kept short")
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [], ldir)

    def bodies():
        return {r[0]: r[1] for r in conn.execute("SELECT file, body FROM entry")}

    folders = {p: os.stat(os.path.dirname(p)).st_mtime_ns for p in (old, new)}
    for path in (old, new):
        with open(path, "r+", encoding="utf-8") as fh:  # in place, as such an editor saves
            text = fh.read().replace("kept short", "edited by hand")
            fh.seek(0)
            fh.write(text)
            fh.truncate()
    assert {p: os.stat(os.path.dirname(p)).st_mtime_ns for p in (old, new)} == folders
    assert store.refresh_within(conn, [], ldir) == (0, True)  # the hook's look: neither folder changed
    assert store.refresh_within(conn, [], ldir, deep=1) == (1, True)
    seen = bodies()
    assert "edited by hand" in seen[new] and "kept short" in seen[old]
    assert store.refresh_within(conn, [], ldir, deep=True) == (1, True)
    assert "edited by hand" in bodies()[old]


def test_a_word_with_a_dotted_capital_i_is_found_however_it_is_typed(tmp_path):
    """Turkish "İ" lower-cases to "i" and a combining dot: the index and the prompt's words both drop
    the mark, so "İzmir" is found by "İzmir", "izmir" and "İZMİR" (before, by none of them)."""
    root = ms.make_project(tmp_path, "proj")
    mine = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mine, files.DECISIONS), [
        ms.decision(NOW, "İzmir warehouse orders ship from the second depot", "closer"),
        ms.decision(NOW + 1, "Invoices are exported nightly", "finance")])
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mine], None)
    where, args = lookup.scope_sql([mine], "proj")
    for typed in ("İzmir", "izmir", "İZMİR", "İzmir".lower()):
        word = terms.words(typed)
        assert len(word) == 1, (typed, word)
        got = found_by(conn, word[0], where, args, 5)
        assert [r[8] for r in got] == ["İzmir warehouse orders ship from the second depot"], typed


def test_a_where_with_braces_searches_as_written(tmp_path):
    """``candidates`` fills its ``IN (...)`` lists with str.format: a brace in the caller's ``where``
    (a literal in its SQL) is text, not a field of that format."""
    mem = setup(tmp_path, 3)
    conn = store.connect(paths.recall_index_file())
    store.refresh_within(conn, [mem], None)
    where, args = lookup.scope_sql([mem], "proj")
    plain = {r[1] for r in found_by(conn, "queues", where, args, 10)}
    braced = {r[1] for r in found_by(conn, "queues", f"({where}) AND e.title <> '{{x}}'", args, 10)}
    assert len(plain) == 3 and braced == plain
