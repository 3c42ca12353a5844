"""The `codex exec` that distils a Codex session runs with that session's ``CODEX_HOME`` (its login,
its config.toml), whoever started the worker: a Codex session run with its own home is often
drained by a worker another session's hook started (a session with the default home, a Claude Code
one), or by one already running. A home another user could have planted a config.toml in is not
used. A fake ``codex`` alone on PATH records the home each call ran with."""

import os
from pathlib import Path

from lazy_harness import paths, queue
from tests.support import fake_codex
from tests.support.sessions import place_rollout
from tests.worker.spendrig import configure, run_worker, tasks


def _own_codex_home(home: Path, name: str = "work-codex") -> Path:
    """A CODEX_HOME of its own, closed to others as Codex makes it."""
    custom = Path(home) / name
    (custom / "sessions").mkdir(parents=True, mode=0o700)
    os.chmod(custom, 0o700)
    return custom


def _queue_codex_session(project: Path, codex_home: Path | None, hook_env: dict, event: str = "SessionEnd") -> None:
    """The recorded rollout under ``codex_home`` queued as a Codex hook running with ``hook_env`` queues it
    (``event`` handoff-now: read whole again, as ``lh knowledge handoff-now --again`` asks)."""
    sid, rollout = place_rollout(project, codex_home=codex_home)
    payload = {"session_id": sid, "transcript_path": rollout, "cwd": str(project), "lh_agent": "codex"}
    again = {queue.AGAIN: "1"} if event == "handoff-now" else {}
    queue.enqueue(paths.queue_dir(), {**queue.task_fields(payload, event, True, hook_env), **again})


def test_the_distill_call_runs_with_the_sessions_own_codex_home(isolated_home, tmp_path, monkeypatch):
    fake = fake_codex.use(tmp_path, monkeypatch)  # PATH: the fake codex alone, no claude
    configure(isolated_home, min_user_chars=50)
    project = tmp_path / "api"
    project.mkdir()
    custom = _own_codex_home(isolated_home)
    assert "CODEX_HOME" not in os.environ  # the worker is started by a hook of the default home
    _queue_codex_session(project, custom, {**os.environ, "CODEX_HOME": str(custom)})

    stats = run_worker()

    assert stats.processed == 1, tasks("failed") or tasks("done")
    [rec] = fake_codex.calls(fake)
    assert rec["codex_home"] == str(custom)

    # the same home opened to every local user: another could have put a config.toml in it
    os.chmod(custom, 0o777)
    _queue_codex_session(project, custom, {**os.environ, "CODEX_HOME": str(custom)}, "handoff-now")
    stats = run_worker()
    assert stats.processed == 1, tasks("failed")
    assert fake_codex.calls(fake)[1]["codex_home"] is None  # the worker's own (default) home
    with open(os.path.join(paths.logs_dir(), "worker.log")) as fh:
        assert f"CODEX_HOME {custom} of the session not used for the model call ({custom} is open to group" in fh.read()


def test_a_default_home_session_is_distilled_with_the_default_home(isolated_home, tmp_path, monkeypatch):
    """The worker was started by a session with its own CODEX_HOME; the task is of the default home's."""
    fake = fake_codex.use(tmp_path, monkeypatch)
    configure(isolated_home, min_user_chars=50)
    project = tmp_path / "api"
    project.mkdir()
    default = _own_codex_home(isolated_home, ".codex")
    assert str(default) == paths.codex_home()
    _queue_codex_session(project, None, dict(os.environ))
    monkeypatch.setenv("CODEX_HOME", str(_own_codex_home(isolated_home)))

    stats = run_worker()

    assert stats.processed == 1, tasks("failed") or tasks("done")
    [rec] = fake_codex.calls(fake)
    assert rec["codex_home"] == str(default)


def test_a_codex_session_distilled_by_claude_says_nothing_of_its_codex_home(isolated_home, tmp_path, monkeypatch):
    """``[worker] distiller = "claude"``: the call is ``claude -p``, which no ``CODEX_HOME`` concerns;
    a session home the worker would refuse for ``codex exec`` is not named in worker.log as unused."""
    from tests.support import fake_claude

    claude = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home, min_user_chars=50)
    with open(os.path.join(str(isolated_home), ".config", "lazy-harness", "config.toml"), "a") as fh:
        fh.write('[worker]\ndistiller = "claude"\n')
    project = tmp_path / "api"
    project.mkdir()
    custom = _own_codex_home(isolated_home)
    os.chmod(custom, 0o777)  # refused for codex exec (another user could plant a config.toml)
    _queue_codex_session(project, custom, {**os.environ, "CODEX_HOME": str(custom)})

    stats = run_worker()

    assert stats.processed == 1, tasks("failed") or tasks("done")
    assert len(fake_claude.calls(claude)) == 1
    with open(os.path.join(paths.logs_dir(), "worker.log")) as fh:
        log = fh.read()
    assert "processed" in log and "CODEX_HOME" not in log, log
