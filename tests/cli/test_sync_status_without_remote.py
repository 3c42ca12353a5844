"""``lh sync --status`` with no ``[sync] remote`` (sync was never set up) says memory stays on this
machine instead of "ahead: ? commit(s) not pushed; behind: ?", question marks that read as something
broken; with a remote not fetched yet the question marks stay (unknown, not off)."""

import os

from lazy_harness import paths
from tests.cli.lhrun import invoke


def test_no_remote_says_sync_is_off_not_question_marks():
    r = invoke("sync", "--status")
    assert r.code == 0, r.out + r.err
    assert "?" not in r.out, r.out
    assert "ahead:      - (no remote: nothing is pushed or pulled; memory stays on this machine)" in r.out, r.out
    assert "last sync:  never" in r.out, r.out


def test_a_wrong_value_elsewhere_still_shows_the_status_and_says_rounds_wait(isolated_home):
    """``[budget] daily_usd = "x"`` made ``lh sync --status``, which reads no network and writes nothing,
    print only the config line and exit 1: the remote, the last sync and its error were out of reach
    while every round, the automatic ones too, waited for the file to be fixed, which nothing said."""
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write('[sync]\nremote = "/srv/git/memory.git"\n[budget]\ndaily_usd = "x"\n')
    r = invoke("sync", "--status")
    assert r.code == 0, r.out + r.err
    assert "remote:     /srv/git/memory.git" in r.out, r.out
    assert "budget.daily_usd" in r.err and r.err.count("\n") == 1, r.err
    assert "waits: no round runs (lh sync, after a write, at session start) until config.toml is valid" in r.out
    round_ = invoke("sync")
    assert round_.code == 1 and "budget.daily_usd" in round_.err, round_
