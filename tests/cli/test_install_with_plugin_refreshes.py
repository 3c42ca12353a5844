"""``lh hooks install`` with the plugin enabled, on a settings file that already holds our hooks from an
earlier install (an older version, a virtualenv since moved): those hooks run whatever install
decides (the plugin's runs step aside), so install brings them to this install's command instead of
leaving the old one in place; ``--leave-settings`` still leaves the file alone."""

import json

from lazy_harness import paths, settings
from tests.cli.lhrun import invoke
from tests.support import claude_plugin

GONE = "/gone/venv/bin/python"  # the interpreter of a virtualenv moved since the first install


def commands() -> dict[str, str]:
    with open(paths.user_settings_file()) as fh:
        return {o.event: o.command for o in settings.find_ours(json.load(fh))}


def test_install_replaces_an_older_registration_though_the_plugin_is_enabled():
    claude_plugin.install()  # enabledPlugins in the user file
    settings.install(paths.user_settings_file(), python=GONE)
    assert all(GONE in c for c in commands().values())
    r = invoke("hooks", "install")  # not a terminal: the default
    assert r.code == 0, r.out + r.err
    assert commands() == {e: settings.command_for(e) for e in settings.EVENTS}, r.out
    assert "left alone" not in r.out
    assert f"rewrote the command of Stop in {paths.user_settings_file()}" in r.out


def test_leave_settings_still_leaves_the_older_registration_alone():
    claude_plugin.install()
    settings.install(paths.user_settings_file(), python=GONE)
    before = open(paths.user_settings_file(), "rb").read()
    r = invoke("hooks", "install", "--leave-settings")
    assert r.code == 0, r.out + r.err
    assert open(paths.user_settings_file(), "rb").read() == before
