"""What ``lh status`` and ``lh queue`` say of a task held by a spend cap, the purge of the worker's
per-session state (the distillation lock; the cursor and a fork's lineage are kept), and
``enable_loop`` on a config.toml the loader refuses."""

import os
import time

import pytest

from lazy_harness import config, paths
from lazy_harness import queue as spool
from lazy_harness.cost import budget, ledger
from lazy_harness.errors import ConfigError
from lazy_harness.memory import lineage
from lazy_harness.queue import sweep
from lazy_harness.worker import cursor
from lazy_harness.worker.llm import Usage
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

# why: spend written at the wall clock, "today" taken by the code's own clock: one local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")

SIDS = ["11111111-aaaa-4bbb-8ccc-000000000001", "22222222-aaaa-4bbb-8ccc-000000000002",
        "33333333-aaaa-4bbb-8ccc-000000000003"]


def _config(text: str) -> str:
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)
    return path


def _task(which: str, sid: str, cwd: str, age: float, **fields) -> str:
    """A task file as the hooks and the worker leave it, ``age`` seconds old; its name."""
    q = paths.queue_dir()
    spool.ensure_layout(q)
    name = f"{int((time.time() - age) * 1e9)}-{sid[:8]}{spool.SUFFIX}"
    record = {"cwd": cwd, "session_jsonl": f"/t/{sid}.jsonl", "session_id": sid,
              "memory_dir": paths.memory_dir(cwd), "event": "Stop", **fields}
    if which != spool.PENDING:
        record["task_id"] = spool.task_id(name)
    with open(os.path.join(spool.folder(q, which), name), "w") as fh:
        fh.write(spool.format_task(record))
    return name


@pytest.fixture
def here(tmp_path, monkeypatch):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    return project


def _spent_past_the_daily_cap() -> budget.Verdict:
    _config("[budget]\ndaily_usd = 0.5\n")
    ledger.record(Usage(model="m", cost_usd=1.0, reported=True), {"project": "p"}, "ok", 100)
    verdict = budget.check(config.load(), None, time.time())
    assert not verdict.allowed and verdict.until > time.time()
    return verdict


def _session_line(sid: str) -> str:
    r = invoke("status")
    assert r.code == 0, r.out + r.err
    return next(line for line in r.out.splitlines() if line.startswith("  ") and f"  {sid[:8]}  " in line)


# --- 1. a task held by a spend cap ------------------------------------------------------------------------

def test_status_names_the_cap_that_holds_a_task_never_taken(here):
    """The worker's cap check holds the whole queue before it takes a task: the task has no
    wait_reason, and was shown as "queued by Stop, not distilled yet"."""
    verdict = _spent_past_the_daily_cap()
    _task(spool.PENDING, SIDS[0], here, 30)
    line = _session_line(SIDS[0])
    until = time.strftime("%Y-%m-%d %H:%M", time.localtime(verdict.until))
    assert "not distilled yet" not in line
    assert verdict.reason in line and until in line and "waiting" in line


def test_status_shows_the_reason_a_cap_paused_task_holds_with_its_time(here):
    verdict = _spent_past_the_daily_cap()
    held = "daily cap $0.50 reached: spent $0.75; resumes tomorrow or when [budget] daily_usd is raised"
    _task(spool.PENDING, SIDS[0], here, 30, wait_reason=held, waits="1")
    line = _session_line(SIDS[0])
    assert held in line and time.strftime("%Y-%m-%d %H:%M", time.localtime(verdict.until)) in line


def test_status_without_a_cap_reached_keeps_the_plain_wait(here):
    _config("[budget]\ndaily_usd = 5.0\n")
    _task(spool.PENDING, SIDS[0], here, 30)
    assert _session_line(SIDS[0]).endswith("waiting: queued by Stop, not distilled yet")


def _queue_row(sid: str) -> str:
    r = invoke("queue")
    assert r.code == 0, r.out + r.err
    return next(line for line in r.out.splitlines() if sid[:8] in line)


def test_lh_queue_names_the_cap_that_holds_a_task_never_taken_and_nothing_without_one(here):
    _config("[budget]\ndaily_usd = 5.0\n")
    _task(spool.PENDING, SIDS[0], here, 30)
    assert "waiting" not in _queue_row(SIDS[0])  # no cap reached: nothing holds it
    verdict = _spent_past_the_daily_cap()
    row = _queue_row(SIDS[0])
    assert verdict.reason in row and time.strftime("%Y-%m-%d %H:%M", time.localtime(verdict.until)) in row


def test_status_with_a_cap_of_zero_promises_no_time(here):
    _config("[budget]\ndaily_usd = 0\n")
    reason = budget.check(config.load(), None, time.time()).reason
    _task(spool.PENDING, SIDS[0], here, 30)
    line = _session_line(SIDS[0])
    assert reason in line and "until" not in line.split(reason)[0]


def _recent_rows(out: str) -> list[str]:
    return out.split("recent:\n", 1)[1].splitlines()


def test_queue_shows_a_cap_reason_whole_and_every_status_in_its_column(here):
    from lazy_harness.cli.queue import dead_claims

    reason = ("daily cap is 0 ([budget] daily_usd = 0): model calls are switched off; "
              "raise [budget] daily_usd to distil")
    assert len(reason) > 100  # what the listing cut before
    _config("[budget]\ndaily_usd = 0\n")  # why: the cap still holds, so lh queue shows its reason
    _task(spool.PENDING, SIDS[0], here, 30, wait_reason=reason, waits="1")
    claim = _task(spool.PROCESSING, SIDS[1], here, 60)
    _task(spool.DONE, SIDS[2], here, 90, outcome="skipped", reason="too short")
    assert claim in dead_claims(paths.queue_dir())  # no worker holds the lock: shown interrupted
    rows = _recent_rows(invoke("queue").out)
    assert len(rows) == 3 and any(" interrupted " in row for row in rows), rows
    assert len({row.index(" Stop ") for row in rows}) == 1, rows  # the event column lines up
    assert next(row for row in rows if SIDS[0][:8] in row).endswith(reason)


def test_queue_cuts_a_long_reason_at_a_word_and_points_at_show(here):
    words = "the API is unreachable: connect ECONNREFUSED 127.0.0.1:443 while asking for the answer " * 6
    reason = " ".join(words.split())
    name = _task(spool.PENDING, SIDS[0], here, 30, wait_reason=reason, waits="1")
    (row,) = _recent_rows(invoke("queue").out)
    tid = spool.task_id(name)
    tail = f"… (lh queue show {tid})"
    assert row.endswith(tail), row
    shown = row[:-len(tail)].split("waiting: ", 1)[1]
    assert reason.startswith(shown) and len(shown) < len(reason)
    assert reason[len(shown)] in " ;,:" and not shown.endswith(" ")  # whole words only


# --- 2. the worker's per-session state is purged with the rest ---------------------------------------

def _age_state(sids: list[str], when: float) -> None:
    state = paths.state_dir()
    for name in os.listdir(state):
        if name.startswith(tuple(s[:8] for s in sids)):
            os.utime(os.path.join(state, name), (when, when))


def _worker_state(sid: str, transcript: str) -> None:
    """What distilling a forked session leaves in state/: the lock, the cursor and the lineage."""
    fd, _ = cursor.hold(None, sid)
    cursor.advance(None, sid, transcript, 10, time.time())
    cursor.release(fd)
    lineage.record(None, sid, ["99999999-aaaa-4bbb-8ccc-000000000009"])


def test_purge_forgets_the_lock_of_old_sessions_only_and_keeps_every_cursor_and_lineage(tmp_path):
    q = paths.queue_dir()
    spool.ensure_layout(q)
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("x" * 100)
    old, fresh, busy = SIDS
    for sid in SIDS:
        _worker_state(sid, str(transcript))
    _age_state([old, busy], 1000.0)
    state = paths.state_dir()
    before = set(os.listdir(state))
    for sid in SIDS:
        for suffix in (".cursor", ".distilling", lineage.SUFFIX):
            assert sid + suffix in before
    fd, waited = cursor.hold(None, busy)  # a distillation of the old session ``busy`` is under way
    assert not waited
    try:
        assert sweep.purge_session_state(q, cutoff=5000.0) == 1
    finally:
        cursor.release(fd)
    left = set(os.listdir(state))
    # the cursor stays: resumed later, the session is distilled from where it was, not read whole; the
    # lineage stays: resumed later, a fork is still not told its parent's entries
    assert sorted(n for n in left if n.startswith(old[:8])) == sorted([old + ".cursor", old + lineage.SUFFIX]), left
    assert cursor.start(None, old, str(transcript)) == 10
    assert sweep.purge_session_state(q, cutoff=5000.0) == 0  # a cursor and a lineage are no session to forget
    assert {f"{sid}{suffix}" for sid in (fresh, busy) for suffix in (".cursor", ".distilling", lineage.SUFFIX)} <= left
    assert cursor.start(None, busy, str(transcript)) == 10  # the holder's cursor is kept


# --- 3. enable_loop on a config.toml the loader refuses ----------------------------------------------

def test_enable_loop_leaves_a_config_open_to_others_untouched_with_the_loaders_error(isolated_home):
    path = _config("[compound_loop]\nenabled = false\n")
    os.chmod(path, 0o666)
    before = open(path, "rb").read(), os.stat(path).st_mtime_ns
    with pytest.raises(ConfigError) as loader:
        config.load()
    with pytest.raises(ConfigError) as edit:
        config.enable_loop(path)
    assert str(edit.value) == str(loader.value) and path in str(edit.value) and "0666" in str(edit.value)
    assert (open(path, "rb").read(), os.stat(path).st_mtime_ns) == before
    r = invoke("hooks", "install")
    assert r.code == 1 and "Traceback" not in r.err
    # why not the loader's words: the command refuses before it runs, with what lh doctor says of it
    [line] = r.err.strip().splitlines()
    assert line.startswith(f"lh: {path} is open to group or others (mode 0666)") and "chmod" in line, line
    assert (open(path, "rb").read(), os.stat(path).st_mtime_ns) == before


def test_purge_counts_no_session_for_a_lock_file_that_is_not_a_sessions(tmp_path):
    """The state folder holds other files' locks too (``approvals-adopted.json.lock``): no session of
    that name is forgotten at every purge, and the lock another process may hold stays."""
    q = paths.queue_dir()
    spool.ensure_layout(q)
    other = os.path.join(paths.state_dir(), "approvals-adopted.json.lock")
    with open(other, "w"):
        pass
    os.utime(other, (1000.0, 1000.0))
    assert sweep.purge_session_state(q, cutoff=5000.0) == 0
    assert os.path.exists(other)
