"""Only a failed distillation call tells the person "distillation failing": a model check that fails
after a distillation that worked, or a consolidation whose call fails, fails no task, so it writes no
notice for `lh status`, `lh doctor` or the next SessionStart (worker/calls.py)."""

import json
import os
import time

import pytest

from lazy_harness import config, notice, paths
from lazy_harness.memory import store
from lazy_harness.worker import consolidate as job
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import run_hook
from tests.support import fake_claude
from tests.worker.spendrig import queue_session, run_worker, tasks
from tests.worker.test_model_check import _checks, _configure, _held_texts, _log, _run

FAILURES = {
    "overloaded": {"__fail__": "API Error: 529 overloaded"},  # retried, then given up
    "unreadable": "I would rather not say.",  # no JSON answer
    "unreachable": {"__fail__": "API Error: Unable to connect to API (ECONNREFUSED)"},  # a wait
}


@pytest.mark.parametrize("failure", sorted(FAILURES))
def test_a_failed_check_writes_no_distillation_failing_notice(isolated_home, tmp_path, monkeypatch, failure):
    bin_dir, project, payload = _run(tmp_path, monkeypatch, isolated_home, check_answer=FAILURES[failure])
    assert len(_checks(bin_dir)) == 1
    assert "model check not made: " in _log()
    assert _held_texts(project) == {} and tasks("failed") == []
    assert notice.read_raw() is None
    monkeypatch.chdir(project)
    status = invoke("status")
    assert status.code == 0, status.err
    assert "distillation failing" not in status.out + status.err
    start = dict(payload, hook_event_name="SessionStart", source="startup",
                 session_id="0b7d3c1e-2a4f-4c5e-9d8b-7e6f5a4b3c2d")
    result = run_hook("SessionStart", start)
    assert result.returncode == 0, result.stderr
    assert "distillation failing" not in json.loads(result.stdout).get("systemMessage", "")


def test_a_failed_distill_call_still_says_distillation_failing(isolated_home, tmp_path, monkeypatch):
    """The control: the notice stays for the call it is about, with its task in failed/."""
    fake_claude.use(tmp_path, monkeypatch, answer="not json at all")
    _configure(isolated_home)
    project = tmp_path / "p"
    project.mkdir()
    queue_session(project)
    run_worker()
    assert len(tasks("failed")) == 1
    raw = notice.read_raw()
    assert raw is not None and raw[0] == notice.FAILING and "distillation failing" in raw[2]


def test_a_failed_consolidation_call_writes_no_notice(isolated_home, tmp_path, monkeypatch):
    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer={})
    proj = tmp_path / "proj"
    (proj / ".git").mkdir(parents=True)
    mdir, ldir = paths.memory_dir(str(proj)), paths.learnings_dir()
    os.makedirs(ldir, exist_ok=True)
    meta = {"project": "proj", "session_id": "s1", "task_id": "t-s1", "cwd": str(proj),
            "project_folder": os.path.basename(mdir)}
    store.persist({"decisions": [{"summary": "Serve with vLLM"}, {"summary": "Serve with llama.cpp"}]},
                  mdir, ldir, meta, time.time() - 60)
    fake_claude.control(bin_dir, mode="fail", code=1, stderr="API Error: 529 overloaded")
    cfg = config.defaults()
    cfg["compound_loop"]["retry_backoff_seconds"] = 0
    res = job.run(mdir, ldir, "proj", cfg, os.environ, time.time())
    assert res.status == "failed" and "overloaded" in res.reason, res
    assert len(fake_claude.calls(bin_dir)) >= 1
    assert notice.read_raw() is None
