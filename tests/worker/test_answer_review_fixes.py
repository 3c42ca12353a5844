"""Defects a review found in how the worker turns the model's distill answer into memory: an answer
nested past the interpreter's stack, a text answer whose first JSON object is not the answer, a
learning titled only with symbols, and an entry fixed by hand that came back in its old wording."""

import copy
import glob
import json
import os

import pytest

from lazy_harness import paths, queue
from lazy_harness.worker import answer_parse, llm, pipeline
from tests.support import fake_claude
from tests.support.sessions import place
from tests.worker.spendrig import configure, ledger_lines, run_worker, tasks

SID = "33333333-3333-4333-8333-333333333333"
DEEP = "[" * 100_000 + "]" * 100_000  # why so deep: Python 3.13 parses thousands of levels
GOOD = {"decisions": [{"summary": "Use SQLite for the queue index", "rationale": "simple"}],
        "handoff": ["wire the retry command"]}


def _envelope(**fields: object) -> str:
    out = {"type": "result", "subtype": "success", "is_error": False, "total_cost_usd": 0.25,
           "usage": {"input_tokens": 10, "output_tokens": 5}}
    out.update(fields)
    return json.dumps(out)


def _deep_envelope() -> str:
    """An envelope whose structured answer is nested 2,000 deep (json.loads raises RecursionError)."""
    head = '{"type":"result","subtype":"success","is_error":false,"result":"","structured_output":'
    return (head + '{"decisions":[{"summary":"ok","context":' + DEEP + '}]},"total_cost_usd":0.25,'
            '"usage":{"input_tokens":10,"output_tokens":5}}')


def _project(tmp_path):
    project = tmp_path / "proj"
    project.mkdir(exist_ok=True)
    return project


def _enqueue(payload: dict, event: str = "SessionEnd") -> None:
    """``event`` handoff-now: the session read whole again, as ``lh knowledge handoff-now --again`` asks."""
    again = {queue.AGAIN: "1"} if event == "handoff-now" else {}
    queue.enqueue(paths.queue_dir(), {**queue.task_fields(payload, event, True), **again})


def _jsonl(name: str, project) -> list[dict]:
    path = os.path.join(paths.memory_dir(str(project)), name)
    try:
        with open(path, encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]
    except FileNotFoundError:
        return []


def _learning_files() -> list[str]:
    return sorted(glob.glob(os.path.join(paths.learnings_dir(), "*", "*.md")))


# --- 1. an answer nested past the stack ----------------------------------------------------------

@pytest.mark.parametrize("stdout", [
    _deep_envelope(),
    "warning: something first\n" + _deep_envelope(),
    _envelope(result="Here it is: " + DEEP),
    _envelope(result='{"decisions": [{"summary": "x", "context": ' + DEEP + "}]}"),
    _envelope(result="```json\n" + DEEP + "\n```"),
])
def test_a_deeply_nested_answer_is_unreadable_not_a_crash(stdout):
    with pytest.raises(llm.ModelError):
        answer_parse.parse_envelope(stdout)
    assert llm.usage_of(stdout, "m").cost_usd == 0.25
    assert llm.usage_of(stdout, "m").input_tokens == 10


def test_a_deeply_nested_answer_is_ledgered_failed_and_not_called_again(isolated_home, tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch, answer=_deep_envelope())
    configure(isolated_home, max_attempts=2)
    payload = place(_project(tmp_path), session_id=SID)
    _enqueue(payload)
    stats = run_worker()
    assert stats.failed == 1
    [failed] = tasks(queue.FAILED)
    assert failed["reason"].startswith("model call failed")
    assert [(r["outcome"], r["total_cost_usd"]) for r in ledger_lines()] == [("answer", 0.25), ("answer", 0.25)]
    _enqueue(payload)  # a later event of the same, unchanged session
    run_worker()
    assert len(fake_claude.calls(fake)) == 2
    assert len(ledger_lines()) == 2


# --- 2. a text answer whose first object is not the answer ---------------------------------------

@pytest.mark.parametrize("text", [
    '{"decisions": [{"summary": "Use SQLite", "rationale": "simple"},], "handoff": ["x"]}',
    'The schema is like {"note": "x"}. Nothing else.',
    '{"note": "nothing to record"}',
])
def test_a_text_answer_without_an_answer_object_is_unreadable(text):
    with pytest.raises(llm.ModelError):
        answer_parse.parse_envelope(_envelope(result=text))


@pytest.mark.parametrize("text", [
    'see {"note": 1} then ' + json.dumps(GOOD),
    'The schema looks like {"decisions": []}... no, like {"note": "x"}. Answer:\n' + json.dumps(GOOD),
    "```json\n" + json.dumps({"memory": GOOD}) + "\n```",
    "```json\n{\"example\": true}\n```\nand the answer:\n```json\n" + json.dumps(GOOD) + "\n```",
])
def test_a_text_answer_takes_the_object_holding_answer_keys(text):
    assert answer_parse.parse_envelope(_envelope(result=text))["decisions"] == GOOD["decisions"]


def test_a_text_answer_with_a_trailing_comma_fails_and_keeps_the_cursor(isolated_home, tmp_path, monkeypatch):
    bad = '{"decisions": [{"summary": "Use SQLite for the queue index", "rationale": "simple"},], "handoff": ["x"]}'
    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer=_envelope(result=bad))
    configure(isolated_home, max_attempts=1)
    payload = place(_project(tmp_path), session_id=SID)
    _enqueue(payload)
    assert run_worker().failed == 1
    assert _jsonl("decisions.jsonl", _project(tmp_path)) == []
    fake_claude.control(bin_dir, mode="ok", answer=GOOD)
    _enqueue(payload, "retry")  # lh queue retry --failed
    run_worker()
    assert [r["summary"] for r in _jsonl("decisions.jsonl", _project(tmp_path))] == ["Use SQLite for the queue index"]


def test_an_example_object_before_the_answer_does_not_lose_it(isolated_home, tmp_path, monkeypatch):
    text = 'see {"note": 1} then ' + json.dumps(GOOD)
    fake_claude.use(tmp_path, monkeypatch, answer=_envelope(result=text))
    configure(isolated_home)
    _enqueue(place(_project(tmp_path), session_id=SID))
    run_worker()
    assert [r["summary"] for r in _jsonl("decisions.jsonl", _project(tmp_path))] == ["Use SQLite for the queue index"]


# --- 3. a learning titled only with symbols -------------------------------------------------------

def test_learnings_titled_only_with_symbols_are_stored(isolated_home, tmp_path, monkeypatch):
    items = [{"title": "\U0001F680\U0001F525", "learning": "Ship behind a feature flag first", "scope": "project"},
             {"title": "\u2192 \u2190", "learning": "Arrows title", "scope": "project"},
             {"title": "?!", "learning": "Run the migration twice in staging", "scope": "project"}]
    fake_claude.use(tmp_path, monkeypatch, answer={"learnings": items})
    configure(isolated_home)
    payload = place(_project(tmp_path), session_id=SID)
    _enqueue(payload)
    run_worker()
    found = _learning_files()
    assert len(found) == 2
    assert all(os.path.basename(f)[11:].startswith("learning-") for f in found)
    texts = "".join(open(f, encoding="utf-8").read() for f in found)
    assert all(i["learning"] in texts for i in items[:2])
    with open(os.path.join(paths.logs_dir(), "worker.log"), encoding="utf-8") as fh:
        log = fh.read()
    assert "learnings[2]: title '?!' has no letter, digit or symbol: not written" in log  # named, not anonymous
    _enqueue(payload, pipeline.WHOLE_SESSION_EVENT)  # the same session again: nothing twice
    run_worker()
    assert _learning_files() == found


# --- 4. an entry fixed by hand, then the same session again ---------------------------------------

def _edit_jsonl(path: str, change) -> None:
    with open(path, encoding="utf-8") as fh:
        recs = [json.loads(line) for line in fh if line.strip()]
    for rec in recs:
        change(rec)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in recs))


def test_an_entry_fixed_by_hand_does_not_come_back_in_its_old_wording(isolated_home, tmp_path, monkeypatch):
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home)
    payload = place(_project(tmp_path), session_id=SID)
    _enqueue(payload)
    run_worker()
    memory = paths.memory_dir(str(_project(tmp_path)))
    _edit_jsonl(os.path.join(memory, "decisions.jsonl"),
                lambda r: r.update(summary="Use a file queue between the hooks and the worker (typo fixed)"))

    def reword_and_drop_the_id(rec: dict) -> None:
        rec["summary"] = "pytest collected the worktree twice (fixed wording)"
        del rec["id"]  # known by its text digest alone

    _edit_jsonl(os.path.join(memory, "failures.jsonl"), reword_and_drop_the_id)
    [learning] = _learning_files()
    with open(learning, encoding="utf-8") as fh:
        text = fh.read()
    with open(learning, "w", encoding="utf-8") as fh:
        fh.write(text.replace("title: Rename is the atomic commit of a spool", "title: Rename is how a spool commits"))
    again = copy.deepcopy(fake_claude.DEFAULT_ANSWER)
    again["decisions"].append({"summary": "Keep the queue under the claude dir", "rationale": "one place"})
    fake_claude.control(bin_dir, mode="ok", answer=again)
    _enqueue(payload, pipeline.WHOLE_SESSION_EVENT)
    run_worker()
    assert [r["summary"] for r in _jsonl("decisions.jsonl", _project(tmp_path))] == [
        "Use a file queue between the hooks and the worker (typo fixed)", "Keep the queue under the claude dir"]
    assert [r["summary"] for r in _jsonl("failures.jsonl", _project(tmp_path))] == [
        "pytest collected the worktree twice (fixed wording)"]
    assert _learning_files() == [learning]
