"""``lh hooks uninstall`` beside an enabled plugin: the plugin still runs the hooks, so the command
must not say that nothing is queued any more."""

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.support import claude_plugin


def test_uninstall_with_the_plugin_enabled_says_the_plugin_still_queues_and_how_to_stop_it():
    assert invoke("hooks", "install", "--write-settings").code == 0
    claude_plugin.install()
    r = invoke("hooks", "uninstall")
    assert r.code == 0, r.out + r.err
    assert f"from {paths.user_settings_file()}" in r.out
    assert "nothing is queued" not in r.out, r.out
    assert "the plugin lazy-harness@lazy-harness (user scope) still runs the hooks" in r.out, r.out
    assert "claude plugin disable lazy-harness@lazy-harness" in r.out, r.out


def test_uninstall_with_the_plugin_disabled_says_nothing_is_queued():
    assert invoke("hooks", "install").code == 0
    claude_plugin.install(enabled=False)
    r = invoke("hooks", "uninstall")
    assert r.code == 0, r.out + r.err
    assert "without hooks nothing is queued" in r.out, r.out
    assert "still runs the hooks" not in r.out, r.out
