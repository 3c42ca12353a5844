"""What a prompt was shown (the session's shown record, its usage line) is written by the resident
answerer once its reply went out, not while the hook waits for it; and not at all when the reply did not
reach the hook (it gave up waiting and did the work itself, writing its own: the answerer's lines
counted the showing twice)."""

import json
import os
import socket
import time

import pytest

from lazy_harness.memory import files, ids, usage
from lazy_harness.recall.embed import vectors
from lazy_harness.recall.index import lookup
from lazy_harness.recall.prompt import already_shown
from lazy_harness.recall.resident import answerer, client
from tests.support import memory_samples as ms

NOW = time.time()
SUMMARY = "Postgres advisory locks keep the deploy scheduler from running twice"
PROMPT = "the deploy scheduler ran twice last night, lock it with postgres advisory locks"


@pytest.fixture(autouse=True)
def kept_texts_forgotten():
    """The answerer keeps entries' texts and vectors by rowid (``Kept.open``): in this process, the next
    test's index would be read through them."""
    yield
    lookup.keep_docs(0)
    vectors.keep_vectors(0)


def question(project: str, sid: str) -> bytes:
    payload = {"session_id": sid, "cwd": project, "transcript_path": f"/nowhere/{sid}.jsonl",
               "hook_event_name": "UserPromptSubmit", "prompt": PROMPT}
    q = {"stamp": client.code_stamp(), "env": client.question_env(dict(os.environ)), "payload": payload,
         "now": repr(NOW)}
    return (json.dumps(q) + "\n").encode()


def memory(tmp_path) -> tuple[str, str]:
    from lazy_harness import paths

    project = ms.make_project(tmp_path, "deployer")
    ms.write_jsonl(os.path.join(paths.memory_dir(project), files.DECISIONS), [
        ms.decision(NOW - 3 * ms.DAY, SUMMARY, "a second run double-charged", tags=["deploy", "postgres"],
                    project="deployer")])
    os.makedirs(os.path.dirname(paths.config_file()), exist_ok=True)
    with open(paths.config_file(), "w", encoding="utf-8") as fh:
        fh.write("[recall]\nsemantic = false\n")
    ms.index_now()
    return project, ids.entry_id("decision", SUMMARY)


def test_the_showing_is_recorded_once_the_reply_went_out(tmp_path):
    project, eid = memory(tmp_path)
    a, b = socket.socketpair()
    with a, b:
        b.sendall(question(project, "s-answered"))
        b.shutdown(socket.SHUT_WR)
        assert answerer._one_caller(a, answerer.Kept(), client.code_stamp()) is False
        reply = json.loads(b.recv(1 << 20))
    assert eid in reply["out"], reply
    assert eid in already_shown.read(None, "s-answered")
    with open(usage.seen_file(None, "s-answered"), encoding="utf-8") as fh:
        assert f"{eid}:" in fh.read()


def test_a_reply_the_hook_no_longer_waits_for_records_nothing(tmp_path):
    project, eid = memory(tmp_path)
    a, b = socket.socketpair()
    with a:
        b.sendall(question(project, "s-gave-up"))
        b.shutdown(socket.SHUT_WR)
        b.close()  # the hook gave up waiting: it answers the prompt itself and records what it showed
        assert answerer._one_caller(a, answerer.Kept(), client.code_stamp()) is False
    assert eid not in already_shown.read(None, "s-gave-up")
    assert not os.path.exists(usage.seen_file(None, "s-gave-up"))
