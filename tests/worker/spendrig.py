"""Shared steps of the spend tests: a config with caps, sessions queued in-process, a worker run."""

import json
import os
import time

from lazy_harness import paths, queue
from lazy_harness.cost import ledger
from lazy_harness.worker import drain, llm, loop
from tests.support.sessions import place


def configure(home, budget: dict | None = None, model_check: bool = False, learned_check: bool = False,
              **loop_keys) -> None:
    """A config with the loop on. why ``model_check`` is off unless asked: these tests count and number
    the distill calls and their ledger lines; the model check's call has its own (test_model_check.py).
    why ``learned_check`` too: they count what the rules hold; the learned check has its own tests
    (test_learned_check.py), and it holds the fake answer's terse learning (ADR 0046's limits)."""
    path = os.path.join(str(home), ".config", "lazy-harness", "config.toml")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = ["[compound_loop]", "enabled = true", "retry_backoff_seconds = 0"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in loop_keys.items()]
    if budget:
        lines += ["[budget]"] + [f"{k} = {json.dumps(v)}" for k, v in budget.items()]
    lines += ["[trust]", f"model_check = {json.dumps(model_check)}", f"learned_check = {json.dumps(learned_check)}"]
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")


def queue_session(project, session_id: str | None = None, name: str = "interactive.jsonl") -> dict:
    payload = place(project, name, session_id)
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    return payload


def spent(cost: float, when: float | None = None, project: str = "earlier", outcome: str = "ok",
          prompt_chars: int = 10_000_000) -> None:
    """A call already in the ledger (a huge prompt by default, so it hardly moves the estimate)."""
    usage = llm.Usage(model="claude-haiku-4-5", input_tokens=1000, output_tokens=100, cost_usd=cost, reported=True)
    ledger.record(usage, {"project": project, "session_id": "s", "task_id": "t"}, outcome, prompt_chars,
                  now=time.time() if when is None else when)


def run_worker() -> drain.Stats:
    return loop.run(dict(os.environ))


def tasks(which: str) -> list[dict]:
    folder = queue.folder(paths.queue_dir(), which)
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(queue.SUFFIX))
    except FileNotFoundError:
        return []
    return [queue.read_task(os.path.join(folder, n)) for n in names]


def ledger_lines() -> list[dict]:
    try:
        with open(paths.ledger_file()) as fh:
            return [json.loads(line) for line in fh if line.strip()]
    except FileNotFoundError:
        return []


def nearly_reached(home, tmp_path, monkeypatch, sessions: int = 3):
    """$0.80 spent of a $1.00 daily cap, ``sessions - 2`` tasks left: the next call (~$0.41) would pass
    the cap, so the worker paused before it (a cap *nearly* reached). Returns the project folder."""
    from tests.support import fake_claude

    fake_claude.use(tmp_path, monkeypatch, cost=0.4)
    project = tmp_path / "shop"
    project.mkdir()
    configure(home, budget={"daily_usd": 1.0, "monthly_usd": 50.0})
    for i in range(sessions):
        queue_session(project, session_id=f"aaaaaaaa-0000-4000-8000-00000000000{i}")
    run_worker()
    assert len(tasks("done")) == 2 and len(tasks("")) == sessions - 2
    return project
