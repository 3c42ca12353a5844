"""The resident embedder's loop, in-process over a real socket and a real index file, with a small
deterministic embedder in place of the model (the model itself: test_embedder.py; the real process:
test_embed_client.py; the cache and the warm-up on their own: test_embed_cache.py)."""

import hashlib
import os
import socket
import sqlite3
import stat
import threading

import numpy as np
import pytest

from lazy_harness import jsonload, paths
from lazy_harness.recall import embed_cache, embed_client, embed_server
from lazy_harness.recall.embedder import ModelUnavailable

ENTRIES = [
    (1, "Stripe webhook events arrive out of order", "create the order on commit", "stripe webhook",
     ["checkout fails when the webhook comes first", "payment event before order"]),
    (2, "Admin upload times out", "resize product photos in a worker", "upload timeout",
     ["admin page times out uploading big photos"]),
    (3, "Use ruff instead of flake8", "one tool for lint and format", "lint", []),
]


def make_index(path: str, entries) -> None:
    """An index with the schema the embedder reads (entry.cues, fts title/body/tags), in WAL mode
    like the real one."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE IF NOT EXISTS entry(rowid INTEGER PRIMARY KEY, id TEXT, cues TEXT)")
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(title, body, tags, "
                     "tokenize='porter unicode61 remove_diacritics 2')")
        add_entries(conn, entries)
    finally:
        conn.close()


def add_entries(conn, entries) -> None:
    for rowid, title, body, tags, cues in entries:
        conn.execute("INSERT INTO entry(rowid, id, cues) VALUES (?, ?, ?)", (rowid, f"d-{rowid}", "\n".join(cues)))
        conn.execute("INSERT INTO fts(rowid, title, body, tags) VALUES (?, ?, ?, ?)", (rowid, title, body, tags))


class FakeEmbedder:
    """Bag of hashed words: texts that share words are close. Records every text it embedded."""

    def __init__(self):
        self.seen: list[str] = []
        self.calls = 0

    @staticmethod
    def vector(text: str):
        v = np.zeros(384, dtype=np.float32)
        for word in text.lower().split():
            v[int(hashlib.sha1(word.encode()).hexdigest(), 16) % 384] += 1.0
        n = np.linalg.norm(v)
        return v / n if n else v

    def embed(self, texts):
        self.calls += 1
        self.seen += texts
        return np.stack([self.vector(t) for t in texts]) if texts else np.zeros((0, 384), np.float32)


def expected_sim(prompt: str, entry) -> float:
    _, title, body, tags, cues = entry
    q = FakeEmbedder.vector(prompt)
    return max(float(FakeEmbedder.vector(t) @ q) for t in (f"{title}\n{body}\n{tags}", *cues))


def request(env, req, timeout: float = 10.0):
    """One raw request line -> the decoded answer line."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(embed_client.socket_path(env))
        sock.sendall(req if isinstance(req, bytes) else (jsonload.dumps(req) + "\n").encode())
        return _read_answer(sock)
    finally:
        sock.close()


class Running:
    """``serve`` in a thread; stopped by setting its event and waking it with a connection."""

    def __init__(self, env, embedder, idle_seconds=3600.0, check_every=None):
        self.env = env
        self.stop = threading.Event()
        self.result = None
        self.ready = threading.Event()

        def load():
            return embedder

        def run():
            more = {} if check_every is None else {"check_every": check_every}
            self.result = embed_server.serve(env, load, idle_seconds, stop_event=self.stop, **more)

        self.thread = threading.Thread(target=run, daemon=True)

    def start(self):
        self.thread.start()
        wait_for_ping(self.env, self.thread)
        return self

    def close(self):
        if self.thread.is_alive():
            self.stop.set()
            try:
                request(self.env, {"op": "ping"}, timeout=2)
            except OSError:
                pass
            self.thread.join(10)
        assert not self.thread.is_alive()


def wait_for_ping(env, thread, deadline_s: float = 10.0) -> int:
    """Poll the socket until the embedder answers (or its thread ended, or the deadline passed)."""
    import time

    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        pid = embed_client.ping(env, 1.0)
        if pid is not None:
            return pid
        if thread is not None and not thread.is_alive():
            raise AssertionError("the embedder ended before it answered")
        time.sleep(0.01)
    raise AssertionError("the embedder never answered")


@pytest.fixture
def env(isolated_home):
    """The test HOME without the "unavailable" stamp that keeps hooks from starting an embedder
    (tests/support/fake_embedder.no_embedder): these tests decide themselves whether one starts."""
    e = dict(os.environ)
    try:
        os.unlink(os.path.join(paths.state_dir(e), embed_client.UNAVAILABLE_NAME))
    except FileNotFoundError:
        pass
    return e


@pytest.fixture
def index_path(env):
    return paths.recall_index_file(env)


@pytest.fixture
def server(env, index_path):
    make_index(index_path, ENTRIES)
    fake = FakeEmbedder()
    running = Running(env, fake).start()
    running.fake = fake
    try:
        yield running
    finally:
        running.close()


def test_warm_answers_once_every_entry_is_embedded_then_sims_cover_them_all(env, index_path, monkeypatch):
    fake = FakeEmbedder()
    sent = []  # each answer with what had been embedded when it was sent
    real_send = embed_server._send
    monkeypatch.setattr(embed_server, "_send", lambda conn, answer: (sent.append((answer, set(fake.seen))),
                                                                      real_send(conn, answer)))
    running = Running(env, fake).start()
    try:
        _warm_then_sims(env, index_path, fake, sent)
    finally:
        running.close()


def _warm_then_sims(env, index_path, fake, sent):
    make_index(index_path, ENTRIES)  # after the start: nothing is embedded before the warm request
    answer = request(env, {"op": "warm", "index": index_path})
    assert answer == {"ready": 3}
    texts = {f"{t}\n{b}\n{g}" for _, t, b, g, _ in ENTRIES} | {c for *_, cues in ENTRIES for c in cues}
    assert sent[-1][0] == answer and texts <= sent[-1][1]
    prompt = "the webhook comes before the order"
    answer = request(env, {"op": "sims", "index": index_path, "prompt": prompt, "rowids": [1, 2, 3, 77]})
    assert set(answer["sims"]) == {"1", "2", "3"}  # 77 is no entry
    for entry in ENTRIES:
        assert answer["sims"][str(entry[0])] == pytest.approx(expected_sim(prompt, entry), abs=1e-5)
    # the best cue wins over the whole text for entry 1
    assert answer["sims"]["1"] > float(FakeEmbedder.vector(prompt) @ FakeEmbedder.vector(
        f"{ENTRIES[0][1]}\n{ENTRIES[0][2]}\n{ENTRIES[0][3]}"))


def test_sims_answer_only_for_entries_whose_texts_are_all_cached(env, index_path, server, monkeypatch):
    assert request(env, {"op": "warm", "index": index_path}) == {"ready": 3}
    monkeypatch.setattr(embed_cache, "SIMS_BUDGET", 0.0)  # nothing missing gets embedded in the request
    conn = sqlite3.connect(index_path, isolation_level=None)
    try:
        add_entries(conn, [(4, "Deploy with blue green", "switch the router", "deploy", ["zero downtime release"])])
    finally:
        conn.close()
    answer = request(env, {"op": "sims", "index": index_path, "prompt": "release without downtime", "rowids": [4, 1, 2]})
    assert set(answer["sims"]) == {"1", "2"}
    # entry 4 went to the warm-up queue: warm waits for it, then sims include it
    assert request(env, {"op": "warm", "index": index_path}) == {"ready": 4}
    answer = request(env, {"op": "sims", "index": index_path, "prompt": "release without downtime", "rowids": [4, 1, 2]})
    assert set(answer["sims"]) == {"1", "2", "4"}


def test_a_sims_request_embeds_missing_texts_within_its_budget(env, index_path, tmp_path):
    # the index appears after the embedder started: nothing was warmed, the request embeds what it needs
    fake = FakeEmbedder()
    running = Running(env, fake).start()
    try:
        make_index(index_path, ENTRIES)
        answer = request(env, {"op": "sims", "index": index_path, "prompt": "photos upload timeout", "rowids": [2]})
        assert set(answer["sims"]) == {"2"}
        assert answer["sims"]["2"] == pytest.approx(expected_sim("photos upload timeout", ENTRIES[1]), abs=1e-5)
    finally:
        running.close()


class SignallingEmbedder(FakeEmbedder):
    """Sets ``embedded`` when it embeds ``text``."""

    def __init__(self, text: str):
        super().__init__()
        self.text, self.embedded = text, threading.Event()

    def embed(self, texts):
        out = super().embed(texts)
        if self.text in texts:
            self.embedded.set()
        return out


def _read_answer(sock) -> dict | None:
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return jsonload.loads(data) if data else None


def _connected(env) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    sock.connect(embed_client.socket_path(env))
    return sock


def test_the_prompt_is_embedded_before_its_candidates_arrive(env, index_path):
    prompt = "the webhook comes before the order"
    fake = SignallingEmbedder(prompt)
    make_index(index_path, ENTRIES)
    running = Running(env, fake).start()
    try:
        assert request(env, {"op": "warm", "index": index_path}) == {"ready": 3}
        with _connected(env) as sock:
            sock.sendall((jsonload.dumps({"op": "sims", "index": index_path, "prompt": prompt}) + "\n").encode())
            assert fake.embedded.wait(10)  # while the client has not said which entries it wants
            sock.sendall(b'{"rowids": [3, 1]}\n')
            answer = _read_answer(sock)
    finally:
        running.close()
    assert set(answer["sims"]) == {"1", "3"}
    assert answer["sims"]["1"] == pytest.approx(expected_sim(prompt, ENTRIES[0]), abs=1e-5)


def test_both_lines_sent_at_once_are_both_read(env, index_path, server):
    prompt = "photos upload timeout"
    with _connected(env) as sock:
        sock.sendall((jsonload.dumps({"op": "sims", "index": index_path, "prompt": prompt}) + "\n"
                      + '{"rowids": [2]}\n').encode())
        answer = _read_answer(sock)
    assert answer["sims"]["2"] == pytest.approx(expected_sim(prompt, ENTRIES[1]), abs=1e-5)


def test_a_client_that_leaves_after_its_prompt_gets_nothing_and_the_server_goes_on(env, index_path, server):
    with _connected(env) as sock:
        sock.sendall((jsonload.dumps({"op": "sims", "index": index_path, "prompt": "release notes"}) + "\n").encode())
        sock.shutdown(socket.SHUT_WR)
        assert _read_answer(sock) is None  # closed without a word
    assert "release notes" in server.fake.seen  # it was embedded all the same
    assert request(env, {"op": "ping"}) == {"ok": True, "pid": os.getpid()}


@pytest.mark.parametrize("follow, word", [(b"not json\n", "not JSON"), (b'{"rowids": "1"}\n', "list of integers"),
                                          (b"[1]\n", "not a JSON object"), (None, "no request line within")])
def test_a_bad_or_missing_second_line_gets_an_error_line(env, index_path, server, monkeypatch, follow, word):
    monkeypatch.setattr(embed_server, "READ_TIMEOUT", 0.2)
    with _connected(env) as sock:
        sock.sendall((jsonload.dumps({"op": "sims", "index": index_path, "prompt": "release notes"}) + "\n").encode())
        if follow is not None:
            sock.sendall(follow)
        answer = _read_answer(sock)
    assert word in answer["error"]
    assert request(env, {"op": "ping"}) == {"ok": True, "pid": os.getpid()}


def test_look_makes_it_embed_new_entries_without_a_prompt(env, index_path):
    new = (4, "Deploy with blue green", "switch the router", "deploy", ["zero downtime release"])
    fake = SignallingEmbedder("zero downtime release")
    make_index(index_path, ENTRIES)
    running = Running(env, fake).start()
    try:
        assert request(env, {"op": "warm", "index": index_path}) == {"ready": 3}
        conn = sqlite3.connect(index_path, isolation_level=None)
        try:
            add_entries(conn, [new])
        finally:
            conn.close()
        assert request(env, {"op": "look", "index": index_path}) == {"ok": True}
        assert fake.embedded.wait(10)  # in the idle gaps, no prompt asked for it
        assert "error" in request(env, {"op": "look", "index": "/elsewhere/index.sqlite"})
    finally:
        running.close()


def test_a_foreign_index_is_refused(env, tmp_path, server):
    other = str(tmp_path / "other.sqlite")
    make_index(other, ENTRIES)
    answer = request(env, {"op": "sims", "index": other, "prompt": "webhook", "rowids": [1]})
    assert "error" in answer and "other.sqlite" in answer["error"]
    assert "error" in request(env, {"op": "warm", "index": other})
    assert "error" in request(env, {"op": "sims", "index": "relative/index.sqlite", "prompt": "x", "rowids": [1]})


def test_garbage_gets_an_error_line_and_the_server_keeps_serving(env, index_path, server, monkeypatch):
    assert "error" in request(env, b"this is not json\n")
    assert "error" in request(env, b"[1, 2]\n")
    assert "error" in request(env, {"op": "launch"})
    assert "error" in request(env, {"op": "sims", "index": index_path, "prompt": 3, "rowids": [1]})
    assert "error" in request(env, {"op": "sims", "index": index_path, "prompt": "x", "rowids": ["1"]})
    assert "error" in request(env, {"op": "sims", "index": index_path, "prompt": "x", "rowids": [True]})
    long_line = b'{"op": "ping", "pad": "' + b"x" * (embed_server.MAX_REQUEST + 10) + b'"}\n'
    assert "longer than" in request(env, long_line)["error"]
    monkeypatch.setattr(embed_server, "READ_TIMEOUT", 0.2)
    assert "no request line" in request(env, b'{"op": "pi')["error"]
    assert request(env, {"op": "ping"}) == {"ok": True, "pid": os.getpid()}


def test_the_socket_is_private_and_removed_on_stop(env, index_path):
    make_index(index_path, ENTRIES)
    running = Running(env, FakeEmbedder()).start()
    path = embed_client.socket_path(env)
    try:
        assert stat.S_ISSOCK(os.stat(path).st_mode)
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    finally:
        running.close()
    assert running.result == "stopped"
    assert not os.path.exists(path)
    assert os.path.exists(embed_server.lock_path(env))  # lock files are never deleted


def test_it_leaves_when_idle(env, index_path):
    make_index(index_path, ENTRIES)
    running = Running(env, FakeEmbedder(), idle_seconds=0.3).start()
    running.thread.join(30)
    assert not running.thread.is_alive()
    assert running.result.startswith("idle")
    assert not os.path.exists(embed_client.socket_path(env))


def _ends(running, deadline_s: float = 10.0) -> str:
    """Why the embedder stopped, once its thread ended (an AssertionError past the deadline)."""
    running.thread.join(deadline_s)
    assert not running.thread.is_alive(), "the embedder is still serving"
    return running.result


def test_it_leaves_when_its_socket_file_is_removed(env, index_path):
    # a deleted HOME or state folder: nobody can reach it any more, so it must not wait out its idle hour
    make_index(index_path, ENTRIES)
    running = Running(env, FakeEmbedder(), idle_seconds=3600, check_every=0.05).start()
    path = embed_client.socket_path(env)
    try:
        os.unlink(path)
        assert _ends(running) == f"socket file {path} was removed"
    finally:
        running.close()


def test_it_leaves_when_its_socket_file_is_replaced_and_leaves_the_new_one(env, index_path):
    make_index(index_path, ENTRIES)
    running = Running(env, FakeEmbedder(), idle_seconds=3600, check_every=0.05).start()
    path = embed_client.socket_path(env)
    other = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        other.bind(path + ".new")
        os.replace(path + ".new", path)  # another embedder's socket now (its own state folder was remade)
        ino = os.stat(path).st_ino
        assert _ends(running) == f"socket file {path} was replaced by another file"
        assert os.stat(path).st_ino == ino  # not removed: it is not this embedder's
    finally:
        other.close()
        running.close()


def test_it_leaves_when_its_lock_file_is_removed(env, index_path):
    # the socket may live in the temp folder (a long state path): the lock file tells the state folder went
    make_index(index_path, ENTRIES)
    running = Running(env, FakeEmbedder(), idle_seconds=3600, check_every=0.05).start()
    try:
        os.unlink(embed_server.lock_path(env))
        assert _ends(running) == f"lock file {embed_server.lock_path(env)} was removed"
        assert not os.path.exists(embed_client.socket_path(env))  # its own socket it removes
    finally:
        running.close()


def test_it_leaves_when_its_code_changes(env, index_path, tmp_path, monkeypatch):
    # an upgrade rewrites the package: the hooks must not talk to the old code until it is idle an hour
    code = tmp_path / "embed_cache.py"
    code.write_text("# version 1\n")
    monkeypatch.setattr(embed_server, "code_files", lambda: [str(code)])
    make_index(index_path, ENTRIES)
    running = Running(env, FakeEmbedder(), idle_seconds=3600, check_every=0.05).start()
    try:
        (tmp_path / "new.py").write_text("# version 2, longer\n")
        os.replace(tmp_path / "new.py", code)  # how pip puts a new file in place
        assert _ends(running) == "its code changed (lazy-harness upgraded or reinstalled)"
        assert not os.path.exists(embed_client.socket_path(env))
    finally:
        running.close()


def test_its_code_files_are_the_installed_modules_it_runs_and_speaks():
    files = embed_server.code_files()
    names = {os.path.basename(f) for f in files}
    assert names == {"embed_server.py", "embed_cache.py", "embed_client.py", "embedder.py"}
    assert all(os.path.isfile(f) and os.path.dirname(f) == os.path.dirname(embed_server.__file__) for f in files)


def test_a_second_embedder_leaves_because_of_the_lock(env, index_path, server):
    loaded = []

    def load():
        loaded.append(1)
        return FakeEmbedder()

    # why: a short idle time, so that a broken lock fails this test instead of hanging it
    assert embed_server.serve(env, load, 0.5, stop_event=threading.Event()) == "another embedder holds the lock"
    assert loaded == []  # it did not even load the model
    assert request(env, {"op": "ping"}) == {"ok": True, "pid": os.getpid()}


def test_a_stale_socket_file_is_replaced(env, index_path):
    path = embed_client.socket_path(env)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(path)
    stale.close()  # the file stays, nobody listens
    assert embed_client.similarities(env, index_path, "x" * 30, [1], 1.0)[0] is None
    running = Running(env, FakeEmbedder()).start()
    try:
        assert request(env, {"op": "ping"})["ok"] is True
    finally:
        running.close()


def test_a_model_that_cannot_load_leaves_a_stamp_and_success_removes_it(env):
    def broken():
        raise ModelUnavailable("/x/model.onnx: SHA-256 abc is not the pinned def; not loaded")

    why = embed_server.serve(env, broken, 3600)
    assert why.startswith("unavailable")
    stamp = embed_server.unavailable_path(env)
    with open(stamp, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    assert lines[0] == "/x/model.onnx: SHA-256 abc is not the pinned def; not loaded"
    import sys

    assert lines[1] == sys.executable
    assert not os.path.exists(embed_client.socket_path(env))
    running = Running(env, FakeEmbedder()).start()
    try:
        assert not os.path.exists(stamp)
    finally:
        running.close()


def test_a_missing_index_is_an_error_answer_not_a_crash(env, index_path, server):
    os.unlink(index_path)
    for suffix in ("-wal", "-shm"):
        try:
            os.unlink(index_path + suffix)
        except FileNotFoundError:
            pass
    answer = request(env, {"op": "sims", "index": index_path, "prompt": "anything at all", "rowids": [1]})
    assert "error" in answer
    assert request(env, {"op": "ping"})["ok"] is True


def test_idle_minutes_come_from_the_config(env):
    cfg = paths.config_file(env)
    os.makedirs(os.path.dirname(cfg), exist_ok=True)
    assert embed_server.idle_seconds_from_config(env) == 3600
    with open(cfg, "w", encoding="utf-8") as fh:
        fh.write("[recall]\nsemantic_idle_minutes = 5\n")
    from lazy_harness.config.schema import SCHEMA

    if "semantic_idle_minutes" not in SCHEMA["recall"]:
        pytest.skip("recall.semantic_idle_minutes is not in the config schema yet")
    assert embed_server.idle_seconds_from_config(env) == 300


class PickyEmbedder(FakeEmbedder):
    """Raises on a text holding "poison"; gives a vector of the wrong size for a text holding "warped"."""

    def embed(self, texts):
        if any("poison" in t for t in texts):
            raise RuntimeError("cannot embed that")
        out = super().embed(texts)
        return out[:, :100] if any("warped" in t for t in texts) else out


def test_an_embedder_failure_is_an_error_line_and_the_rest_goes_on(env, index_path):
    entries = ENTRIES[:2] + [(3, "A poison entry", "its text cannot be embedded", "x", ["a fine cue"])]
    running = Running(env, PickyEmbedder()).start()
    try:
        make_index(index_path, entries)
        assert request(env, {"op": "warm", "index": index_path}) == {"ready": 2}  # 3 never will be
        assert "prompt failed" in request(env, {"op": "sims", "index": index_path, "prompt": "poison", "rowids": [1]})["error"]
        assert "error" in request(env, {"op": "sims", "index": index_path, "prompt": "warped", "rowids": [1]})
        answer = request(env, {"op": "sims", "index": index_path, "prompt": "webhook order", "rowids": [1, 2, 3]})
        assert set(answer["sims"]) == {"1", "2"}
    finally:
        running.close()
