"""``lh memory usage`` after the only entry shown was reset: the table is empty, and the line above the
totals says the showings were reset, not "no entry shown to a distilled session yet" beside a total
that counts the session and its characters (which read as the report contradicting itself)."""

import time

from lazy_harness import paths
from lazy_harness.memory import usage_log
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
SHOWN = "d-0000abcd"


def test_a_reset_is_named_and_the_totals_still_count_the_session(tmp_path, monkeypatch, isolated_home):
    proj = ms.make_project(str(tmp_path), "app")
    mdir = paths.memory_dir(proj)
    usage_log.append(mdir, [usage_log.line("session", NOW - 30, session="s1", chars=474),
                            usage_log.line("shown", NOW - 30, session="s1", id=SHOWN, chars=474)])
    monkeypatch.chdir(proj)
    before = invoke("memory", "usage")
    assert SHOWN in before.out and "no entry" not in before.out, before.out
    usage_log.reset(None, mdir, SHOWN, NOW)
    after = invoke("memory", "usage")
    assert after.code == 0, after.err
    assert "no entry shown to a distilled session yet" not in after.out, after.out
    assert "reset with lh memory usage --reset" in after.out, after.out
    assert "total: 1 session(s), 0 shown" in after.out and "474 characters injected" in after.out, after.out


def test_a_project_never_counted_still_says_none_yet(tmp_path, monkeypatch, isolated_home):
    monkeypatch.chdir(ms.make_project(str(tmp_path), "app"))
    said = invoke("memory", "usage")
    assert "no entry shown to a distilled session yet" in said.out and "total: 0 session(s)" in said.out, said.out
