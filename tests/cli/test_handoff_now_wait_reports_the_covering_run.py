"""``lh knowledge handoff-now --wait`` while a Stop task of the same session is being distilled: the
handoff-now task then finds nothing new (the running task covers the session, so no second model call),
and --wait says which task distilled the session meanwhile and what that task wrote, instead of
"nothing new since the last distillation" while a decision and a handoff item were just written.
A session distilled before the command began keeps that message, and no write is claimed.

The Stop task's model call is held by the fake claude until the test makes its gate file: the waiter is
started while the call is in flight, and the call is let go once the waiter's task is queued."""

import os
import subprocess

from lazy_harness import paths, queue as spool
from lazy_harness.worker.pipeline import NOTHING_NEW
from tests.cli.lhrun import invoke, lh_script
from tests.cli.test_waitfx_handoff_replaced import _first_line
from tests.hooks.hookrun import enable_loop, run_hook
from tests.support import fake_claude
from tests.support.child_events import gone
from tests.support.processes import started_with_home
from tests.support.sessions import place, wait_finished

WAITER_BOUND = 60  # seconds; the waiter's own limit is 120 s: only a bug makes it wait this long


def _setup(isolated_home, tmp_path, monkeypatch, **fake) -> tuple:
    enable_loop(isolated_home, timeout_seconds=60, max_attempts=1, retry_backoff_seconds=0)
    bin_dir = fake_claude.use(tmp_path, monkeypatch, **fake)
    project = tmp_path / "proj"
    project.mkdir()
    return bin_dir, project, place(project)


def _record(q: str, which: str, task: str) -> dict:
    return spool.read_task(os.path.join(spool.folder(q, which), task + spool.SUFFIX))


def _workers_gone(home) -> None:
    """Wait until every worker started in this HOME has exited (on a pidfd, not on the clock)."""
    for pid in started_with_home(home):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                worker = b"lazy_harness.worker" in fh.read()
        except OSError:
            continue
        assert not worker or gone(pid), f"worker {pid} still runs"


def _distills(bin_dir) -> list[dict]:
    return [c for c in fake_claude.calls(bin_dir) if not fake_claude.is_check(c)]


def test_wait_names_the_stop_task_that_distilled_the_session_meanwhile_and_what_it_wrote(
        isolated_home, tmp_path, monkeypatch):
    gate = tmp_path / "gate"
    bin_dir, project, session = _setup(isolated_home, tmp_path, monkeypatch, gate=str(gate))
    stop = dict(session, hook_event_name="Stop", stop_hook_active=False)
    del stop["reason"]
    q = paths.queue_dir()
    waiter = None
    try:
        assert run_hook("Stop", stop).returncode == 0
        fake_claude.wait_calls(bin_dir, 1)  # the Stop task's call is in flight, held at the gate
        [claimed] = os.listdir(spool.folder(q, spool.PROCESSING))
        waiter = subprocess.Popen([*lh_script(), "knowledge", "handoff-now", "--session", session["session_id"],
                                   "--wait"], cwd=project, env=dict(os.environ, PYTHONUNBUFFERED="1"),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = _first_line(waiter)  # returns once its task is in the queue
        assert first.startswith("queued "), first
        asked = first.split()[1]
        gate.write_text("go")
        out, err = waiter.communicate(timeout=WAITER_BOUND)
    finally:
        gate.write_text("go")
        if waiter is not None and waiter.poll() is None:
            waiter.kill()
            waiter.communicate()
    wait_finished(q, count=2)
    _workers_gone(isolated_home)
    assert waiter.returncode == 0, out + err
    covering = _record(q, spool.DONE, spool.task_id(claimed))
    assert (covering["event"], covering["outcome"]) == ("Stop", "processed") and covering["written"]
    mine = _record(q, spool.DONE, asked)
    assert mine["reason"] == NOTHING_NEW and "written" not in mine  # it wrote nothing itself
    assert len(_distills(bin_dir)) == 1  # no second model call
    assert (f"done: task {spool.task_id(claimed)} (Stop) of the same session distilled it meanwhile: "
            "no second model call") in out, out
    assert f"wrote: {covering['written']}\n" in out, out
    assert "nothing new since the last distillation" not in out, out


def test_a_session_distilled_before_the_command_keeps_nothing_new_and_claims_no_write(
        isolated_home, tmp_path, monkeypatch):
    bin_dir, project, session = _setup(isolated_home, tmp_path, monkeypatch)
    monkeypatch.chdir(project)
    earlier = invoke("knowledge", "handoff-now", "--session", session["session_id"], "--wait")
    assert earlier.code == 0 and "wrote: " in earlier.out, earlier.out + earlier.err
    from lazy_harness.cli import knowledge

    # why: the one way such a task is queued is a run that finishes between the command's own look at the
    # cursor and its enqueue; the look is made to say "something new" so the task is queued for sure
    monkeypatch.setattr(knowledge, "_held_whole", lambda payload: False)
    later = invoke("knowledge", "handoff-now", "--session", session["session_id"], "--wait")
    wait_finished(paths.queue_dir(), count=2)
    _workers_gone(isolated_home)
    assert later.code == 0, later.out + later.err
    assert f"done: {NOTHING_NEW}: no model call" in later.out, later.out
    assert "wrote: " not in later.out and "meanwhile" not in later.out, later.out
    assert len(_distills(bin_dir)) == 1


def test_a_run_with_no_record_in_the_queue_is_named_and_no_write_is_claimed(tmp_path):
    """An ``lh distill`` run moved the cursor while --wait followed the task: it is named, and with no
    record in the queue of what it wrote, no ``wrote:`` line is made up."""
    from lazy_harness.cli import knowledge
    from lazy_harness.worker import cursor

    project = tmp_path / "proj"
    project.mkdir()
    session = place(project)
    path = session["transcript_path"]
    cursor.advance(None, session["session_id"], path, os.path.getsize(path), 1.0, "distill-1-abcdef")
    done = {"session_id": session["session_id"], "reason": NOTHING_NEW}
    lines = knowledge._report(paths.queue_dir(), "2-x" + spool.SUFFIX, "done", done, session, ("", None))
    assert lines == ["done: run distill-1-abcdef distilled the session meanwhile (the queue holds no record of "
                     "what it wrote): no second model call (lh knowledge handoff-now --again reads the whole "
                     "session again)"]
    # the same mover the command found before it queued anything: today's line
    before = cursor.moved_by(None, session["session_id"], path)
    assert knowledge._report(paths.queue_dir(), "2-x" + spool.SUFFIX, "done", done, session, before) == [
        f"done: {NOTHING_NEW}: no model call (lh knowledge handoff-now --again reads the whole session again)"]
