"""handoff-now finds the session's own project and takes short ids; queue, worker and distill
validate what they are given (cli/knowledge.py, cli/queue.py, cli/worker.py, cli/distill.py)."""

import os
import subprocess
import time

from lazy_harness import paths, queue
from lazy_harness.queue import sweep
from lazy_harness.worker import llm
from tests.cli.lhrun import invoke, run
from tests.hooks.hookrun import enable_loop, worker_lock_held
from tests.support.sessions import place

SID_A = "aaaa1111-0000-4000-8000-000000000001"
SID_B = "aaaa1111-0000-4000-8000-000000000002"
SID_C = "cccc3333-0000-4000-8000-000000000003"


def _pending_task() -> dict:
    q = paths.queue_dir()
    [name] = queue.pending(q)
    return queue.read_task(os.path.join(q, name))


def _git_repo_with_worktree(tmp_path):
    main = tmp_path / "repo"
    (main / "src" / "deep").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(main)], check=True)
    subprocess.run(["git", "-C", str(main), "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q",
                    "--allow-empty", "-m", "init"], check=True)
    linked = tmp_path / "linked-tree"
    subprocess.run(["git", "-C", str(main), "worktree", "add", "-q", str(linked)], check=True)
    return main, linked


def test_handoff_now_with_a_short_id_from_another_folder_uses_the_sessions_project(isolated_home, tmp_path,
                                                                                   monkeypatch):
    enable_loop(isolated_home)
    project, elsewhere = tmp_path / "proj", tmp_path / "elsewhere"
    project.mkdir(), elsewhere.mkdir()
    payload = place(project, session_id=SID_C)
    monkeypatch.chdir(elsewhere)
    with worker_lock_held(paths.claude_dir()):
        result = invoke("knowledge", "handoff-now", "--session", SID_C[:8])
        task = _pending_task()
    assert result.code == 0, result.err
    assert (task["session_id"], task["session_jsonl"]) == (SID_C, payload["transcript_path"])
    assert (task["cwd"], task["memory_dir"]) == (str(project), paths.memory_dir(str(project)))
    assert paths.memory_dir(str(project)) in result.out


def test_handoff_now_with_an_ambiguous_short_id_lists_the_matches(isolated_home, tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    place(project, session_id=SID_A)
    place(project, session_id=SID_B)
    result = invoke("knowledge", "handoff-now", "--session", "aaaa1111")
    assert result.code == 1 and result.err.count("\n") <= 2
    assert "2 sessions start with 'aaaa1111'" in result.err and SID_A in result.err and SID_B in result.err
    assert queue.pending(paths.queue_dir()) == []


def test_handoff_now_takes_the_newest_session_of_any_worktree_or_subfolder(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    main, linked = _git_repo_with_worktree(tmp_path)
    older = place(main / "src" / "deep", session_id=SID_A)
    place(linked, session_id=SID_B)
    os.utime(older["transcript_path"], (time.time() - 600,) * 2)
    unrelated = tmp_path / "other"
    unrelated.mkdir()
    place(unrelated, session_id=SID_C)  # newest of all, but another repository
    monkeypatch.chdir(main)
    with worker_lock_held(paths.claude_dir()):
        result = invoke("knowledge", "handoff-now")
        task = _pending_task()
    assert result.code == 0, result.err
    assert (task["session_id"], task["cwd"]) == (SID_B, str(linked))
    assert task["memory_dir"] == paths.memory_dir(str(main))  # a worktree shares the main tree's memory


def test_queue_show_accepts_the_short_session_id_in_task_names(isolated_home, tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    q = paths.queue_dir()
    name = queue.enqueue(q, queue.task_fields(place(project, session_id=SID_C), "Stop", False))
    short = queue.task_id(name).split("-", 1)[1]
    assert len(short) == 8
    result = invoke("queue", "show", short)
    assert result.code == 0, result.err
    assert f"session_id: {SID_C}" in result.out


def test_queue_show_lists_the_tasks_an_ambiguous_short_id_matches(isolated_home, tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    q = paths.queue_dir()
    names = [queue.enqueue(q, queue.task_fields(place(project, session_id=sid), "Stop", False))
             for sid in (SID_A, SID_B)]
    result = invoke("queue", "show", "aaaa1111")
    assert result.code == 1 and all(queue.task_id(n) in result.err for n in names)


def test_numbers_out_of_range_are_refused_without_a_traceback(isolated_home):
    for args in (("worker", "run", "--poll", "-1"), ("worker", "run", "--poll", "0"), ("queue", "-n", "-1"),
                 ("queue", "purge", "--done", "--older-than", "-3d")):
        result = run(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert "Traceback" not in result.stderr and "Invalid value" in result.stderr, (args, result.stderr)


def test_purge_forgets_the_state_of_old_sessions(isolated_home, tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    q = paths.queue_dir()
    payload = place(project, session_id=SID_C)
    sweep.watch(q, payload)
    name = queue.enqueue(q, queue.task_fields(payload, "Stop", False))
    queue.finish(q, name, queue.read_task(queue.claim(q, name)), "processed", "distilled")
    queue.mark_done(q, SID_C, 1.0, 1.0)
    old = time.time() - 40 * 86400
    state = os.path.join(q, "state")
    for n in os.listdir(state):
        if n.startswith(SID_C):
            os.utime(os.path.join(state, n), (old, old))
    result = invoke("queue", "purge", "--done")
    assert result.code == 0, result.err
    assert "forgot 1 session(s)" in result.out
    assert not [n for n in os.listdir(state) if n.startswith(SID_C)]
    assert os.listdir(os.path.join(state, "open")) == []


def test_distill_dry_run_of_a_skipped_transcript_promises_no_writes(isolated_home, tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    payload = place(project, "headless.jsonl")
    result = invoke("distill", "--dry-run", payload["transcript_path"])
    assert result.code == 0, result.err
    assert "# skipped: not an interactive session" in result.err
    assert "would write" not in result.err and "would append" not in result.err
    assert "nothing would be written" in result.err


def test_distill_of_a_fifo_says_what_it_is(isolated_home, tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    result = invoke("distill", str(fifo))
    assert result.code == 1 and "is a FIFO (named pipe), not a transcript file" in result.err


def test_the_workers_model_call_runs_without_auto_memory(isolated_home):
    """Auto memory is what creates <claude dir>/projects/<key of the neutral folder>/memory."""
    env = llm.call_env({"PATH": "/usr/bin", "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"})
    assert env["CLAUDE_CODE_DISABLE_AUTO_MEMORY"] == "1" and env[llm.WORKER_MARKER] == "1"
    assert env["PATH"] == "/usr/bin"


def test_a_whole_id_with_two_transcripts_is_one_session(isolated_home):
    """The same <id>.jsonl under two project folders (one copied by hand): a whole id names one
    transcript, as it did, never "2 sessions start with" an id that cannot be given longer."""
    from lazy_harness.cli import sessions as found

    sid = "0123abcd-1111-4111-8111-111111111111"
    made = []
    for key in ("-a", "-b"):
        folder = os.path.join(paths.projects_dir(), key)
        os.makedirs(folder)
        made.append(os.path.join(folder, sid + ".jsonl"))
        with open(made[-1], "w") as fh:
            fh.write("{}\n")
    [one] = found.match_sessions(sid)
    assert one in made
    assert sorted(found.match_sessions("0123abcd")) == sorted(made)  # a prefix: both, for the person to tell
