"""With no call in the ledger yet, the cap check prices the first call at the configured model's
price: a person who set an opus model and a small cap is not let past it by a haiku-priced guess."""

import pytest

from lazy_harness.cost import budget
from tests.support import fake_claude
from tests.worker.spendrig import configure, ledger_lines, queue_session, run_worker, tasks


@pytest.mark.parametrize("model,runs", [("claude-haiku-4-5", True), ("claude-opus-4-1", False)])
def test_the_first_call_is_priced_at_the_configured_model(isolated_home, tmp_path, monkeypatch, model, runs):
    assert budget.guess(30_000, "claude-haiku-4-5") < 0.10 < budget.guess(30_000, "claude-opus-4-1")
    fake = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home, budget={"daily_usd": 0.10, "monthly_usd": 10.0}, model=model)
    project = tmp_path / "p"
    project.mkdir()
    queue_session(project)
    stats = run_worker()
    assert (stats.processed == 1) is runs
    assert (len(fake_claude.calls(fake)) == 1) is runs
    if not runs:
        [waiter] = tasks("")
        assert "cap" in waiter["wait_reason"] and ledger_lines() == []
