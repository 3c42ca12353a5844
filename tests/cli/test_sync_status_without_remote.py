"""``lh sync --status`` with no ``[sync] remote`` (sync was never set up) says memory stays on this
machine instead of "ahead: ? commit(s) not pushed; behind: ?", question marks that read as something
broken; with a remote not fetched yet the question marks stay (unknown, not off)."""

from tests.cli.lhrun import invoke


def test_no_remote_says_sync_is_off_not_question_marks():
    r = invoke("sync", "--status")
    assert r.code == 0, r.out + r.err
    assert "?" not in r.out, r.out
    assert "ahead:      - (no remote: nothing is pushed or pulled; memory stays on this machine)" in r.out, r.out
    assert "last sync:  never" in r.out, r.out
