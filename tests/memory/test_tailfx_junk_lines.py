"""Lines that are JSON but no entry (a sync, a hand edit or another tool appended them) at the end of
decisions.jsonl and failures.jsonl: the read-back reads past them to the entries before, within a stated
budget, and says when the budget stopped it."""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, handoff, handoff_log, lines, store
from tests.hooks.hookrun import hook_log, run_hook, spawned_workers_gone
from tests.support import memory_samples as ms

NOW = time.time()
SMALL_JUNK = b'{"note": "x"}\n'
BIG_JUNK = ('{"type": "note", "x": ' + json.dumps("B" * 100_000) + "}\n").encode()


def _project(tmp_path, decisions: int = 3, failures: int = 2) -> tuple[str, str, list[str]]:
    """A project whose memory holds ``decisions`` decisions and ``failures`` failures; returns the root,
    the memory folder and every summary written."""
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    said = [f"decision {i}: keep the queue in plain files" for i in range(decisions)]
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS),
                   [ms.decision(NOW - 600 + i, s, "because") for i, s in enumerate(said)])
    failed = [f"failure {i}: the worker lost a task" for i in range(failures)]
    ms.write_jsonl(os.path.join(mdir, files.FAILURES),
                   [ms.failure(NOW - 500 + i, s, "lock first") for i, s in enumerate(failed)])
    return root, mdir, said + failed


def _append(path: str, data: bytes) -> None:
    with open(path, "ab") as fh:
        fh.write(data)


def _start(root: str) -> str:
    p = run_hook("SessionStart", {"session_id": "5f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f47", "cwd": root,
                                  "hook_event_name": "SessionStart", "source": "startup",
                                  "transcript_path": "/nonexistent.jsonl"})
    assert p.returncode == 0 and p.stderr == b""
    spawned_workers_gone(timeout=120)
    out = json.loads(p.stdout) if p.stdout.strip() else {}
    return out.get("hookSpecificOutput", {}).get("additionalContext", "")


def test_entries_before_50_junk_lines_are_shown_at_session_start_and_the_lines_are_logged(tmp_path):
    root, mdir, summaries = _project(tmp_path)
    for name in (files.DECISIONS, files.FAILURES):
        _append(os.path.join(mdir, name), SMALL_JUNK * 50)
    context = _start(root)
    missing = [s for s in summaries if s not in context]
    assert not missing, missing
    logged = [ln for ln in hook_log(paths.claude_dir()) if " memory: " in ln]
    for name in (files.DECISIONS, files.FAILURES):
        said = [ln for ln in logged if os.path.join(mdir, name) in ln]
        assert len(said) == 1 and "50 line(s) skipped" in said[0], logged


def test_entries_before_40_lines_of_100_kb_junk_are_shown(tmp_path):
    root, mdir, summaries = _project(tmp_path)
    _append(os.path.join(mdir, files.DECISIONS), BIG_JUNK * 40)
    context = _start(root)
    missing = [s for s in summaries if s not in context]
    assert not missing, missing
    assert len(BIG_JUNK) * 40 < files.JUNK_BYTES  # within the stated budget


def test_junk_past_the_byte_budget_stops_the_read_and_the_log_says_so(tmp_path):
    root, mdir, _ = _project(tmp_path, failures=0)
    path = os.path.join(mdir, files.DECISIONS)
    lines_over = files.JUNK_BYTES // len(BIG_JUNK) + 2
    _append(path, BIG_JUNK * lines_over)
    _start(root)
    log = hook_log(paths.claude_dir())
    stopped = [ln for ln in log if "SessionStart" in ln and path in ln and "older entries not read" in ln]
    assert len(stopped) == 1, log
    assert "line(s) that are not entries" in stopped[0]


def test_many_small_junk_lines_stop_at_the_line_budget_and_are_said(tmp_path):
    root, mdir, _ = _project(tmp_path, failures=0)
    path = os.path.join(mdir, files.DECISIONS)
    _append(path, SMALL_JUNK * (files.JUNK_LINES + 100))
    assert files.tail_records(path, 5) == []
    said = files.stopped(path)
    assert len(said) == 1 and f"{files.JUNK_LINES} line(s) that are not entries" in said[0]
    assert files.stopped(path) == []  # said once per read
    assert path in lines.NOTED


def test_the_distiller_sees_the_entries_before_junk_and_no_junk(tmp_path):
    root, mdir, summaries = _project(tmp_path)
    _append(os.path.join(mdir, files.DECISIONS), SMALL_JUNK * 50)
    seen = store.existing_memory(mdir, str(tmp_path / "learnings"))
    assert [r.get("summary") for r in seen["decisions"]] == summaries[:3]


def test_open_items_survive_junk_lines_in_the_handoff_log(tmp_path):
    root, mdir, _ = _project(tmp_path)
    texts = ["finish the release notes", "rotate the signing key"]
    handoff.append(mdir, [handoff_log.record("open", t, "s1", "t1", NOW - 60 + i) for i, t in enumerate(texts)])
    _append(os.path.join(mdir, files.HANDOFF_STATE), SMALL_JUNK * 50)
    context = _start(root)
    assert all(t in context for t in texts)


def test_an_ordinary_tail_reads_what_it_read_before_and_notes_nothing(tmp_path, monkeypatch):
    """No junk: reading stops after the same lines as before (``n * 2 + 4``), one block at most."""
    root, mdir, summaries = _project(tmp_path, decisions=1000, failures=0)
    path = os.path.join(mdir, files.DECISIONS)
    read: list[int] = []
    real = os.pread

    def counting(fd, size, offset):
        data = real(fd, size, offset)
        read.append(len(data))
        return data

    monkeypatch.setattr(os, "pread", counting)
    got = files.tail_records(path, 6, block=4096)
    assert [r["summary"] for r in got] == summaries[994:1000]
    wanted = sum(len(ln) + 1 for ln in open(path, "rb").read().splitlines()[-16:])
    assert wanted <= sum(read) < wanted + 4096  # the lines it needed, rounded up to a block
    assert not lines.NOTED and files.stopped(path) == []
