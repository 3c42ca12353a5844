"""Codex run with a CODEX_HOME of its own, then lh read in a shell without it: the hooks that ran are
in the home the queue's Codex tasks name (``transcripts=<home>/sessions``), so lh doctor, lh status
and lh hooks status read that home's hooks.json (and ask Codex with that CODEX_HOME) instead of
saying "not installed" and "not remembered" of sessions they list as distilled, and failing Claude
Code's hooks line. When no home holds our hooks, the fail line stays."""

import pytest

from lazy_harness import queue as spool
from tests.cli.lhrun import invoke
from tests.cli.test_codex_doctor_status import codex_rows, here, lines_of, system_bin_without_claude
from tests.cli.test_status import SIDS, task

__all__ = ["here", "system_bin_without_claude"]  # fixtures used below


@pytest.fixture
def work_home(here, tmp_path, monkeypatch):
    """Our hooks installed (and trusted) into CODEX_HOME=<tmp>/codex-work, one of its sessions
    distilled; then CODEX_HOME unset, as in another terminal."""
    home = tmp_path / "codex-work"
    (home / "sessions").mkdir(parents=True)
    monkeypatch.setenv("CODEX_HOME", str(home))
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    monkeypatch.delenv("CODEX_HOME")
    task(spool.DONE, SIDS[0], here["project"], 60, agent="codex", transcripts=str(home / "sessions"),
         outcome="processed", reason="distilled")
    return home


def test_doctor_reads_the_home_the_queued_sessions_ran_with(work_home):
    r = invoke("doctor")
    found = lines_of(r.out)
    assert r.code == 0, r.out
    assert not [line for line in r.out.splitlines() if line.startswith("fail")], r.out
    assert found["hooks"].startswith("info  hooks: no Claude Code settings file holds lazy-harness hooks; "
                                     "Codex's hooks.json does")
    rows = codex_rows(r.out)
    assert rows[0].startswith("info  codex home: ")
    assert f"CODEX_HOME={work_home}, whose hooks.json holds them" in rows[0]
    assert f"(hint: CODEX_HOME={work_home} lh hooks status;" in rows[0]
    assert rows[1] == f"ok    codex hooks: {work_home / 'hooks.json'}: SessionStart, Stop, SessionEnd, UserPromptSubmit"
    assert rows[2] == "ok    codex trust: Codex trusts our hooks"  # asked with that CODEX_HOME: its trust
    assert rows[3].startswith("ok    codex sessions: 1 seen")
    assert "not remembered" not in r.out


@pytest.mark.parametrize("command", [("status",), ("hooks", "status")])
def test_status_names_the_home_and_how_to_check_it(work_home, command):
    out = invoke(*command).out
    [line] = [x for x in out.splitlines() if x.startswith("codex: ")]
    assert line.startswith(f"codex: hooks installed (4 in {work_home / 'hooks.json'}, the CODEX_HOME the queue's "
                           "Codex sessions ran with, not this shell's: ")
    assert f"check it with CODEX_HOME={work_home} lh hooks status), trust trusted; 1 session seen" in line
    assert "not installed" not in out


def test_uninstall_for_claude_code_names_that_home(work_home):
    out = invoke("hooks", "uninstall").out
    assert (f"Codex CLI's {work_home / 'hooks.json'} still holds 4 lazy-harness hooks, left as they are: "
            f"CODEX_HOME={work_home} lh hooks uninstall --agent codex removes them") in out


def test_a_home_uninstalled_since_still_fails_the_hooks_line(work_home, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(work_home))
    assert invoke("hooks", "uninstall", "--agent", "codex").code == 0
    monkeypatch.delenv("CODEX_HOME")
    r = invoke("doctor")
    assert r.code == 1
    assert lines_of(r.out)["hooks"].startswith("fail  hooks: no settings file holds lazy-harness hooks")
    assert "codex home" not in r.out
    [line] = [x for x in invoke("status").out.splitlines() if x.startswith("codex: ")]
    assert line == "codex: hooks not installed (lh hooks install --agent codex); 1 session seen"
