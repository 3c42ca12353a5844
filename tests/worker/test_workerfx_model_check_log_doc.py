"""docs/how/cost.md names the log that gets the model check's ``model check waits: ...`` line: the
worker's (the pipeline's log writes worker.log, prefixed with the task), not hooks.log."""

import inspect
from pathlib import Path

from lazy_harness.worker import model_check, pipeline

COST = Path(__file__).resolve().parents[2] / "docs" / "how" / "cost.md"


def test_workerfx_cost_md_says_the_model_check_waits_line_goes_to_worker_log():
    text = " ".join(COST.read_text(encoding="utf-8").split())
    assert "worker.log: `task <id>: model check waits: ...`" in text
    assert "hooks.log: `model check waits" not in text
    assert 'log(f"model check waits: {verdict.reason}")' in inspect.getsource(model_check._room)
    assert "logfile.WORKER" in inspect.getsource(pipeline._log)
