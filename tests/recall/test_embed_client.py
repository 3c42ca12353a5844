"""The prompt hook's side of the embedder: asking for similarities, starting the process, and what
importing it costs (hot path)."""

import os
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import threading
import time

import pytest

from lazy_harness import paths
from lazy_harness.recall import embed_client
from lazy_harness.recall import index as recall_index
from tests.recall.test_embed_server import add_entries, env, make_index, wait_for_ping  # noqa: F401 (env: a fixture)

BANNED = ("click", "filelock", "yaml", "tomllib", "logging", "dataclasses", "typing", "pathlib", "subprocess",
          "asyncio", "sqlite3", "importlib.metadata",
          "socket", "json", "hashlib", "tempfile", "numpy", "onnxruntime", "tokenizers")


def _bare(env) -> set[str]:
    """The banned modules a bare start of this interpreter already holds (``site`` may import some,
    e.g. a certifi .pth): not the client's doing (as in tests/hooks/test_entry_imports.py)."""
    code = f"import sys; print(' '.join(m for m in {BANNED!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return set(out.stdout.split())


def test_importing_the_client_loads_no_banned_module(env):
    code = ("import sys; import lazy_harness.recall.embed_client; "
            f"print(' '.join(m for m in {BANNED!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert set(out.stdout.split()) - _bare(env) == set()


def test_the_hooks_calls_load_no_banned_module_either(env):
    """What the hooks call: the socket path (here a long one, in the temp folder), a request, and a
    spawn (of /bin/true)."""
    code = ("import sys, os\n"
            "from lazy_harness.recall import embed_client\n"
            "env = {'HOME': os.environ['HOME'] + '/' + 'h' * 100, 'TMPDIR': os.environ['TMPDIR']}\n"
            "print(embed_client.similarities(env, '/i.sqlite', 'a prompt', [1], 0.5)[1])\n"
            "print(embed_client.send_prompt(env, '/i.sqlite', 'a prompt', 0.5)[1])\n"
            "sys.executable = '/bin/true'  # what it spawns exits at once\n"
            "print(embed_client.ensure_running(env, 0.0))\n"
            f"print(' '.join(m for m in {BANNED!r} if m in sys.modules))\n")
    tmp = os.path.join(env["HOME"], "tmp")
    os.mkdir(tmp)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**env, "TMPDIR": tmp}, check=True)
    lines = out.stdout.split("\n")
    assert lines[:3] == ["no embedder running", "no embedder running", "spawned"], out.stdout
    assert set(lines[3].split()) - _bare({**env, "TMPDIR": tmp}) == set(), out.stdout


def test_socket_path_in_the_state_folder():
    env = {"HOME": "/home/me"}
    assert embed_client.socket_path(env) == "/home/me/.claude/queue/state/embedder.sock"


def test_a_long_state_folder_puts_the_socket_in_a_private_temp_folder(tmp_path):
    os.mkdir(tmp_path / "tmp")
    env = {"HOME": str(tmp_path / ("h" * 120)), "TMPDIR": str(tmp_path / "tmp")}
    path = embed_client.socket_path(env)
    folder = os.path.join(str(tmp_path / "tmp"), f"lh-{os.getuid()}")
    assert os.path.dirname(path) == folder and path.endswith(".sock") and len(os.path.basename(path)) == 21
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert embed_client.socket_path(env) == path  # the same state folder, the same socket
    assert embed_client.socket_path({**env, "HOME": str(tmp_path / ("g" * 120))}) != path
    os.chmod(folder, 0o755)
    with pytest.raises(OSError, match="0700"):
        embed_client.socket_path(env)
    # the client turns that into a word
    sims, why = embed_client.similarities(env, "/x/index.sqlite", "a prompt", [1], 0.5)
    assert sims is None and "0700" in why


def test_no_embedder_answers_none_at_once(env):
    started = time.monotonic()
    sims, why = embed_client.similarities(env, paths.recall_index_file(env), "why does checkout fail", [1, 2], 5.0)
    assert sims is None and why == "no embedder running"
    assert time.monotonic() - started < 1.0  # it did not wait for the 5 s timeout
    assert embed_client.ping(env, 5.0) is None


class FakeServer:
    """A listening socket at the embedder's path; ``reply`` None never answers (nor accepts)."""

    def __init__(self, env, reply: bytes | None):
        self.path = embed_client.socket_path(env)
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(self.path)
        self.sock.listen(4)
        self.got = []
        self.thread = None
        if reply is not None:
            self.thread = threading.Thread(target=self._answer, args=(reply,), daemon=True)
            self.thread.start()

    def _answer(self, reply):
        conn, _ = self.sock.accept()
        with conn:
            data = b""
            while data.count(b"\n") < self._lines(data):
                chunk = conn.recv(4096)
                if not chunk:
                    break
                data += chunk
            self.got.append(data)
            try:
                conn.sendall(reply)
            except BrokenPipeError:
                pass  # the client left (it had sent all it would)

    @staticmethod
    def _lines(data: bytes) -> int:
        """The lines a request has: two for a sims request whose rowids follow its prompt."""
        first = data.split(b"\n", 1)[0]
        return 2 if b"\n" in data and b'"op": "sims"' in first and b'"rowids"' not in first else 1

    def close(self):
        self.sock.close()
        if self.thread is not None:
            self.thread.join(5)
        os.unlink(self.path)


def test_an_embedder_that_never_answers_times_out(env):
    fake = FakeServer(env, None)
    try:
        started = time.monotonic()
        sims, why = embed_client.similarities(env, "/i.sqlite", "a prompt about webhooks", [1], 0.2)
        took = time.monotonic() - started
    finally:
        fake.close()
    assert sims is None and "timed out" in why
    assert 0.15 < took < 2.0


@pytest.mark.parametrize("reply, word", [
    (b"not json\n", "garbage"),
    (b'{"sims": [1, 2]}\n', "garbage"),
    (b'{"sims": {"1": "high"}}\n', "garbage"),
    (b'{"sims": {"9": 0.5}}\n', "garbage"),  # a rowid it was not asked about
    (b'{"sims": {"1": 7.0}}\n', "garbage"),
    (b'{"error": "index /x is not the one"}\n', "refused: index /x"),
    (b'{"sims": {"1": 0.5', "without a whole answer"),
])
def test_a_bad_answer_is_none_with_a_reason(env, reply, word):
    fake = FakeServer(env, reply)
    try:
        sims, why = embed_client.similarities(env, "/i.sqlite", "a prompt about webhooks", [1, 2], 2.0)
    finally:
        fake.close()
    assert sims is None and word in why


def test_the_request_is_one_json_line_in_the_callers_order(env):
    fake = FakeServer(env, b'{"sims": {"2": 0.61, "1": 0.4}}\n')
    try:
        sims, why = embed_client.similarities(env, "/i.sqlite", "caf\u00e9 \U0001F600 prompt", [2, 1, 2], 2.0)
    finally:
        fake.close()
    assert (sims, why) == ({2: 0.61, 1: 0.4}, "")
    import json

    assert fake.got[0].count(b"\n") == 1
    assert json.loads(fake.got[0]) == {"op": "sims", "index": "/i.sqlite", "prompt": "caf\u00e9 \U0001F600 prompt",
                                       "rowids": [2, 1]}


def test_the_prompt_goes_first_and_the_candidates_follow_on_the_same_connection(env):
    import json

    fake = FakeServer(env, b'{"sims": {"2": 0.61}}\n')
    try:
        pending, why = embed_client.send_prompt(env, "/i.sqlite", "a prompt about webhooks", 2.0)
        assert why == "" and pending is not None
        sims, why = embed_client.similarities_for(pending, [2, 1, 2], 2.0)
    finally:
        fake.close()
    assert (sims, why) == ({2: 0.61}, "")
    first, second, rest = fake.got[0].split(b"\n")
    assert json.loads(first) == {"op": "sims", "index": "/i.sqlite", "prompt": "a prompt about webhooks"}
    assert json.loads(second) == {"rowids": [2, 1]} and rest == b""


def test_a_dropped_request_sends_nothing_after_the_prompt(env):
    fake = FakeServer(env, b"")
    try:
        pending, why = embed_client.send_prompt(env, "/i.sqlite", "a prompt about webhooks", 2.0)
        embed_client.drop(pending)
        fake.thread.join(5)
    finally:
        fake.close()
    assert fake.got[0].count(b"\n") == 1 and b'"rowids"' not in fake.got[0]


def test_sending_the_prompt_without_an_embedder_is_none_at_once(env):
    assert embed_client.send_prompt(env, "/i.sqlite", "a prompt about webhooks", 2.0) == (None, "no embedder running")


@pytest.mark.parametrize("reply, word", [
    (b'{"error": "no request line within 2 s"}\n', "refused: no request line"),
    (b'{"sims": {"1": 7.0}}\n', "garbage"),
])
def test_a_bad_answer_to_the_candidates_is_none_with_a_reason(env, reply, word):
    fake = FakeServer(env, reply)
    try:
        pending, _ = embed_client.send_prompt(env, "/i.sqlite", "a prompt about webhooks", 2.0)
        sims, why = embed_client.similarities_for(pending, [1], 2.0)
    finally:
        fake.close()
    assert sims is None and word in why


def test_a_pending_request_that_is_never_answered_times_out(env):
    fake = FakeServer(env, None)  # never accepts: the lines wait in the socket
    try:
        pending, why = embed_client.send_prompt(env, "/i.sqlite", "a prompt about webhooks", 0.2)
        assert why == ""
        started = time.monotonic()
        sims, why = embed_client.similarities_for(pending, [1], 0.2)
        took = time.monotonic() - started
    finally:
        fake.close()
    assert sims is None and "timed out after 200 ms" in why
    assert 0.15 < took < 2.0


def test_look_is_one_line_and_a_word_when_no_embedder_runs(env):
    import json

    assert embed_client.look(env, "/i.sqlite") == "no embedder running"
    fake = FakeServer(env, b'{"ok": true}\n')
    try:
        assert embed_client.look(env, "/i.sqlite") == ""
    finally:
        fake.close()
    assert json.loads(fake.got[0]) == {"op": "look", "index": "/i.sqlite"}


def _state(env, name):
    return os.path.join(paths.state_dir(env), name)


def _write(path, text, mtime=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    if mtime is not None:
        os.utime(path, (mtime, mtime))


@pytest.fixture
def spawns(monkeypatch):
    """Record spawns instead of starting a process (the real spawn: the end-to-end test below)."""
    calls = []
    monkeypatch.setattr(embed_client, "spawn_server", lambda env=None: calls.append(env) or 4242)
    return calls


def test_a_fresh_unavailable_stamp_means_no_spawn(env, spawns):
    now = time.time()
    _write(_state(env, "embedder.unavailable"), f"onnxruntime is not installed\n{sys.executable}\n", now - 3600)
    assert embed_client.ensure_running(env, now) == "unavailable: onnxruntime is not installed"
    assert spawns == [] and not os.path.exists(_state(env, "embedder.spawned"))


@pytest.mark.parametrize("age, python", [(2 * 86400, sys.executable), (60, "/other/venv/bin/python")])
def test_an_old_stamp_or_one_of_another_python_spawns_again(env, spawns, age, python):
    now = time.time()
    _write(_state(env, "embedder.unavailable"), f"onnxruntime is not installed\n{python}\n", now - age)
    assert embed_client.ensure_running(env, now) == "spawned"
    assert len(spawns) == 1


def test_a_spawn_in_the_last_30_seconds_is_not_repeated(env, spawns):
    now = time.time()
    assert embed_client.ensure_running(env, now) == "spawned"
    assert embed_client.ensure_running(env, now + 10) == "recently spawned"
    assert embed_client.ensure_running(env, now + 31) == "spawned"
    assert len(spawns) == 2


def test_a_listening_embedder_is_running(env, spawns):
    fake = FakeServer(env, None)  # listening but busy: connecting is enough
    try:
        assert embed_client.ensure_running(env, time.time()) == "running"
    finally:
        fake.close()
    assert spawns == []


def test_a_failed_spawn_is_a_word(env, monkeypatch):
    def fail(env=None):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(embed_client, "spawn_server", fail)
    assert embed_client.ensure_running(env, time.time()) == "not started: Permission denied"


PARAPHRASED = (1, "Stripe webhook events can arrive before the order exists",
               "Create the order inside on_commit so the payment webhook always finds it", "stripe webhook ordering",
               ["checkout returns 500 when the webhook comes first", "payment succeeded event arrives too early"])
UNRELATED = (2, "Dark mode colours for the settings page", "Use the design tokens for the palette",
             "css theme", ["settings page looks wrong in dark mode"])


def test_end_to_end_the_real_embedder_process(env, monkeypatch):
    index = paths.recall_index_file(env)
    recall_index.connect(index).close()  # the real schema, then two entries written into it
    make_index(index, [PARAPHRASED, UNRELATED])
    real_spawn, spawned = embed_client.spawn_server, []
    monkeypatch.setattr(embed_client, "spawn_server", lambda env=None: spawned.append(real_spawn(env)) or spawned[-1])
    pid = None
    try:
        assert embed_client.ensure_running(env, time.time()) == "spawned"
        pid = spawned[0]
        assert wait_for_ping(env, None, deadline_s=60) == pid
        assert embed_client.ensure_running(env, time.time()) == "running"
        assert embed_client.warm(env, index, 60) == (2, "")
        prompt = "our checkout crashes with a 500 because the payment notification shows up before the order is saved"
        sims, why = embed_client.similarities(env, index, prompt, [1, 2], 5.0)
        assert why == "" and set(sims) == {1, 2}
        assert sims[1] > 0.41 > sims[2]
        pending, why = embed_client.send_prompt(env, index, prompt, 5.0)  # the hook's way: prompt first
        assert why == ""
        assert embed_client.similarities_for(pending, [2, 1], 5.0) == (sims, "")
        # a second process started now leaves at once: the lock is held
        second = subprocess.run([sys.executable, "-m", "lazy_harness.recall.embed_server"], env=env,
                                capture_output=True, text=True, timeout=60)
        assert second.returncode == 0
        assert embed_client.ping(env, 5.0) == pid
        # an entry added later: answered once embedded (warm waits for it)
        conn = sqlite3.connect(index, isolation_level=None)
        try:
            add_entries(conn, [(3, "Retry the payment webhook", "Stripe retries for three days", "webhook retry",
                                ["webhook delivery failed"])])
        finally:
            conn.close()
        assert embed_client.warm(env, index, 60) == (3, "")
        os.kill(pid, signal.SIGTERM)
        _, status = os.waitpid(pid, 0)
        pid = None
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        assert not os.path.exists(embed_client.socket_path(env))
        with open(os.path.join(paths.logs_dir(env), "embedder.log"), encoding="utf-8") as fh:
            log = fh.read()
        assert "started in" in log and "stopped: stopped" in log
    finally:
        if pid is not None:  # the test failed with the embedder still running
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
