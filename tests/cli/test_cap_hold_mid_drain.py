"""A cap nearly reached partway through the queue: the worker stops before a call that would pass it;
every task left waiting says why, in `lh status` and `lh queue`, not "not distilled yet"."""

from tests.cli.lhrun import invoke
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session, run_worker, tasks


def test_each_task_left_by_a_cap_nearly_reached_names_the_cap(isolated_home, tmp_path, monkeypatch):
    fake_claude.use(tmp_path, monkeypatch, cost=0.4)
    project = tmp_path / "shop"
    project.mkdir()
    configure(isolated_home, budget={"daily_usd": 1.0, "monthly_usd": 50.0})
    for i in range(4):
        queue_session(project, session_id=f"aaaaaaaa-0000-4000-8000-00000000000{i}")

    run_worker()

    assert len(tasks("done")) == 2 and len(tasks("")) == 2  # $0.80 spent; the next call (~$0.41) would pass $1
    monkeypatch.chdir(project)
    status = invoke("status").out
    waiting = [line for line in status.splitlines() if line.startswith("  ") and "aaaaaaaa  waiting" in line]
    assert len(waiting) == 2 and all("daily cap $1.00 nearly reached" in line for line in waiting), status
    listed = invoke("queue").out
    pending = [line for line in listed.splitlines() if "-aaaaaaaa" in line and " pending " in line]
    assert len(pending) == 2 and all("daily cap $1.00 nearly reached" in line for line in pending), listed
