"""``lh hooks install`` in one terminal while Claude Code runs in another: Claude Code takes its hooks when a
session starts (a change made outside it waits for a review in /hooks), so the session already running
is not remembered, and install said nothing about it. It now says it when it changed the file."""

from tests.cli.lhrun import invoke

SAID = ("note: a Claude Code session already running may keep the hooks it started with: these run from the next "
        "session (or once the change is reviewed in /hooks)")


def test_install_that_writes_says_running_sessions_do_not_have_them_yet(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert SAID in invoke("hooks", "install", "--write-settings").out
    again = invoke("hooks", "install", "--write-settings").out
    assert "already installed" in again and SAID not in again
