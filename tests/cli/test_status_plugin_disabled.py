"""``lh status`` with the plugin disabled (``claude plugin disable``, which the README gives to pause
it) and no settings file holding our hooks says the plugin is paused and how to enable it again, as
``lh doctor`` does, not "not registered ... (lh hooks install)": for a plugin user that advice writes a
second registration that runs beside the plugin once it is enabled again."""

from tests.cli.lhrun import invoke
from tests.support import claude_plugin


def _hooks_line() -> str:
    r = invoke("status")
    assert r.code == 0, r.out + r.err
    [line] = [ln for ln in r.out.splitlines() if ln.startswith("hooks: ")]
    return line


def test_a_disabled_plugin_reads_as_paused_with_the_command_that_enables_it():
    claude_plugin.install(enabled=False)
    line = _hooks_line()
    assert line.startswith("hooks: paused: the plugin lazy-harness@lazy-harness is disabled"), line
    assert "claude plugin enable lazy-harness@lazy-harness" in line, line
    assert "lh hooks install" not in line, line


def test_without_any_plugin_the_advice_stays_lh_hooks_install():
    assert _hooks_line() == ("hooks: not registered for Claude Code here: no session is remembered or read back "
                             "(lh hooks install)")
