"""Sync with real git: two machine homes, one bare remote on disk."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lazy_harness import config, paths, sync
from lazy_harness.memory import entries, ids

KEY = "-work-demo"


def _git(*args, cwd=None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


class Machine:
    def __init__(self, root: Path, remote: Path, name: str) -> None:
        self.home = root / name
        self.home.mkdir()
        self.env = {**os.environ, "HOME": str(self.home), "XDG_DATA_HOME": str(self.home / "data"),
                    "XDG_CONFIG_HOME": str(self.home / "config"), "CLAUDE_CONFIG_DIR": str(self.home / "claude")}
        self.cfg = config.defaults()
        self.cfg["sync"]["remote"] = str(remote)
        self.data = Path(paths.data_dir(self.env))
        self.mdir = self.data / "projects" / KEY

    def add(self, kind: str, summary: str, session: str = "s1") -> str:
        self.mdir.mkdir(parents=True, exist_ok=True)
        rec = entries.record(kind, {"summary": summary}, {"project": "demo", "session_id": session, "task_id": "t"},
                             time.time())
        rec = {"id": ids.entry_id(kind, summary), **rec}
        with open(self.mdir / f"{kind}s.jsonl", "a", encoding="utf-8") as fh:
            fh.write(json.dumps(rec) + "\n")
        return rec["id"]

    def sync(self, **kw) -> dict:
        return sync.run(self.cfg, self.env, **kw)

    def ids(self, kind: str) -> list[str]:
        path = self.mdir / f"{kind}s.jsonl"
        if not path.exists():
            return []
        return [ids.of_record(json.loads(line), kind) for line in path.read_text().splitlines() if line.strip()]

    def no_conflict_markers(self) -> None:
        for p in self.data.rglob("*"):
            if p.is_file() and ".git" not in p.parts:
                text = p.read_bytes()
                assert b"<<<<<<<" not in text and b">>>>>>>" not in text, p


def _converge(a: Machine, b: Machine, expected: set[str]) -> None:
    """Sync a, b, a: then both hold every expected decision exactly once and no conflict marker."""
    a.sync()
    b.sync()
    a.sync()
    for m in (a, b):
        got = m.ids("decision")
        assert sorted(got) == sorted(expected) and len(got) == len(set(got))
        m.no_conflict_markers()


@pytest.fixture
def two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    return Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")


def test_sessions_on_both_machines_end_up_on_both_exactly_once(two):
    a, b = two
    a1 = a.add("decision", "Use SQLite for the index")
    b1 = b.add("decision", "Ship the CLI as a wheel")
    shared = a.add("failure", "tests hang on CI")
    assert b.add("failure", "Tests hang on CI.") == shared  # the same entry written on both
    a.sync()
    b.sync()
    a.sync()
    for m in (a, b):
        assert sorted(m.ids("decision")) == sorted([a1, b1])
        assert m.ids("failure") == [shared]
        m.no_conflict_markers()


@pytest.mark.parametrize("order", ["abab", "baba", "aabb", "bbaa", "abba"])
def test_every_order_converges(two, order):
    a, b = two
    machines = {"a": a, "b": b}
    expected = set()
    for n, who in enumerate(order):
        expected.add(machines[who].add("decision", f"decision {n} from {who}"))
        machines[who].sync()
    _converge(a, b, expected)


def test_a_line_removed_on_one_side_stays_removed(two):
    a, b = two
    a.add("decision", "kept")
    a.mdir.mkdir(parents=True, exist_ok=True)
    (a.mdir / "marks.jsonl").write_text('{"op": "forget", "id": "d-00000001", "reason": "x"}\n')
    a.sync()
    b.sync()
    (a.mdir / "marks.jsonl").write_text("")  # lh memory undo removed the mark
    b.add("decision", "new on b")
    a.sync()
    b.sync()
    a.sync()
    assert (a.mdir / "marks.jsonl").read_text() == "" and (b.mdir / "marks.jsonl").read_text() == ""


def test_only_the_data_folder_and_no_machine_state_is_committed(two):
    a, _ = two
    a.add("decision", "x")
    (a.mdir / "consolidate.lock").write_text("")
    (a.mdir / "handoff.md").write_text("# rendered\n")
    a.sync()
    files = _git("ls-files", cwd=a.data).split()
    assert f"projects/{KEY}/decisions.jsonl" in files
    assert not any(f.endswith(("consolidate.lock", "handoff.md", ".sync-state.json", ".sync.lock")) for f in files)


def test_a_secret_refuses_the_push(two):
    a, b = two
    a.add("decision", "Rotate AKIAIOSFODNN7EXAMPLE tomorrow")
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    assert "push refused" in exc.value.message and "decisions.jsonl" in exc.value.message
    assert _git("--git-dir", str(Path(a.cfg["sync"]["remote"])), "branch", "--list").strip() == ""
    assert "push refused" in sync.status(a.cfg, a.env)["last_error"]


def test_status_counts_ahead_and_behind(two):
    a, b = two
    a.add("decision", "one")
    a.sync()
    b.sync()
    a.add("decision", "two")
    a.sync()
    _git("fetch", "-q", "origin", cwd=b.data)
    b.add("decision", "three")
    sync.commit_local(str(b.data), b.env)
    st = sync.status(b.cfg, b.env)
    assert st["ahead"] == 1 and st["behind"] >= 1  # b has "three"; a pushed "two" (and a merge)


def test_no_remote_is_a_clear_error(two):
    a, _ = two
    a.cfg["sync"]["remote"] = ""
    with pytest.raises(sync.SyncError, match="no remote configured"):
        a.sync()


def test_leftovers_of_a_killed_round_are_repaired(two):
    a, b = two
    a.add("decision", "one")
    a.sync()
    (a.data / ".git" / "index.lock").write_text("")
    (a.data / ".git" / "refs" / "heads" / "main.lock").write_text("")
    b.add("decision", "two")
    b.sync()
    a.add("decision", "three")
    result = a.sync()
    assert "removed a stale index.lock" in result["repaired"]
    assert len(a.ids("decision")) == 3


SYNC_PROC = r"""
import json, os, sys
from lazy_harness import config, sync
cfg = config.defaults()
cfg["sync"]["remote"] = sys.argv[1]
try:
    print(json.dumps(sync.run(cfg, os.environ)))
except sync.SyncError as exc:
    print(json.dumps({"error": exc.message}))
"""


def _start(m: Machine) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", SYNC_PROC, m.cfg["sync"]["remote"]], env=m.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def test_both_machines_syncing_at_the_same_time(two):
    a, b = two
    expected = {a.add("decision", f"a{n}") for n in range(5)} | {b.add("decision", f"b{n}") for n in range(5)}
    procs = [_start(a), _start(b)]
    outs = [json.loads(p.communicate(timeout=120)[0]) for p in procs]
    assert all("error" not in o for o in outs), outs
    a.sync()
    b.sync()
    a.sync()
    for m in (a, b):
        assert sorted(m.ids("decision")) == sorted(expected)
        m.no_conflict_markers()


def test_two_syncs_on_one_machine_never_interleave(two):
    a, _ = two
    a.add("decision", "x")
    procs = [_start(a) for _ in range(3)]
    outs = [json.loads(p.communicate(timeout=120)[0]) for p in procs]
    assert all("error" not in o or "another lh sync" in o["error"] for o in outs), outs
    assert any("error" not in o for o in outs)


def _group_gone(pgid: int, timeout: float = 30) -> None:
    """Wait until no live process of group ``pgid`` is left. SIGKILL reaches a git child that is
    inside a system call (creating index.lock, say) only when the call returns, which can be after
    the round's own process was reaped: a repair run before that would see the lock come back."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not os.path.isdir("/proc"):  # no procfs (macOS): a group with zombies only counts as alive
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.01)
            continue
        live = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as fh:
                        fields = fh.read().rsplit(")", 1)[1].split()
                except OSError:
                    continue  # gone between the listing and the read
                if int(fields[2]) == pgid and fields[0] != "Z":
                    live.append(entry)
        if not live:
            return
        time.sleep(0.01)
    raise AssertionError(f"processes of group {pgid} still running after {timeout} s")


def _newest_mtime(folder: Path) -> int:
    """The newest mtime among a folder's entries; git creates and removes lock files meanwhile."""
    newest = 0
    for entry in folder.iterdir():
        try:
            newest = max(newest, entry.stat().st_mtime_ns)
        except FileNotFoundError:
            continue  # a lock file git removed between the listing and the stat
    return newest


@pytest.mark.parametrize("kill_after", [1, 2, 3, 4, 6])
def test_kill_9_half_way_loses_nothing(two, kill_after):
    a, b = two
    expected = {a.add("decision", f"a{n}") for n in range(3)}
    a.sync()
    expected |= {b.add("decision", f"b{n}") for n in range(3)}
    b.sync()
    expected |= {a.add("decision", f"a-late{n}") for n in range(3)}
    p = _start(a)
    # kill when the round has started its n-th git command: a point inside the round, not a time
    gitdir = a.data / ".git"
    seen, deadline = 0, time.monotonic() + 60
    last = None
    while p.poll() is None and seen < kill_after and time.monotonic() < deadline:
        stamp = _newest_mtime(gitdir)
        if stamp != last:
            seen, last = seen + 1, stamp
        time.sleep(0.002)
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGKILL)
    p.wait(timeout=60)
    _group_gone(p.pid)
    _converge(a, b, expected)


def test_merge_lines_is_a_three_way_set_merge():
    e = lambda s: json.dumps({"id": ids.entry_id("decision", s), "type": "decision", "summary": s}).encode()  # noqa: E731
    base = e("x") + b"\n" + e("gone") + b"\n"
    ours = e("x") + b"\n" + e("mine") + b"\n"
    theirs = e("x") + b"\n" + e("gone") + b"\n" + e("theirs") + b"\n" + e("mine") + b"\n"
    merged = sync.merge_lines(base, ours, theirs).split(b"\n")
    assert merged == [e("x"), e("mine"), e("theirs"), b""]


def test_merge_learning_prefers_the_side_that_moved_on():
    active = b"---\ntitle: t\nstatus: active\n---\nbody\n"
    deprecated = b"---\ntitle: t\nstatus: deprecated\n---\nbody\n"
    other = b"---\ntitle: t\nstatus: active\ncreated: later\n---\nbody\n"
    assert sync.merge_learning(active, active, deprecated) == deprecated
    assert sync.merge_learning(b"", other, deprecated) == deprecated
    assert sync.merge_learning(b"", active, other) == active


@pytest.mark.parametrize("driver", ["lines", "learning"])
def test_git_runs_the_merge_driver_command_ensure_repo_wrote(tmp_path, driver):
    """The command in the data repository's git config, run as git runs it: through the shell, in the
    repository, %O %A %B replaced by files, the merge read back from %A (``python -P -m
    lazy_harness.sync``: the repository's own files, which come from the remote, are not imported)."""
    import shlex

    data = tmp_path / "data"
    sync.ensure_repo(str(data), str(tmp_path / "remote.git"))
    command = _git("-C", str(data), "config", "--get", f"merge.lh-{driver}.driver").strip()
    assert command == f"{shlex.quote(sys.executable)} -P -m lazy_harness.sync merge-{driver} %O %A %B %P"
    (data / "json.py").write_text("raise SystemExit('a json.py of the synced folder was imported')\n")
    e = lambda s: json.dumps({"id": ids.entry_id("decision", s), "type": "decision", "summary": s}).encode()  # noqa: E731
    if driver == "lines":
        base, ours, theirs = e("x") + b"\n" + e("gone") + b"\n", e("x") + b"\n" + e("mine") + b"\n", \
            e("x") + b"\n" + e("gone") + b"\n" + e("theirs") + b"\n"
        want = e("x") + b"\n" + e("mine") + b"\n" + e("theirs") + b"\n"
    else:
        base = ours = b"---\ntitle: t\nstatus: active\n---\nbody\n"
        theirs = want = b"---\ntitle: t\nstatus: deprecated\n---\nbody\n"
    files = {}
    for name, text in (("O", base), ("A", ours), ("B", theirs)):
        files[name] = tmp_path / f".merge_file_{name}"
        files[name].write_bytes(text)
    for name, path in files.items():
        command = command.replace(f"%{name}", str(path))
    command = command.replace("%P", "projects/x/decisions.jsonl")
    done = subprocess.run(command, shell=True, cwd=data, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert files["A"].read_bytes() == want
    assert files["B"].read_bytes() == theirs


def test_handoff_items_opened_and_closed_on_two_machines_merge(two):
    from lazy_harness.memory import handoff, handoff_answer

    a, b = two
    for m in (a, b):
        m.mdir.mkdir(parents=True, exist_ok=True)
    now = time.time()
    handoff_answer.apply_answer(str(a.mdir), ["Migrate the payments table", "Write the runbook"], [],
                         {"session_id": "sa", "task_id": "ta"}, now - 100, now)
    a.sync()
    b.sync()
    handoff_answer.apply_answer(str(b.mdir), ["Add retries to the webhook client"], ["Write the runbook"],
                         {"session_id": "sb", "task_id": "tb"}, now - 50, now)
    handoff_answer.apply_answer(str(a.mdir), ["Rotate the staging keys"], [],
                         {"session_id": "sa2", "task_id": "ta2"}, now - 40, now)
    b.sync()
    a.sync()
    b.sync()
    want = ["Migrate the payments table", "Add retries to the webhook client", "Rotate the staging keys"]
    for m in (a, b):
        state, _ = handoff.load(str(m.mdir))
        assert [i["text"] for i in handoff.open_items(state)] == want
        assert [i["text"] for i in handoff.closed_items(state)] == ["Write the runbook"]
        rendered = (m.mdir / "handoff.md").read_text()
        assert all(t in rendered for t in want) and "Write the runbook" not in rendered
        m.no_conflict_markers()


def test_a_project_that_gets_a_remote_keeps_its_memory(tmp_path, isolated_home):
    from tests.hooks.hookrun import run_hook

    proj = tmp_path / "shop"
    proj.mkdir()
    _git("init", "-q", str(proj))
    by_path = Path(paths.memory_root()) / paths.project_key(str(proj))
    by_path.mkdir(parents=True)
    rec = entries.record("decision", {"summary": "Keep prices in cents"}, {"project": "shop"}, time.time())
    (by_path / "decisions.jsonl").write_text(json.dumps(rec) + "\n")
    _git("-C", str(proj), "remote", "add", "origin", "git@example.com:team/shop.git")
    key = paths.memory_key(str(proj))
    assert key.startswith("git-") and key != by_path.name
    done = run_hook("SessionStart", {"session_id": "s1", "cwd": str(proj), "source": "startup",
                                     "transcript_path": "/x"})
    assert done.returncode == 0, done.stderr
    assert "Keep prices in cents" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    moved = Path(paths.memory_root()) / key / "decisions.jsonl"
    assert [json.loads(ln)["summary"] for ln in moved.read_text().splitlines()] == ["Keep prices in cents"]
    assert not (by_path / "decisions.jsonl").exists()


def test_a_repository_that_gets_a_remote_leaves_the_memory_of_another_with_the_same_path_key(tmp_path,
                                                                                             isolated_home):
    """``app.v2`` and ``app_v2`` share a path key; ``app_v2`` gets a remote: ``app.v2``'s memory stays."""
    from tests.hooks.hookrun import run_hook

    dotted, under = tmp_path / "app.v2", tmp_path / "app_v2"
    for proj in (dotted, under):
        proj.mkdir()
        _git("init", "-q", str(proj))
    by_path = Path(paths.memory_root()) / paths.project_key(str(dotted))
    assert by_path.name == paths.project_key(str(under))
    by_path.mkdir(parents=True)
    rec = entries.record("decision", {"summary": "Keep the queue in Postgres"}, {"project": "app.v2"}, time.time())
    (by_path / "decisions.jsonl").write_text(json.dumps(rec) + "\n")
    _git("-C", str(under), "remote", "add", "origin", "git@example.com:me/appv2.git")
    done = run_hook("SessionStart", {"session_id": "s1", "cwd": str(under), "source": "startup",
                                     "transcript_path": "/x"})
    assert done.returncode == 0, done.stderr
    assert b"Keep the queue in Postgres" not in done.stdout
    assert (by_path / "decisions.jsonl").exists()
    assert not (Path(paths.memory_root()) / paths.memory_key(str(under)) / "decisions.jsonl").exists()


def test_the_worker_pushes_what_it_just_wrote(tmp_path, isolated_home, fake, project):
    """A session distilled by the worker reaches the remote without any command."""
    from lazy_harness import queue
    from lazy_harness.worker import loop
    from tests.support.sessions import place

    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    cfg_file = isolated_home / ".config" / "lazy-harness" / "config.toml"
    cfg_file.parent.mkdir(parents=True)
    cfg_file.write_text(f'[compound_loop]\nenabled = true\n\n[sync]\nremote = "{remote}"\n')
    queue.enqueue(paths.queue_dir(), queue.task_fields(place(project), "SessionEnd", True))
    stats = loop.run()
    assert stats.processed == 1
    # the sync runs in a process of its own (detach.spawn_sync): its worker.log line is its last act
    log = Path(paths.logs_dir()) / "worker.log"
    deadline = time.monotonic() + 60
    while " sync " not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    [line] = [ln for ln in log.read_text().splitlines() if " sync " in ln]
    assert "pushed" in line, line
    key = os.path.basename(paths.memory_dir(str(project)))
    pushed = _git("--git-dir", str(remote), "show", f"main:projects/{key}/decisions.jsonl")
    assert "Use a file queue between hooks and worker" in pushed


def test_lh_sync_brings_the_recall_index_up_to_date_with_what_it_merged(two):
    """What a pull brings is memory changed on this machine: ``lh sync`` has the index's writer take it
    in at once (ADR 0042), so the next prompt, which only reads the index, finds it."""
    from lazy_harness.recall.index import store

    a, b = two
    did = a.add("decision", "Use SQLite for the recall index")
    a.sync()
    cfg = Path(paths.config_file(b.env))
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(f"[sync]\nremote = {json.dumps(b.cfg['sync']['remote'])}\n")
    r = subprocess.run([sys.executable, "-m", "lazy_harness", "sync"], env=b.env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and "merged from the remote" in r.stdout, r.stderr
    assert did in b.ids("decision")
    conn = store.connect(paths.recall_index_file(b.env))
    try:
        assert conn.execute("SELECT count(*) FROM entry WHERE id=?", (did,)).fetchone()[0] == 1
    finally:
        conn.close()


def test_an_undo_on_one_machine_and_a_new_mark_on_the_other_both_sync(tmp_path):
    """A forgets d1 (its first mark: the run makes marks.jsonl), B pulls it and forgets d2, A undoes
    its run. Both machines keep syncing (a removed marks.jsonl stopped every later round of B) and
    agree: d1 is back, d2 forgotten."""
    from lazy_harness.memory import by_hand, marks

    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    d1, d2 = a.add("decision", "Use SQLite for the index"), a.add("decision", "Ship the CLI as a wheel")
    a.sync()
    b.sync()
    now = time.time()
    run = by_hand.forget(str(a.mdir), paths.learnings_dir(None, a.env), "demo", d1, "wrong", now)
    a.sync()
    b.sync()
    assert d1 in marks.hidden(str(b.mdir))
    by_hand.forget(str(b.mdir), paths.learnings_dir(None, b.env), "demo", d2, "stale", now + 1)
    _, restored, problems = by_hand.undo(str(a.mdir), paths.learnings_dir(None, a.env), run, 7, now + 2)
    assert problems == [] and restored
    for m in (a, b, a, b):
        m.sync()
    for m in (a, b):
        assert set(marks.hidden(str(m.mdir))) == {d2}, m.home.name
        m.no_conflict_markers()


def test_a_file_removed_on_one_machine_and_changed_on_the_other_is_kept_and_both_sync(tmp_path):
    """Git merges a removal with a change by no driver of ours: the changed file is kept and the
    merge committed, instead of every later round failing."""
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    rel = Path("knowledge/learnings/2026-01/2026-01-02-retry.md")
    head = "---\ntitle: Retry the model call\nstatus: active\n---\n"
    (a.data / rel).parent.mkdir(parents=True, exist_ok=True)
    (a.data / rel).write_text(head + "Retry twice.\n")
    a.add("decision", "Use SQLite for the index")
    a.sync()
    b.sync()
    (a.data / rel).unlink()
    a.sync()
    (b.data / rel).write_text(head + "Retry twice, 2 s apart (edited on b).\n")
    b.sync()
    a.sync()
    b.sync()
    for m in (a, b):
        assert (m.data / rel).read_text().endswith("(edited on b).\n"), m.home.name
        m.no_conflict_markers()


@pytest.mark.parametrize("push", [True, False])  # lh sync's round, and SessionStart's pull
def test_a_hand_edit_of_handoff_md_survives_a_merge_and_reaches_the_other_machine(two, push):
    """The person deletes one item's line and adds one of their own on A; B opens an item and syncs;
    A's round must neither write over the edit (a bare render from the merged log brought the deleted
    item back) nor keep it to itself: both machines end with the same open items."""
    from lazy_harness.memory import handoff, handoff_answer

    a, b = two
    a.mdir.mkdir(parents=True, exist_ok=True)
    now = time.time()
    handoff_answer.apply_answer(str(a.mdir), ["Fix the login bug", "Write the release notes"], [],
                         {"session_id": "sa", "task_id": "ta"}, now - 100, now - 100)
    a.sync()
    b.sync()
    md = a.mdir / "handoff.md"
    text = "".join(line for line in md.read_text().splitlines(keepends=True) if "login bug" not in line)
    md.write_text(text + "- Ask the designer about the empty state\n")
    handoff_answer.apply_answer(str(b.mdir), ["Bump the version"], [], {"session_id": "sb", "task_id": "tb"}, now, now)
    b.sync()
    a.sync(push=push)
    a.sync()
    b.sync()
    want = {"Write the release notes", "Bump the version", "Ask the designer about the empty state"}
    for m in (a, b):
        assert {i["text"] for i in handoff.open_for_reading(str(m.mdir))} == want, m.home
    assert "login bug" not in md.read_text()


def test_a_command_renders_handoff_md_with_the_stale_days_the_worker_was_given(tmp_path):
    """``[handoff] stale_days = 60``: the worker's render leaves a 20-day-old item unmarked, and so
    does a render by a writer without the config (a close, a sync, a migration)."""
    from lazy_harness.memory import handoff, handoff_answer

    mdir = tmp_path / "m"
    mdir.mkdir()
    now = time.time()
    handoff_answer.apply_answer(str(mdir), ["Old item", "Another item"], [], {"session_id": "s", "task_id": "t"},
                         now - 20 * 86400, now - 20 * 86400)
    handoff.write_markdown(str(mdir), {"session_id": "w", "task_id": "t"}, now, 60)
    assert "stale" not in (mdir / "handoff.md").read_text()
    [hid] = [i["id"] for i in handoff.open_for_reading(str(mdir)) if i["text"] == "Another item"]
    handoff.close_items(str(mdir), [(hid, "done")], {"session_id": "by hand", "task_id": ""}, now)
    text = (mdir / "handoff.md").read_text()
    assert "Old item" in text and "stale" not in text


def test_a_round_adopts_approvals_in_the_home_it_is_given_not_the_processs(two, tmp_path, monkeypatch):
    """The hold check after a merge once adopted approvals into the process's own home (a script
    syncing two machines wrote into the real ~/.claude)."""
    from lazy_harness.memory import approval_key

    mine = tmp_path / "process-home"
    monkeypatch.setenv("HOME", str(mine))
    for var in ("CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        monkeypatch.delenv(var, raising=False)
    a, b = two
    a.add("decision", "Use SQLite for the index")
    b.add("decision", "Ship the CLI as a wheel")
    a.sync()
    b.sync()
    a.sync()
    assert os.path.exists(approval_key.adopted_file(a.env)) and os.path.exists(approval_key.adopted_file(b.env))
    assert not mine.exists(), sorted(str(p) for p in mine.rglob("*"))
