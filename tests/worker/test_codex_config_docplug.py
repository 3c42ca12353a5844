"""A distill call that Codex refuses because it cannot load its config.toml waits like a refused
login: one attempt, the task stays pending with the reason (naming config.toml), nothing fails, and
the worker does not spin on it. The stderr below is what codex-cli 0.171.0 printed (exit 1, no JSON
event on stdout) for a config.toml with a typo and for one with a value of the wrong type."""

import os
import time

import pytest

from lazy_harness import logfile
from lazy_harness.worker import codex_distill, llm
from tests.support import fake_codex
from tests.worker.spendrig import configure, ledger_lines, queue_session, run_worker, tasks

UNCLOSED = ("Error loading config.toml:\n{path}:2:23: unclosed table, expected `]`\n  |\n"
            "2 | [projects.\"/home/me/p\"\n  |                       ^\n")
WRONG_TYPE = "Error loading config.toml: invalid type: integer `5`, expected a string\nin `model`\n"

# the real codex stops before its first event: the fake's ``fail`` mode prints events first
CONFIG_MODE = ('if mode == "config":\n    sys.stderr.write(ctl["stderr"])\n    sys.exit(1)\n'
               'say({"type": "thread.started"')


def use_unloadable_config(tmp_path, monkeypatch, stderr: str):
    """The fake codex (tests/support/fake_codex.py), taught to fail as Codex does when it cannot load
    config.toml: ``stderr`` on stderr, nothing on stdout, exit 1."""
    bin_dir = fake_codex.use(tmp_path, monkeypatch)
    script = bin_dir / "codex"
    text = script.read_text()
    anchor = 'say({"type": "thread.started"'
    assert text.count(anchor) == 1  # the fake still starts its answer there
    script.write_text(text.replace(anchor, CONFIG_MODE, 1))
    fake_codex.control(bin_dir, mode="config", stderr=stderr)
    return bin_dir


@pytest.fixture
def codex_home(isolated_home, monkeypatch):
    home = isolated_home / ".codex"
    home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(home))
    return home


@pytest.mark.parametrize("stderr", [UNCLOSED, WRONG_TYPE], ids=["unclosed-table", "wrong-type"])
def test_codex_that_cannot_load_its_config_is_a_config_failure_that_waits(tmp_path, monkeypatch, codex_home,
                                                                            stderr):
    said = stderr.format(path=codex_home / "config.toml")
    use_unloadable_config(tmp_path, monkeypatch, said)
    cfg = {"compound_loop": {"timeout_seconds": 20}, "worker": {"distiller": "codex"}}
    workdir = tmp_path / "neutral"
    workdir.mkdir()

    with pytest.raises(llm.CallError) as err:
        codex_distill.call("p", cfg, dict(os.environ), str(workdir))

    assert (err.value.cause, err.value.action) == ("config", llm.WAIT)
    assert "Error loading config.toml" in err.value.message
    assert "config.toml" in (err.value.hint or "") and "lh doctor" in (err.value.hint or "")


def test_the_worker_keeps_the_task_pending_and_says_why_once(isolated_home, tmp_path, monkeypatch, codex_home):
    bin_dir = use_unloadable_config(tmp_path, monkeypatch, UNCLOSED.format(path=codex_home / "config.toml"))
    configure(isolated_home, max_attempts=3)
    project = tmp_path / "api"
    project.mkdir()
    queue_session(project)

    stats = run_worker()

    assert len(fake_codex.calls(bin_dir)) == 1  # one attempt, not max_attempts
    assert (stats.failed, stats.waiting) == (0, 1) and tasks("failed") == []
    [waiter] = tasks("")
    assert waiter["waits"] == "1" and "config.toml" in waiter["wait_reason"]
    assert float(waiter["not_before"]) > time.time()
    with open(logfile.log_path(logfile.WORKER)) as fh:
        said = [line for line in fh if "failed (config)" in line]
    assert len(said) == 1 and str(codex_home / "config.toml") in said[0]
    assert [line["outcome"] for line in ledger_lines()] == ["config"]
    assert run_worker().finished == 0 and len(fake_codex.calls(bin_dir)) == 1  # not before its time
