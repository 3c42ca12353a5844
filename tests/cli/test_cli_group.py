"""The top-level group loads its commands lazily; a mistyped command still gets click's suggestion."""

from tests.cli.lhrun import invoke


def test_a_mistyped_top_level_command_gets_a_suggestion():
    r = invoke("hook", "install")
    assert r.code == 2
    assert "Error: No such command 'hook'. Did you mean 'hooks'?" in r.err


def test_a_command_close_to_none_gets_no_suggestion_and_real_ones_still_run():
    r = invoke("zzzz")
    assert r.code == 2 and "No such command 'zzzz'." in r.err and "Did you mean" not in r.err
    assert invoke("--version").code == 0
    assert invoke("doctr", "--help").code == 2
    assert "Usage: lh memory" in invoke("memory", "--help").out


def test_an_unknown_option_before_the_command_is_still_an_option_error():
    r = invoke("--nope", "hooks")
    assert r.code == 2 and "No such option" in r.err and "--nope" in r.err


def test_before_click_8_4_the_same_words_are_written(monkeypatch):
    import click

    monkeypatch.delattr(click.exceptions, "NoSuchCommand", raising=False)
    assert "Error: No such command 'hook'. Did you mean 'hooks'?" in invoke("hook", "install").err
    assert "Did you mean" not in invoke("zzzz").err
