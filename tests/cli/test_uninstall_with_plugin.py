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


def test_uninstall_of_a_projects_file_from_elsewhere_asks_about_that_project(tmp_path, monkeypatch):
    proj = tmp_path / "proj"
    (proj / ".claude").mkdir(parents=True)
    target = str(proj / ".claude" / "settings.local.json")
    claude_plugin.install(scope="project", project=str(proj))
    assert invoke("hooks", "install", "--write-settings", "--settings", target).code == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    r = invoke("hooks", "uninstall", "--settings", target)
    assert r.code == 0, r.out + r.err
    assert "still runs the hooks" in r.out and "--scope project" in r.out, r.out
    assert "nothing is queued" not in r.out, r.out


def test_uninstall_with_only_the_plugin_says_the_plugin_runs_the_hooks_not_just_nothing_to_remove():
    """A plugin user runs ``lh hooks uninstall`` (before ``pip uninstall``): no settings file holds our
    hooks, and "nothing to remove" alone read as if no hook ran any more, while the plugin still does."""
    claude_plugin.install()
    r = invoke("hooks", "uninstall")
    assert r.code == 0, r.out + r.err
    assert "nothing to remove" in r.out, r.out
    assert "the plugin lazy-harness@lazy-harness (user scope) still runs the hooks" in r.out, r.out
    assert "claude plugin disable lazy-harness@lazy-harness" in r.out, r.out


def test_nothing_to_remove_without_a_plugin_says_nothing_more():
    r = invoke("hooks", "uninstall")
    assert r.code == 0, r.out + r.err
    assert "nothing to remove" in r.out and "plugin" not in r.out, r.out
