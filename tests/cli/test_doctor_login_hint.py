"""The ``distillation:`` row of lh doctor and lh status while the worker's notice says distillation is
failing: a refused login (the notice quotes the call's cause first, ``authentication was refused``, as
the ledger's outcome ``auth`` records it) says how to log in to the distiller; any other cause keeps
``lh logs; lh queue``."""

import pytest

from tests.cli.lhrun import invoke
from tests.cli.test_doctor import checks
from tests.support import fake_claude, fake_codex
from tests.worker.spendrig import configure, ledger_lines, queue_session, run_worker

SID = "11111111-1111-4111-8111-111111111111"


def _one_refused_distillation(project) -> None:
    project.mkdir()
    queue_session(project, session_id=SID)
    run_worker()


@pytest.mark.parametrize("mode,hint", [("auth", "claude /login (or set ANTHROPIC_API_KEY)"),
                                       ("unreachable", "lh logs; lh queue")])
def test_the_distillation_row_says_how_to_log_in_only_when_the_login_was_refused(isolated_home, tmp_path,
                                                                                 monkeypatch, mode, hint):
    fake_claude.use(tmp_path, monkeypatch, mode=mode)
    configure(isolated_home)
    _one_refused_distillation(tmp_path / "shop")
    assert [line["outcome"] for line in ledger_lines()] == [mode]

    status, line = checks(invoke("doctor").out)["distillation"]
    assert status == "warn" and line.endswith(f"(hint: {hint})"), line
    assert ("/login" in line) == (mode == "auth")
    said = [x for x in invoke("status").out.splitlines() if x.startswith("distillation:")]
    assert said and said[0].endswith(f"(hint: {hint})"), said


def test_a_codex_distiller_refused_is_told_codex_login(isolated_home, tmp_path, monkeypatch):
    """The distiller in use is the one to log in to: ``codex login``, not claude's."""
    fake_codex.use(tmp_path, monkeypatch, mode="fail", message="unexpected status 401 Unauthorized: invalid api key",
                   code=1)
    configure(isolated_home)
    _one_refused_distillation(tmp_path / "shop")
    assert [line["outcome"] for line in ledger_lines()] == ["auth"]

    status, line = checks(invoke("doctor").out)["distillation"]
    assert status == "warn" and line.endswith("(hint: codex login (or check the provider's API key))"), line
