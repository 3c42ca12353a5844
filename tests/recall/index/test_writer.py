"""The index's one writer (recall/index/writer.py, ADR 0042): the worker and the commands write the index,
the hooks only read it; a build is never thrown away by ``lh memory reindex``; a worker killed
mid-build leaves its task and the next one finishes it; a hand edit reaches recall after the next
SessionStart. Real processes throughout, waited on by their events (a line said, a file made, a
process gone), never on the clock."""

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.queue import index_task
from lazy_harness.recall.embed import static_model, vectors
from lazy_harness.recall.index import store, writer
from lazy_harness.recall.prompt import rank
from tests.hooks.hookrun import hook_log, run_hook, spawned_workers_gone
from tests.support import memory_samples as ms
from tests.support.child_events import gone

NOW = time.time()
ABOUT = "how does the release train queue work"

# A build that stops once its entries are committed, says so (a file), and goes on when told (a file):
# what a long first build looks like to a process that arrives while it runs.
GATED_BUILD = """
import os, sys, time
from lazy_harness import paths
from lazy_harness.recall.index import apply, writer
real = apply.remake_short
def gated(conn, *a, **k):
    open(sys.argv[2], "w").close()
    while not os.path.exists(sys.argv[3]):
        time.sleep(0.01)  # the test's go: an event, looked at until it is there
    return real(conn, *a, **k)
apply.remake_short = gated
got = writer.update(paths.recall_index_file(), [sys.argv[1]], None)
print("built", got, flush=True)
"""


def big_memory(tmp_path, n: int) -> tuple[str, str]:
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS),
                   [ms.decision(NOW - n + i, f"decision {i} about the release train and its queue", "why " * 30,
                                cues=[f"how does step {i} of the release work"]) for i in range(n)])
    return root, mem


def rows(path: str) -> tuple[int, int, int]:
    """(entries, distinct ids, highest rowid) of the index; zeros before it has a table."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT count(*), count(DISTINCT id), coalesce(max(rowid), 0) FROM entry").fetchone()
    except sqlite3.OperationalError:
        return 0, 0, 0
    finally:
        conn.close()


def wait_for(path: str, proc: subprocess.Popen) -> None:
    """Wait until ``path`` exists (the child made it), failing at once if the child ended first."""
    while not os.path.exists(path):
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.01)


def gated_build(tmp_path, mem: str) -> tuple[subprocess.Popen, str, str]:
    ready, go = str(tmp_path / "committed"), str(tmp_path / "go")
    proc = subprocess.Popen([sys.executable, "-c", GATED_BUILD, mem, ready, go], env=dict(os.environ),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for(ready, proc)
    return proc, ready, go


def reindex() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "lazy_harness", "memory", "reindex"], env=dict(os.environ),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def said_waiting(proc: subprocess.Popen) -> str:
    """The first line a reindex prints: that it waits for the build running now."""
    line = proc.stdout.readline()
    assert "waiting for the index build running now" in line, (line, proc.communicate())
    return line


def prompt(root: str, sid: str = "s-1", text: str = ABOUT) -> str | None:
    r = run_hook("UserPromptSubmit", {"session_id": sid, "cwd": root, "hook_event_name": "UserPromptSubmit",
                                      "prompt": text})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else None


def test_reindex_during_a_build_waits_with_progress_and_keeps_the_builds_work(tmp_path):
    _, mem = big_memory(tmp_path, 3000)
    path = paths.recall_index_file()
    build, _, go = gated_build(tmp_path, mem)
    assert rows(path)[0] == 3000  # the build's entries are committed; it holds the lock
    cmd = reindex()
    line = said_waiting(cmd)
    assert "3000 entries indexed so far" in line  # the progress: what the running build has written
    assert rows(path)[0] == 3000  # nothing cleared under the build
    open(go, "w").close()
    out, err = cmd.communicate(timeout=300)
    assert cmd.returncode == 0, err
    assert "brought up to date after the build that was running" in out, out
    assert build.wait(timeout=300) == 0 and "built (3000," in build.stdout.read()
    count, distinct, top = rows(path)
    # a full index, and the build's own rows: none indexed twice, none dropped and indexed again
    assert (count, distinct, top) == (3000, 3000, 3000)
    conn = store.connect(path)
    try:
        have, total = ms.vector_counts(conn, static_model.MODEL_ID)
        assert have == total > 0  # embedded, once
        assert conn.execute("SELECT sum(docs) FROM lex_scope").fetchone()[0] == 3000  # each in its word lists
    finally:
        conn.close()


def test_reindex_after_reindex_while_a_build_runs_never_starves_it(tmp_path):
    _, mem = big_memory(tmp_path, 2500)
    path = paths.recall_index_file()
    build, _, go = gated_build(tmp_path, mem)
    waiting = []
    for _ in range(3):  # one after another, each while the build still holds the index
        cmd = reindex()
        said_waiting(cmd)
        waiting.append(cmd)
    assert rows(path)[0] == 2500
    open(go, "w").close()
    assert build.wait(timeout=300) == 0  # the build ends: none of the reindexes took it from under it
    for cmd in waiting:
        out, err = cmd.communicate(timeout=300)
        assert cmd.returncode == 0 and "brought up to date after the build" in out, (out, err)
    assert rows(path) == (2500, 2500, 2500)


def test_reindex_alone_rebuilds_from_the_files(tmp_path):
    _, mem = big_memory(tmp_path, 20)
    path = paths.recall_index_file()
    assert writer.update(path, [mem], None) == (20, 40)
    out, err = reindex().communicate(timeout=120)
    assert "rebuilt: indexed 20 entries" in out, (out, err)
    assert rows(path)[:2] == (20, 20)


def test_a_worker_killed_mid_build_leaves_its_task_and_the_next_one_finishes_it(tmp_path):
    _, mem = big_memory(tmp_path, 4500)  # three parts of store.PART lines
    path = paths.recall_index_file()
    q = paths.queue_dir()
    index_task.ask(q, mem)
    proc = subprocess.Popen([sys.executable, "-m", "lazy_harness.worker"], env=dict(os.environ),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # why: waited on the event itself, a part committed (rows in the file), then killed at once
    while not (os.path.exists(path) and rows(path)[0] > 0):
        assert proc.poll() is None, "the worker ended before its first part"
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    kept = rows(path)[0]
    assert kept > 0 and len(index_task.waiting(q)) == 1  # the task stays until the index holds it all
    from lazy_harness.worker import loop

    loop.run(os.environ)
    assert index_task.waiting(q) == []
    count, distinct, top = rows(path)
    assert count == distinct == 4500 and top == 4500  # every line once: none lost, none twice, none redone
    conn = store.connect(path)
    try:
        have, total = ms.vector_counts(conn, static_model.MODEL_ID)
    finally:
        conn.close()
    assert have == total and total > 0


def test_the_prompt_hook_only_reads_the_index(tmp_path):
    root, mem = big_memory(tmp_path, 30)
    path = paths.recall_index_file()
    writer.update(path, [mem], None)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS),
                   [ms.decision(NOW, "Cut the release train on Tuesdays", "fewer hotfixes")])
    before = rows(path)
    wal = os.stat(path + "-wal").st_size if os.path.exists(path + "-wal") else 0
    prompt(root)
    assert rows(path) == before  # nothing indexed by the hook
    assert (os.stat(path + "-wal").st_size if os.path.exists(path + "-wal") else 0) == wal
    assert "indexed=" not in hook_log(paths.claude_dir())[-1]


def test_a_hand_edit_reaches_recall_after_the_next_session_start(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 9, "Keep the stylesheet in one file")])
    writer.update(paths.recall_index_file(), [mem], paths.learnings_dir())
    with open(os.path.join(mem, files.DECISIONS), "a") as fh:  # by hand, as an editor would
        fh.write(json.dumps(ms.decision(NOW, "The release train queue runs one job per branch",
                                        "two jobs raced", tags=["release", "queue"])) + "\n")
    assert prompt(root) is None  # the hook reads the index as the writer left it
    start = run_hook("SessionStart", {"session_id": "s-2", "cwd": root, "hook_event_name": "SessionStart",
                                      "source": "startup"})
    assert start.returncode == 0
    last = hook_log(paths.claude_dir())[-1]
    pid = re.search(r"index behind the memory files: index task queued, worker pid (\d+)", last)
    assert pid, last
    assert gone(int(pid.group(1)), 120)  # the worker: the index's writer
    got = prompt(root, "s-3")
    assert got is not None and "one job per branch" in got, got
    # and the next start finds nothing behind: no second task
    run_hook("SessionStart", {"session_id": "s-4", "cwd": root, "hook_event_name": "SessionStart", "source": "startup"})
    assert "index behind" not in hook_log(paths.claude_dir())[-1]


def test_two_sessions_starting_at_once_get_one_full_index(tmp_path):
    root, mem = big_memory(tmp_path, 1500)
    payload = {"cwd": root, "hook_event_name": "SessionStart", "source": "startup"}
    starts = [subprocess.Popen([sys.executable, "-m", "lazy_harness.hooks", "SessionStart"], stdin=subprocess.PIPE,
                               env=dict(os.environ)) for _ in range(2)]
    for n, p in enumerate(starts):
        p.communicate(json.dumps(dict(payload, session_id=f"s-{n}")).encode(), timeout=60)
        assert p.returncode == 0
    assert sum("index behind the memory files" in line for line in hook_log(paths.claude_dir())) == 2
    spawned_workers_gone(timeout=300)
    while index_task.waiting(paths.queue_dir()):  # a worker that found the lock held left it to the other
        from lazy_harness.worker import loop

        loop.run(os.environ)
    assert rows(paths.recall_index_file())[:2] == (1500, 1500)
    prompt(root)
    last = hook_log(paths.claude_dir())[-1]
    assert f"candidates={rank.POOL} " in last and "index=" not in last, last  # searched the whole index


def test_with_no_index_the_prompt_hook_asks_the_worker_and_never_waits(tmp_path):
    root, mem = big_memory(tmp_path, 40)
    # why: one entry the last prompt is about; the 40 alike are a crowd none of which stands out
    # (ADR 0041), so they answer no prompt
    with open(os.path.join(mem, files.DECISIONS), "a", encoding="utf-8") as fh:
        fh.write(json.dumps(ms.decision(NOW, "Deploy freezes are announced in the ops channel a day ahead",
                                        "people plan around them", cues=["when is the deploy freeze announced"]))
                 + "\n")
    freeze = "when is the deploy freeze announced to the team"
    assert prompt(root, "s-1", freeze) is None
    last = hook_log(paths.claude_dir())[-1]
    assert " index=missing " in last and "index task queued, worker pid" in last, last
    spawned_workers_gone(timeout=120)
    assert rows(paths.recall_index_file())[0] == 41
    assert "Deploy freezes are announced" in (prompt(root, "s-2", freeze) or "")


def test_one_writer_at_a_time(tmp_path):
    _, mem = big_memory(tmp_path, 10)
    lock = writer.lock_file(paths.recall_index_file())
    os.makedirs(os.path.dirname(lock), exist_ok=True)
    import fcntl

    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert writer.update(paths.recall_index_file(), [mem], None) is None  # another holds it: leaves
        assert writer.after_write(os.environ, mem, None) is None  # the command leaves it to the worker
    finally:
        os.close(fd)
    assert writer.after_write(os.environ, mem, None) == (10, 20)


def test_behind_is_a_few_stats_against_what_the_writer_saw(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mem, ldir = paths.memory_dir(root), paths.learnings_dir()
    assert not writer.behind(os.environ, mem, ldir)  # no memory of its own: nothing to ask for
    ms.write_jsonl(os.path.join(mem, files.FAILURES), [ms.failure(NOW, "The queue stalled", "restart it")])
    assert writer.behind(os.environ, mem, ldir)
    writer.update(paths.recall_index_file(), [mem], ldir)
    assert not writer.behind(os.environ, mem, ldir)
    ms.write_jsonl(os.path.join(mem, files.FAILURES), [ms.failure(NOW, "The queue stalled again", "restart it")])
    assert writer.behind(os.environ, mem, ldir)
    writer.update(paths.recall_index_file(), [mem], ldir)
    store.remove(paths.recall_index_file())  # the cache cleared
    assert writer.behind(os.environ, mem, ldir)


def test_a_command_that_changes_memory_brings_the_index_up_to_date_at_once(tmp_path):
    """``lh memory forget`` writes through the index's writer: the next prompt (which only reads)
    no longer gets the entry, with no session start in between; a writer busy elsewhere: an index
    task for the worker instead."""
    from lazy_harness.memory import ids
    from tests.cli.lhrun import invoke

    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    summary = "The release train queue runs one job per branch"
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - 9, "Keep the stylesheet in one file"),
        ms.decision(NOW, summary, "two jobs raced", tags=["release", "queue"])])
    ms.index_now()
    assert "one job per branch" in (prompt(root, "s-8") or "")
    eid = ids.entry_id("decision", summary)
    out = invoke("memory", "forget", eid, "--project", root)
    assert out.code == 0, out.err
    assert prompt(root, "s-9") is None
    assert "index=" not in hook_log(paths.claude_dir())[-1]
    import fcntl

    fd = os.open(writer.lock_file(paths.recall_index_file()), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # another writer at work: the command leaves it a task
        assert invoke("memory", "undo", "--project", root).code == 0
        assert len(index_task.waiting(paths.queue_dir())) == 1
    finally:
        os.close(fd)


def test_a_learning_written_for_one_project_leaves_no_other_project_behind(tmp_path):
    """The learnings folder is shared: the writer's record of it is one, so a learning another
    project's update indexed does not send every other project's next start to the worker."""
    a, b = ms.make_project(tmp_path, "alpha"), ms.make_project(tmp_path, "beta")
    ldir = paths.learnings_dir()
    for root in (a, b):
        ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS), [ms.decision(NOW, f"Ship {root}")])
        writer.update(paths.recall_index_file(), [paths.memory_dir(root)], ldir)
    month = os.path.join(ldir, "2026-11")
    os.makedirs(month, exist_ok=True)
    with open(os.path.join(month, "2026-11-28-a-note.md"), "w") as fh:
        fh.write("---\nid: l-0badcafe\ntitle: A note\nscope: general\nstatus: active\n---\nA note.\n")
    assert writer.behind(os.environ, paths.memory_dir(b), ldir)  # a learning by hand: behind for all
    writer.update(paths.recall_index_file(), [paths.memory_dir(a)], ldir)  # alpha's update indexes it
    assert not writer.behind(os.environ, paths.memory_dir(b), ldir)


def test_show_prompt_says_when_another_process_is_writing_the_index(tmp_path):
    """A command never waits for the index either: it searches what is there and says so."""
    import fcntl

    from tests.cli.lhrun import invoke

    root, mem = big_memory(tmp_path, 12)
    writer.update(paths.recall_index_file(), [mem], None)
    fd = os.open(writer.lock_file(paths.recall_index_file()), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        out = invoke("memory", "show", "--project", root, "--prompt", ABOUT)
    finally:
        os.close(fd)
    assert out.code == 0, out.err
    assert "(the search index is being written by another process, 12 entries so far" in out.out, out.out


def test_an_index_task_for_a_folder_outside_the_memory_root_is_dropped(tmp_path):
    """The worker indexes only memory folders under its memory root, with its own learnings folder,
    whatever a task file names."""
    from lazy_harness.worker import loop

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    ms.write_jsonl(str(elsewhere / files.DECISIONS), [ms.decision(NOW, "Not a memory folder of ours")])
    index_task.ask(paths.queue_dir(), str(elsewhere))
    loop.run(os.environ)
    assert index_task.waiting(paths.queue_dir()) == []
    with open(os.path.join(paths.logs_dir(), "worker.log"), encoding="utf-8") as fh:
        assert "not a memory folder under" in fh.read()
    assert not os.path.exists(paths.recall_index_file())  # nothing of it indexed


def test_an_index_task_that_fails_stays_for_the_next_worker_and_this_one_leaves(tmp_path, monkeypatch):
    from lazy_harness.worker import loop

    _, mem = big_memory(tmp_path, 5)
    index_task.ask(paths.queue_dir(), mem)

    def broken(*args, **kwargs):
        raise OSError("no room on the cache's disk")

    monkeypatch.setattr(writer, "update", broken)
    loop.run(os.environ)  # returns: a task it cannot do does not keep it going round
    assert len(index_task.waiting(paths.queue_dir())) == 1
    with open(os.path.join(paths.logs_dir(), "worker.log"), encoding="utf-8") as fh:
        assert "index task failed: OSError: no room on the cache's disk" in fh.read()


def _missing_looks(monkeypatch) -> list[int]:
    """Count the writer's looks for texts without a vector."""
    calls: list[int] = []
    real = vectors.missing

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(vectors, "missing", counted)
    return calls


def _unembedded(path: str) -> list:
    conn = store.connect(path)
    try:
        return vectors.missing(conn, static_model.MODEL_ID, 0, 10)
    finally:
        conn.close()


def test_an_update_with_nothing_new_does_not_look_for_texts_without_vectors(tmp_path, monkeypatch):
    root, mem = big_memory(tmp_path, 30)
    path = paths.recall_index_file()
    writer.update(path, [mem], None)
    looks = _missing_looks(monkeypatch)
    assert writer.update(path, [mem], None) == (0, 0)
    assert writer.update(path, [mem], None) == (0, 0)
    assert looks == []
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW, "a new decision about the queue", "why")])
    indexed, embedded = writer.update(path, [mem], None)
    assert indexed == 1 and embedded >= 1 and looks
    assert _unembedded(path) == []


def test_a_writer_killed_between_indexing_and_embedding_leaves_the_next_update_to_embed(tmp_path, monkeypatch):
    root, mem = big_memory(tmp_path, 30)
    path = paths.recall_index_file()
    writer.update(path, [mem], None)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW, "a new decision about the queue", "why")])

    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # the process ends after the entry was indexed, before its vectors

    with monkeypatch.context() as m:
        m.setattr(vectors, "fill", killed)
        try:
            writer.update(path, [mem], None)
        except KeyboardInterrupt:
            pass
    assert _unembedded(path)
    assert writer.update(path, [mem], None)[1] >= 1  # nothing new to index, the vectors still made
    assert _unembedded(path) == []


def test_a_lone_surrogate_in_one_line_does_not_stop_the_index(tmp_path):
    """``"\\ud83d"`` is valid JSON (a tool that cut a string between the two halves of an emoji writes
    it; so can a hand edit): SQLite refused the whole write, the worker's index task failed at every
    try, and every project's prompts got nothing. The line is indexed with the half replaced."""
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 9, "Kafka rebalances use static membership")])
    with open(os.path.join(mem, files.DECISIONS), "a", encoding="utf-8") as fh:
        fh.write('{"ts": "2026-11-28T10:00:00+00:00", "type": "decision", "project": "proj", "summary": '
                 '"Zookeeper quorum \\ud83d size is five nodes", "rationale": "odd \\ud83d\\ude80 ok", '
                 '"tags": ["zookeeper", "quorum"]}\n')
    assert writer.update(paths.recall_index_file(), [mem], paths.learnings_dir())[0] == 2
    got = prompt(root, "s-2", "what size is the zookeeper quorum")
    assert got is not None and "Zookeeper quorum" in got and "five nodes" in got, got


def _two_indexed(tmp_path) -> tuple[str, str, str]:
    a, b = ms.make_project(tmp_path, "alpha"), ms.make_project(tmp_path, "beta")
    for root in (a, b):
        ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS), [ms.decision(NOW, f"Ship {root}")])
    writer.update(paths.recall_index_file(), [paths.memory_dir(a), paths.memory_dir(b)], paths.learnings_dir())
    assert not writer.behind(os.environ, paths.memory_dir(b), paths.learnings_dir())
    return paths.memory_dir(a), paths.memory_dir(b), paths.learnings_dir()


def test_an_index_removed_and_rebuilt_for_one_project_leaves_the_others_behind(tmp_path):
    """A damaged index (or one of another version, after an upgrade) is removed by whoever finds it and
    built again by an index task for that prompt's project: every other project's record of what the
    writer saw is void with it, so its next session start asks for its own index task (its entries
    were no longer in the index, and prompts there found nothing)."""
    mem_a, mem_b, ldir = _two_indexed(tmp_path)
    store.remove(paths.recall_index_file())
    writer.update(paths.recall_index_file(), [mem_a], ldir)
    assert writer.behind(os.environ, mem_b, ldir)


def test_an_index_of_another_version_made_again_leaves_the_others_behind(tmp_path):
    mem_a, mem_b, ldir = _two_indexed(tmp_path)
    conn = sqlite3.connect(paths.recall_index_file())
    conn.execute("UPDATE meta SET v='1' WHERE k='version'")
    conn.commit()
    conn.close()
    writer.update(paths.recall_index_file(), [mem_a], ldir)  # connect finds another version and starts anew
    assert writer.behind(os.environ, mem_b, ldir)
    writer.update(paths.recall_index_file(), [mem_b], ldir)
    assert not writer.behind(os.environ, mem_b, ldir) and not writer.behind(os.environ, mem_a, ldir)


def test_the_index_task_after_the_index_was_made_anew_indexes_every_project(tmp_path):
    """The first index task after the index was removed (damaged, or of another version after an
    upgrade) brings every project's memory back into it, not only the folder its prompt asked for."""
    from lazy_harness.worker import reindex

    mem_a, mem_b, ldir = _two_indexed(tmp_path)
    store.remove(paths.recall_index_file())
    index_task.ask(paths.queue_dir(), mem_a)
    said: list[str] = []
    reindex.run_tasks(os.environ, paths.memory_root(), ldir, said.append)
    assert not writer.behind(os.environ, mem_a, ldir) and not writer.behind(os.environ, mem_b, ldir)
    conn = sqlite3.connect(paths.recall_index_file())
    folders = {row[0] for row in conn.execute("SELECT DISTINCT mdir FROM entry")}
    conn.close()
    assert {mem_a, mem_b} <= folders, folders
