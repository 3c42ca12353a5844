"""The model check judges only what a persist opened (worker/model_check.py, ADR 0039): an open item
kept from an earlier session was judged when it was opened, so a distillation that writes nothing new
makes no check call, and one that opens an item beside kept ones sends the check that item alone. An
item closed and opened again is opened by that persist; one whose check a killed worker never made is
checked once, by the next worker (worker/owed.py)."""

import copy
import json
import os
import time

from lazy_harness import paths
from lazy_harness.memory import handoff, ids
from lazy_harness.worker import model_check
from tests.support import fake_claude
from tests.worker.spendrig import configure, ledger_lines, queue_session, run_worker, tasks

SIDS = [f"{n}{n}{n}{n}{n}{n}{n}{n}-aaaa-4bbb-8ccc-00000000000{n}" for n in range(1, 5)]
NEW_ITEM = "wire the retry command into the status page"
CHECK = {"check_block": [model_check.START, model_check.END], "check_hostile": []}


def _answer(handoff_items: list[str] | None = None, closed: list[str] | None = None) -> dict:
    answer = copy.deepcopy(fake_claude.DEFAULT_ANSWER)
    if handoff_items is not None:
        answer["handoff"] = handoff_items
    if closed is not None:
        answer["handoff_closed"] = closed
    return answer


def _session(project, n: int, age: float) -> None:
    """Queue session ``n``, its transcript ``age`` seconds old (handoff records carry the session's time,
    so each session is newer news than the one before)."""
    payload = queue_session(project, session_id=SIDS[n])
    when = time.time() - age
    os.utime(payload["transcript_path"], (when, when))


def _distil(bin_dir, project, n: int, age: float, answer: dict) -> None:
    fake_claude.control(bin_dir, answer=answer, **CHECK)
    _session(project, n, age)
    run_worker()
    assert [t["outcome"] for t in tasks("done")] == ["processed"] * (n + 1), tasks("done")


def _setup(tmp_path, monkeypatch, home):
    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer=_answer(), **CHECK)
    configure(home, model_check=True)
    project = tmp_path / "p"
    project.mkdir()
    return bin_dir, project


def _checked_ids(call: dict) -> list[str]:
    lines = call["stdin"].splitlines()
    start, end = lines.index(model_check.START), lines.index(model_check.END)
    return [e["id"] for e in json.loads("\n".join(lines[start + 1:end]))]


def _checks(bin_dir) -> list[dict]:
    return [c for c in fake_claude.calls(bin_dir) if fake_claude.is_check(c)]


def _open_ids(project) -> dict[str, str]:
    return {i["text"]: i["id"] for i in handoff.open_for_reading(paths.memory_dir(str(project)))}


def test_two_sessions_with_the_same_answer_pay_for_one_check(isolated_home, tmp_path, monkeypatch):
    bin_dir, project = _setup(tmp_path, monkeypatch, isolated_home)
    _distil(bin_dir, project, 0, 300, _answer())
    _distil(bin_dir, project, 1, 200, _answer())
    second = tasks("done")[1]["written"]
    assert "handoff kept" in second and "0 decisions" in second, second
    kinds = [line["kind"] for line in ledger_lines()]
    assert kinds.count(model_check.KIND) == 1, kinds
    assert kinds.count("distill") == 2
    assert len(_checks(bin_dir)) == 1


def test_a_new_item_beside_kept_ones_is_checked_alone(isolated_home, tmp_path, monkeypatch):
    bin_dir, project = _setup(tmp_path, monkeypatch, isolated_home)
    _distil(bin_dir, project, 0, 300, _answer())
    kept = _open_ids(project)
    assert len(kept) == 2
    _distil(bin_dir, project, 1, 200, _answer(list(kept) + [NEW_ITEM]))
    first, second = _checks(bin_dir)
    assert set(kept.values()) <= set(_checked_ids(first))
    assert _checked_ids(second) == [_open_ids(project)[NEW_ITEM]]


def test_an_item_closed_then_opened_again_is_checked_again(isolated_home, tmp_path, monkeypatch):
    bin_dir, project = _setup(tmp_path, monkeypatch, isolated_home)
    _distil(bin_dir, project, 0, 300, _answer())
    item, other = fake_claude.DEFAULT_ANSWER["handoff"]
    hid = _open_ids(project)[item]
    _distil(bin_dir, project, 1, 200, _answer([other], closed=[item]))
    assert item not in _open_ids(project)
    assert len(_checks(bin_dir)) == 1  # a close opens nothing: no check
    _distil(bin_dir, project, 2, 100, _answer([item, other]))
    assert _open_ids(project)[item] == hid
    assert _checked_ids(_checks(bin_dir)[-1]) == [hid]
    assert len(_checks(bin_dir)) == 2


def test_an_item_whose_check_a_killed_worker_never_made_is_checked_once(isolated_home, tmp_path, monkeypatch):
    """The worker dies in the check of the session that opened the items; a second session restates
    them. The next worker runs the owed check (the items in it) and the second session makes none."""
    import signal
    import subprocess
    import sys

    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer=_answer(), hold=[2], **CHECK)  # the check never answers
    configure(isolated_home, model_check=True)
    project = tmp_path / "p"
    project.mkdir()
    _session(project, 0, 300)
    worker = subprocess.Popen([sys.executable, "-P", "-m", "lazy_harness.worker"], env=dict(os.environ),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        assert fake_claude.is_check(fake_claude.wait_calls(bin_dir, 2)[1])  # the persist is done, its check runs
    finally:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()
        fake_claude.kill_running(bin_dir)
    opened = set(_open_ids(project).values())
    assert len(opened) == 2
    fake_claude.control(bin_dir, answer=_answer(), **CHECK)
    _session(project, 1, 200)
    run_worker()
    checks = _checks(bin_dir)
    assert len(checks) == 2, [_checked_ids(c) for c in checks]  # the killed one, the owed one, no other
    owed = _checked_ids(checks[1])
    decision = ids.entry_id("decision", fake_claude.DEFAULT_ANSWER["decisions"][0]["summary"])
    assert opened <= set(owed) and decision in owed
    assert sum(1 for c in fake_claude.calls(bin_dir) if not fake_claude.is_check(c)) == 2
