"""The resident answerer of prompt recall (recall/resident/client.py, ADR 0029): the hook asks it first, it
answers what the hook would, and it leaves when idle, when told, when other code is installed; a
dead one costs the hook nothing but the work it does itself."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from lazy_harness import paths
from lazy_harness.recall.resident import client
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import SID, hook_log, run_hook
from tests.support import memory_samples as ms

NOW = time.time()
PROMPT = "the deploy scheduler ran twice last night, can we lock it in postgres"


def wait_until(what, timeout: float = 20.0) -> None:
    """Wait for a condition another process brings about; the timeout only keeps a bug from hanging."""
    deadline = time.monotonic() + timeout
    while not what():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s in vain for {what.__doc__ or what}")
        time.sleep(0.01)


def config(**recall) -> None:
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write("[recall]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in recall.items()))


def answering() -> bool:
    """the answerer's socket is there and its lock held"""
    return client.running() and os.path.exists(os.path.join(client.folder(), client.SOCKET_NAME))


def start() -> int:
    pid = client.start(dict(os.environ))
    assert pid
    wait_until(answering)
    return pid


def gone(pid: int):
    def check() -> bool:
        """the answerer's process has exited"""
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)  # a started answerer is this process's child: reaped here
            return done == pid
        except ChildProcessError:  # started by a hook: not ours to reap
            return not os.path.exists(f"/proc/{pid}")
    return check


@pytest.fixture
def project(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, "decisions.jsonl"), [
        ms.decision(NOW - 9 * ms.DAY, "Use Postgres advisory locks for the deployment scheduler",
                    "two runners deployed at once"),
        ms.decision(NOW - 8 * ms.DAY, "Keep the stylesheet in one file", "simple"),
    ])
    return root


def ask(project, sid):
    ms.index_now()  # as the worker leaves it: the hook only reads the index (ADR 0042)
    r = run_hook("UserPromptSubmit", {"session_id": sid, "cwd": project, "hook_event_name": "UserPromptSubmit",
                                      "prompt": PROMPT})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return r.stdout, hook_log(paths.claude_dir())[-1]


def test_the_socket_gets_its_name_only_once_it_listens(tmp_path, monkeypatch):
    """A client that finds ``resident.sock`` can connect: the name appears after ``listen`` (a hook
    that found the file between bind and listen was refused)."""
    import socket

    from lazy_harness.recall.resident import answerer

    where = tmp_path / "recall"
    where.mkdir(mode=0o700)
    seen = []
    listen = socket.socket.listen

    def watched(self, *args):
        seen.append(sorted(os.listdir(where)))
        return listen(self, *args)

    monkeypatch.setattr(socket.socket, "listen", watched)
    monkeypatch.chdir(tmp_path)  # _listen moves into the folder; monkeypatch moves back
    (where / client.SOCKET_NAME).write_text("left by a killed answerer")
    server = answerer._listen(str(where))
    try:
        assert seen == [sorted([answerer.BINDING_NAME, client.PID_NAME])]
        assert sorted(os.listdir(where)) == sorted([client.PID_NAME, client.SOCKET_NAME])
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as c:
            c.connect(str(where / client.SOCKET_NAME))
            peer, _ = server.accept()
            peer.close()
    finally:
        server.close()


def test_the_answerer_gives_what_the_hook_gives_and_says_it_answered(project):
    alone, line = ask(project, SID)
    assert b"advisory locks" in alone and "(resident)" not in line
    start()
    answered, line = ask(project, SID.replace("5f", "6f"))  # another session: the entry is new to it
    assert "(resident)" in line, line
    assert answered == alone
    again, line = ask(project, SID.replace("5f", "6f"))
    assert again == b"" and "already_shown=1" in line and "(resident)" in line  # it kept the shown record


def test_a_large_memory_starts_one_for_the_next_prompts(project, monkeypatch):
    """From SERVE_FROM entries in the index, the hook that answered alone starts an answerer."""
    mem = paths.memory_dir(project)
    config(semantic=False)
    ms.write_jsonl(os.path.join(mem, "failures.jsonl"), [
        ms.failure(NOW - i, f"flaky upload number {i} of the nightly export", "retry with backoff")
        for i in range(client.SERVE_FROM)])
    _, line = ask(project, SID)
    assert "(resident)" not in line and " resident=" in line, line
    wait_until(answering)
    _, line = ask(project, SID.replace("5f", "6f"))
    assert "(resident)" in line, line


def test_a_small_memory_starts_none(project):
    ask(project, SID)
    assert not client.running()
    assert " resident=" not in hook_log(paths.claude_dir())[-1]


def test_idle_it_leaves_and_a_changed_setting_applies_without_a_restart(project):
    pid = start()
    config(resident_minutes=0.005)  # 0.3 s: read again at its next wake-up
    wait_until(gone(pid))
    assert not os.path.exists(os.path.join(client.folder(), client.SOCKET_NAME))
    assert "idle: left" in open(os.path.join(paths.logs_dir(), client.LOG)).read()


def test_zero_minutes_means_no_answerer_asked_or_started(project):
    config(resident_minutes=0)
    pid = client.start(dict(os.environ))
    wait_until(gone(pid))  # it read the setting and left
    _, line = ask(project, SID)
    assert "resident" not in line


def test_uninstall_stops_it(project):
    pid = start()
    out = invoke("hooks", "uninstall")
    assert out.code == 0, out.err
    assert f"stopped the resident answerer of prompt recall (pid {pid})" in out.out
    wait_until(gone(pid))


def test_sigterm_landing_in_a_broad_except_still_makes_it_leave(tmp_path, monkeypatch):
    """The signal may arrive while the answerer reads its config or answers, both inside ``except
    Exception``: an exception raised by the handler was swallowed there and the answerer stayed."""
    import socket

    from lazy_harness.recall.resident import answerer

    monkeypatch.setattr(answerer, "stop_asked", False)

    def idle_seconds_hit_by_the_signal(env):
        try:
            answerer._stop(signal.SIGTERM, None)
        except Exception:
            pass  # what config reading does with anything it did not expect
        return 600.0

    monkeypatch.setattr(answerer, "idle_seconds", idle_seconds_hit_by_the_signal)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(tmp_path / "s"))
    server.listen(1)
    with server:
        why = answerer._answer_until_idle(server, answerer.Kept(), {})
    assert why == "stopped (SIGTERM)"


def test_stop_kills_an_answerer_that_does_not_leave(project):
    """An answerer holding its lock that does not act on SIGTERM (stopped) is killed once ``wait`` runs out."""
    pid = start()
    os.kill(pid, signal.SIGSTOP)
    assert client.stop(wait=0.3) == pid
    wait_until(gone(pid))
    assert not client.running()


def test_doctor_lists_it(project):
    out = invoke("doctor")
    assert "recall answerer" in out.out and "not running" in out.out
    pid = start()
    out = invoke("doctor")
    line = next(ln for ln in out.out.splitlines() if "recall answerer" in ln)
    assert f"running: pid {pid}," in line and " MB resident" in line


def test_a_killed_answerer_leaves_the_hook_answering_alone(project):
    alone, _ = ask(project, SID)
    pid = start()
    os.kill(pid, signal.SIGKILL)
    wait_until(gone(pid))
    assert os.path.exists(os.path.join(client.folder(), client.SOCKET_NAME))  # left behind by the kill
    answered, line = ask(project, SID.replace("5f", "6f"))
    assert answered == alone and "(resident)" not in line


def test_other_code_makes_it_leave_and_the_hook_answers(project, monkeypatch):
    pid = start()
    monkeypatch.setattr(client, "code_stamp", lambda: "0.0.0:other")
    got, why = client.ask({"prompt": PROMPT, "cwd": project, "session_id": SID}, dict(os.environ), NOW)
    assert got is None and why.startswith("stale")
    wait_until(gone(pid))


def test_a_question_it_cannot_read_gets_an_error_and_it_stays(project):
    pid = start()
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        client._connect(s, client.folder())  # from inside its folder when the path is long
        s.sendall(b"{not json\n")
        s.shutdown(socket.SHUT_WR)
        answer = json.loads(s.recv(65536))
    assert answer == {"error": "unreadable question"}
    assert client.pid() == pid
    _, line = ask(project, SID)
    assert "(resident)" in line


def test_two_prompts_at_once_are_both_answered(project):
    ms.index_now()
    start()
    procs = [subprocess.Popen([sys.executable, "-m", "lazy_harness.hooks", "UserPromptSubmit"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(2)]
    for i, p in enumerate(procs):
        payload = {"session_id": SID.replace("5f", f"{i}a"), "cwd": project, "prompt": PROMPT}
        p.stdin.write(json.dumps(payload).encode())
        p.stdin.close()
    outs = [p.stdout.read() for p in procs]
    assert [p.wait(timeout=30) for p in procs] == [0, 0]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    assert all(b"advisory locks" in out for out in outs)
    assert sum("(resident)" in ln for ln in hook_log(paths.claude_dir())[-2:]) == 2


def test_only_one_answerer_at_a_time(project):
    pid = start()
    again = subprocess.run([sys.executable, "-m", "lazy_harness.recall.resident.answerer"], capture_output=True,
                           timeout=30)
    assert again.returncode == 0 and b"another answerer is running" in again.stdout
    assert client.pid() == pid


def test_the_answerer_only_reads_the_index(project):
    """New entries written while it runs are not indexed by it: the worker, the index's writer, does
    that (ADR 0042); the answerer searches what the index holds."""
    from lazy_harness.recall.index import store

    config(semantic=False)
    ms.index_now()
    start()
    ms.write_jsonl(os.path.join(paths.memory_dir(project), "failures.jsonl"), [
        ms.failure(NOW - i, f"flaky upload number {i} of the nightly export", "retry with backoff") for i in range(50)])
    conn = store.connect(paths.recall_index_file())
    try:
        before = conn.execute("SELECT count(*) FROM entry").fetchone()[0]
    finally:
        conn.close()
    r = run_hook("UserPromptSubmit", {"session_id": SID, "cwd": project, "hook_event_name": "UserPromptSubmit",
                                      "prompt": "the nightly export upload is flaky again"})
    assert r.returncode == 0
    line = hook_log(paths.claude_dir())[-1]
    assert "(resident)" in line and "indexed=" not in line, line
    conn = store.connect(paths.recall_index_file())
    try:
        assert conn.execute("SELECT count(*) FROM entry").fetchone()[0] == before
    finally:
        conn.close()


def test_a_payload_without_cwd_is_answered_for_the_hooks_folder(project):
    """Claude Code always sends ``cwd``; without it the hook's working directory names the project,
    never the answerer's own."""
    ms.index_now()
    start()
    r = subprocess.run([sys.executable, "-m", "lazy_harness.hooks", "UserPromptSubmit"], cwd=project,
                       input=json.dumps({"session_id": SID, "prompt": PROMPT}).encode(), capture_output=True,
                       timeout=30, env={k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"})
    assert r.returncode == 0 and b"advisory locks" in r.stdout
    assert "(resident)" in hook_log(paths.claude_dir())[-1]


def test_the_code_stamp_follows_the_bytes_not_the_files_times(tmp_path, monkeypatch):
    """Two installs of one version share a HOME (an editable one and the plugin's): their files'
    times differ, their bytes do not, and neither must take the other's answerer for stale. why a copy:
    the installed files may not be the test user's to touch (a package installed by root)."""
    import shutil

    before = client.code_stamp()
    copy = tmp_path / "resident"
    copy.mkdir()
    here = os.path.dirname(client.__file__)
    for name in ("client.py", "answerer.py"):
        shutil.copy(os.path.join(here, name), copy / name)  # why copy, not copy2: new times, same bytes
        st = os.stat(os.path.join(here, name))
        os.utime(copy / name, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    monkeypatch.setattr(client, "__file__", str(copy / "client.py"))
    assert client.code_stamp() == before
    os.utime(copy / "client.py", ns=(0, 0))
    assert client.code_stamp() == before


def test_the_code_stamp_is_the_same_in_every_process_and_changes_with_one_byte(tmp_path, monkeypatch):
    """The hook and the answerer are two processes (each with its own salt for str hashes): they
    must agree on the stamp of the same files, and a changed answerer.py must change it."""
    import shutil

    code = "from lazy_harness.recall.resident import client; print(client.code_stamp())"
    stamps = {subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": seed},
                             capture_output=True, text=True, timeout=60).stdout.strip()
              for seed in ("1", "2", "random")}
    assert stamps == {client.code_stamp()}
    copy = tmp_path / "resident"
    copy.mkdir()
    here = os.path.dirname(client.__file__)
    for name in ("client.py", "answerer.py"):
        shutil.copy(os.path.join(here, name), copy / name)
    monkeypatch.setattr(client, "__file__", str(copy / "client.py"))
    same = client.code_stamp()
    assert {same} == stamps  # the same bytes elsewhere
    with open(copy / "answerer.py", "a") as fh:
        fh.write("\n")
    assert client.code_stamp() != same


def test_meanwhile_runs_after_the_question_is_sent_and_before_the_answer_is_read(tmp_path, monkeypatch):
    """The hook's own work that needs no answer (the sweep's note) runs while the answerer works:
    this listener answers only once ``meanwhile`` ran, after it had the whole question."""
    import socket
    import threading

    from lazy_harness import private

    private.make(paths.cache_dir())
    where = client.folder()
    private.make(where, strict=True)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    monkeypatch.chdir(where)  # why: a temporary HOME's path is too long for a socket's address
    server.bind(client.SOCKET_NAME)
    server.listen(1)
    ran, events = threading.Event(), []

    def listen() -> None:
        conn, _ = server.accept()
        with conn:
            question = client.read_all(conn, client.MAX_QUESTION, 10)
            events.append(("question", json.loads(question)["payload"]["prompt"]))
            events.append(("meanwhile ran before the answer", ran.wait(10)))
            conn.sendall(json.dumps({"decision": "terms=1 nothing passed the bar", "out": None}).encode() + b"\n")

    listener = threading.Thread(target=listen)
    listener.start()
    try:
        got, why = client.ask({"prompt": PROMPT, "cwd": str(tmp_path)}, dict(os.environ), NOW, timeout=20,
                              meanwhile=lambda: (events.append(("meanwhile", None)), ran.set()))
    finally:
        listener.join(20)
        server.close()
    assert why == "" and got == ("terms=1 nothing passed the bar", None)
    assert ("question", PROMPT) in events
    assert ("meanwhile ran before the answer", True) in events and events.count(("meanwhile", None)) == 1


def test_no_answerer_no_meanwhile(tmp_path):
    """Nothing sent, nothing run: the hook then does its work (and the sweep's note) itself."""
    called = []
    got, why = client.ask({"prompt": PROMPT, "cwd": str(tmp_path)}, dict(os.environ), NOW,
                          meanwhile=lambda: called.append(1))
    assert got is None and why == "none running" and called == []


def test_a_session_answered_by_the_answerer_is_still_watched_by_the_sweep(project, tmp_path):
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("")
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write("[compound_loop]\nenabled = true\n")  # as lh hooks install leaves it: sessions are swept
    ms.index_now()
    start()
    r = run_hook("UserPromptSubmit", {"session_id": SID, "cwd": project, "hook_event_name": "UserPromptSubmit",
                                      "prompt": PROMPT, "transcript_path": str(transcript)})
    assert r.returncode == 0 and b"advisory locks" in r.stdout
    assert "(resident)" in hook_log(paths.claude_dir())[-1]
    note = os.path.join(paths.queue_dir(), "state", "open", SID)
    assert os.path.exists(note) and str(transcript) in open(note).read()
