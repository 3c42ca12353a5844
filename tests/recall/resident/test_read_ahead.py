"""The resident answerer reads entries ahead between questions (recall/resident/answerer.py ``Kept.
read_ahead``): the newest first, within its bound, a part at a time and only while no question waits;
what it read answers as the index does, and a new index file starts it over."""

import os
import socket
import sqlite3
import time

import pytest

from lazy_harness import jsonload, paths
from lazy_harness.recall.embed import vectors
from lazy_harness.recall.index import lookup, store
from lazy_harness.recall.prompt import recall
from lazy_harness.recall.resident import answerer
from tests.support import memory_samples as ms

NOW = time.time()
TOPICS = ["stylesheet bundle", "payment webhook", "cache warmup", "login form", "retry budget", "search index",
          "release notes", "upload queue", "avatar cropping", "invoice export"]
PROMPT = "the deploy scheduler ran twice last night, can we lock it in postgres"


@pytest.fixture
def project(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    ms.write_jsonl(os.path.join(paths.memory_dir(root), "decisions.jsonl"), [
        ms.decision(NOW - (40 - i) * 3600, f"Keep the {TOPICS[i % 10]} change {i} behind a flag",
                    f"the {TOPICS[(i + 3) % 10]} broke when it shipped at once") for i in range(39)] + [
        ms.decision(NOW - 600, "Use Postgres advisory locks for the deployment scheduler",
                    "two runners deployed at once")])
    ms.index_now()
    yield root
    lookup.keep_docs(0)
    vectors.keep_vectors(0)


def rowids() -> list[int]:
    conn = sqlite3.connect(paths.recall_index_file())
    try:
        return [r for (r,) in conn.execute("SELECT rowid FROM lex_doc ORDER BY rowid")]
    finally:
        conn.close()


def read_all_ahead(kept: answerer.Kept) -> int:
    calls = 1
    while kept.read_ahead():
        calls += 1
    return calls


def test_it_reads_the_newest_entries_ahead_within_its_bound_and_answers_the_same(project, monkeypatch):
    monkeypatch.setattr(answerer, "AHEAD", 25)
    monkeypatch.setattr(answerer, "AHEAD_PART", 10)
    payload = {"cwd": project, "hook_event_name": "UserPromptSubmit", "prompt": PROMPT}
    alone = recall.answer({**payload, "session_id": "s-alone"}, dict(os.environ), NOW)
    said: list[str] = []
    kept = answerer.Kept(said.append)
    kept.open(paths.recall_index_file())
    assert read_all_ahead(kept) == 4  # 10, 10, 5, then the bound
    assert len(said) == 1 and said[0].startswith("read ahead: the words of 25 entries and the vectors of 25 in ")
    newest = rowids()[-25:]
    assert sorted(lookup._DOCS.ahead) == newest and sorted(vectors._VECS.ahead) == newest
    assert not kept.read_ahead() and kept.ahead == 0
    conn = sqlite3.connect(paths.recall_index_file())
    with conn:  # what the rescoring and the similarities read of them now is what was read ahead
        conn.execute(f"DELETE FROM lex_doc WHERE rowid >= {newest[0]}")
        conn.execute(f"DELETE FROM vec WHERE key IN (SELECT key FROM key WHERE rowid >= {newest[0]})")
    conn.close()
    got = recall.answer({**payload, "session_id": "s-kept"}, dict(os.environ), NOW, opener=kept.open)
    assert got == alone and got[1] is not None
    kept.close()


def test_a_new_index_file_starts_the_reading_ahead_over(project):
    kept = answerer.Kept()
    path = paths.recall_index_file()
    kept.open(path)
    read_all_ahead(kept)
    assert len(lookup._DOCS.ahead) == 40
    store.remove(path)  # another index, as a rebuild leaves it: its rowids may name other entries
    ms.index_now()
    kept.open(path)
    assert lookup._DOCS.ahead == {} and vectors._VECS.ahead == {} and kept.ahead == max(rowids()) + 1
    read_all_ahead(kept)
    assert sorted(lookup._DOCS.ahead) == rowids()
    kept.close()


def test_a_failure_while_reading_ahead_ends_it_logged_and_raises_nothing(project, monkeypatch):
    def damaged(*_):
        raise sqlite3.DatabaseError("database disk image is malformed")

    said: list[str] = []
    kept = answerer.Kept(said.append)
    kept.open(paths.recall_index_file())
    monkeypatch.setattr(lookup, "warm_docs", damaged)
    assert kept.read_ahead() is False and kept.ahead == 0
    assert said[0] == "reading ahead stopped: DatabaseError: database disk image is malformed"
    kept.close()


class Recorder(answerer.Kept):
    """A Kept whose reading ahead is recorded; the fourth part is the last."""

    def __init__(self, events: list[str]) -> None:
        super().__init__()
        self.ahead, self.events = 1, events

    def read_ahead(self) -> bool:
        self.events.append("read")
        if self.events.count("read") == 4:
            self.ahead = 0
            answerer._stop()  # why: ends the loop once it waits for questions again
        return bool(self.ahead)


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.setattr(answerer, "stop_asked", False)
    monkeypatch.setattr(answerer, "idle_seconds", lambda env: 600.0)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(tmp_path / "s"))
    sock.listen(1)
    with sock:
        yield sock, str(tmp_path / "s")


def test_a_waiting_question_is_answered_before_any_reading_ahead(server):
    sock, path = server
    events: list[str] = []
    hook = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    hook.connect(path)
    hook.sendall(jsonload.dumps({"stamp": "other code", "env": {}, "payload": {}}).encode() + b"\n")
    hook.shutdown(socket.SHUT_WR)
    with hook:
        why = answerer._answer_until_idle(sock, Recorder(events), {})
        assert b'"stale"' in hook.recv(1000)
    assert why == "other code installed: left" and events == []


def test_with_no_question_it_reads_ahead_to_the_end_then_waits(server):
    sock, _ = server
    events: list[str] = []
    why = answerer._answer_until_idle(sock, Recorder(events), {})
    assert why == "stopped (SIGTERM)" and events == ["read"] * 4


def test_it_leaves_when_a_module_of_the_installed_code_changes_or_goes(server, tmp_path, monkeypatch):
    """Between questions the answerer looks at the installed package's module files: one edited in
    place (an upgrade of the same version, the protocol's two files untouched) or removed makes it
    leave, so no answer comes from code the hook would no longer run."""
    sock, _ = server
    monkeypatch.setattr(answerer, "WAKE_SECONDS", 0.0)
    package = tmp_path / "pkg"
    (package / "recall").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    rank = package / "recall" / "rank.py"
    rank.write_text("BAR = 0.6\n")
    code = answerer.Code(str(package))
    assert sorted(code.seen) == sorted([str(package / "__init__.py"), str(rank)]) and not code.changed()
    rank.write_text("BAR = 0.7\n")  # same size: the time tells
    os.utime(rank, ns=(time.time_ns(), time.time_ns() + 1_000_000))
    assert code.changed()
    assert answerer._answer_until_idle(sock, Recorder([]), {}, code) == "other code installed: left"
    again = answerer.Code(str(package))
    (package / "__init__.py").unlink()
    assert again.changed()


def test_the_installed_code_as_it_is_is_not_other_code(tmp_path):
    """Only the package's sources count: the installed package unchanged is not a change, nor is a
    compiled file written beside a source (``__pycache__``)."""
    import py_compile

    code = answerer.Code()
    assert len(code.seen) > 100 and all(p.endswith(".py") for p in code.seen) and not code.changed()
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "mod.py").write_text("X = 1\n")
    mine = answerer.Code(str(package))
    py_compile.compile(str(package / "mod.py"), doraise=True)
    assert (package / "__pycache__").is_dir() and not mine.changed()
