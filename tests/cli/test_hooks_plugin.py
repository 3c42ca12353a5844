"""``lh hooks install`` and ``lh doctor`` beside the lazy-harness plugin, and the two lines install
prints about what happens next."""

import json
import os
import pty
import re
import subprocess

from lazy_harness import __version__, paths, plugin, settings
from tests.cli.lhrun import invoke, lh_script
from tests.support import claude_plugin, fake_claude


def ours_in_user_file() -> list:
    try:
        with open(paths.user_settings_file()) as fh:
            return settings.find_ours(json.load(fh))
    except FileNotFoundError:
        return []


def test_install_says_which_sessions_are_distilled_and_what_to_run_next():
    cfg = paths.config_file()
    os.makedirs(os.path.dirname(cfg))
    with open(cfg, "w") as fh:
        fh.write("[compound_loop]\nmin_user_chars = 120\n")
    r = invoke("hooks", "install")
    assert r.code == 0, r.out + r.err
    first, second = r.out.splitlines()[-2:]
    assert "at least 120 characters" in first and "at least 4 messages" in first and "skipped" in first
    assert "lh memory show" in second and "lh ui" in second


def test_with_the_plugin_enabled_install_leaves_settings_json_alone_by_default():
    claude_plugin.install()
    before = open(paths.user_settings_file()).read()
    r = invoke("hooks", "install")  # not a terminal: the default
    assert r.code == 0, r.out + r.err
    assert f"plugin: lazy-harness@lazy-harness {__version__} (user scope), enabled" in r.out
    assert "where both do, the plugin's runs step aside" in r.out and "not a terminal: taking the default" in r.out
    assert f"settings: {paths.user_settings_file()} left alone (the plugin runs the hooks)" in r.out
    assert open(paths.user_settings_file()).read() == before
    assert "compound_loop.enabled = true" in r.out and "lh memory show" in r.out  # the loop is still switched on


def test_write_settings_registers_them_anyway_and_leave_settings_says_nothing_asked():
    claude_plugin.install()
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0 and "where both do, the plugin's runs step aside" in r.out
    assert [o.event for o in ours_in_user_file()] == list(settings.EVENTS)
    r = invoke("hooks", "install", "--leave-settings")
    assert "not a terminal" not in r.out
    assert "already holds our hooks: they run, and the plugin's step aside (hint: lh hooks uninstall" in r.out


def test_without_the_plugin_the_flags_change_nothing():
    r = invoke("hooks", "install", "--leave-settings")
    assert r.code == 0 and "plugin:" not in r.out
    assert [o.event for o in ours_in_user_file()] == list(settings.EVENTS)


def install_on_a_terminal(answer: bytes) -> str:
    """``lh hooks install`` with a pseudo-terminal as stdin, typing ``answer`` at its question."""
    main, sub = pty.openpty()
    try:
        proc = subprocess.Popen(lh_script() + ["hooks", "install"], stdin=sub, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, env=dict(os.environ))
        os.close(sub)
        os.write(main, answer)
        out, _ = proc.communicate(timeout=60)
    finally:
        os.close(main)
    assert proc.returncode == 0, out
    return out.decode()


def test_on_a_terminal_install_asks_and_enter_leaves_settings_json_alone():
    claude_plugin.install()
    out = install_on_a_terminal(b"\n")
    assert re.search(r"Leave .*settings\.json alone and let the plugin run the hooks\? \[Y/n\]", out), out
    assert "left alone (the plugin runs the hooks)" in out and ours_in_user_file() == []


def test_on_a_terminal_answering_no_writes_settings_json():
    claude_plugin.install()
    out = install_on_a_terminal(b"n\n")
    assert "(updated)" in out, out
    assert [o.event for o in ours_in_user_file()] == list(settings.EVENTS)


# -- lh doctor ---------------------------------------------------------------------------------------


def doctor_lines(tmp_path, monkeypatch, lh_hook: bool = True) -> dict[str, list[str]]:
    fake_claude.on_path(monkeypatch, tmp_path / "bin")
    fake_claude.install(tmp_path / "bin")
    if lh_hook:
        script = tmp_path / "bin" / "lh-hook"
        script.write_text("#!/bin/sh\nexit 0\n")
        script.chmod(0o755)
    else:  # why: an activated virtualenv (CI's, a developer's) puts the real lh-hook on PATH
        keep = [d for d in os.environ["PATH"].split(os.pathsep)
                if not os.path.exists(os.path.join(d, "lh-hook"))]
        monkeypatch.setenv("PATH", os.pathsep.join(keep))
    r = invoke("doctor")
    found: dict[str, list[str]] = {}
    for line in r.out.splitlines():
        status, _, rest = line.partition("  ")
        found.setdefault(rest.split(":", 1)[0].strip(), []).append(f"{status.strip()} {line}")
    return found


def test_doctor_sees_the_plugin_and_needs_no_settings_hooks(tmp_path, monkeypatch):
    claude_plugin.install()
    assert invoke("hooks", "install").code == 0  # leaves settings.json alone, switches the loop on
    found = doctor_lines(tmp_path, monkeypatch)
    (plugin_line,) = found["plugin"]
    assert plugin_line.startswith("ok ")
    assert f"lazy-harness@lazy-harness {__version__} (user scope), enabled" in plugin_line
    assert str(tmp_path / "bin" / "lh-hook") in plugin_line
    assert found["hooks"] == ["ok ok    hooks: registered by the plugin lazy-harness@lazy-harness"]
    assert "hooks twice" not in found


def test_doctor_asks_for_an_update_of_an_installed_copy_older_than_this_lh(tmp_path, monkeypatch):
    """Claude Code runs its cached copy of the plugin until the person updates it: a copy whose hooks
    are not this version's (an install of 0.1.0, without ``PYTHONHOME=``) is named, with the update."""
    older = json.loads(json.dumps(plugin.hooks_document()).replace("PYTHONHOME= ", ""))
    claude_plugin.install(hooks=older, version="0.1.0")
    (line,) = doctor_lines(tmp_path, monkeypatch)["plugin"]
    assert line.startswith("warn ") and "lazy-harness@lazy-harness 0.1.0 (user scope)" in line
    assert f"not the hooks of this lh ({__version__})" in line
    assert ("claude plugin marketplace update lazy-harness && claude plugin update lazy-harness@lazy-harness"
            in line)


def test_doctor_warns_when_the_plugin_and_settings_json_both_register_our_hooks(tmp_path, monkeypatch):
    claude_plugin.install()
    assert invoke("hooks", "install", "--write-settings").code == 0
    (line,) = doctor_lines(tmp_path, monkeypatch)["hooks twice"]
    assert line.startswith("warn ") and "the plugin's runs step aside" in line
    assert "lh hooks uninstall, or claude plugin disable lazy-harness@lazy-harness" in line


def test_doctor_fails_an_enabled_plugin_without_lh_hook_on_path(tmp_path, monkeypatch):
    claude_plugin.install()
    (line,) = doctor_lines(tmp_path, monkeypatch, lh_hook=False)["plugin"]
    assert line.startswith("fail ") and "lh-hook is not on PATH" in line and "pipx install" in line


def test_doctor_reports_a_disabled_plugin_and_still_wants_hooks(tmp_path, monkeypatch):
    claude_plugin.install(enabled=False)
    found = doctor_lines(tmp_path, monkeypatch)
    (line,) = found["plugin"]
    assert "disabled" in line and "claude plugin enable lazy-harness@lazy-harness" in line
    assert found["hooks"][0].startswith("fail ")  # nothing registers them


def test_doctor_without_the_plugin_says_so(tmp_path, monkeypatch):
    assert invoke("hooks", "install").code == 0
    found = doctor_lines(tmp_path, monkeypatch)
    assert found["plugin"] == ["ok ok    plugin: not installed (hooks come from settings.json)"]


def test_hooks_status_lists_the_plugin():
    claude_plugin.install()
    r = invoke("hooks", "status")
    assert r.code == 0
    assert (f"plugin: lazy-harness@lazy-harness {__version__} (user scope), enabled in {paths.user_settings_file()}"
            in r.out.splitlines())
    assert "no settings file holds lazy-harness hooks" not in r.out  # the plugin registers them


# -- the hint before the plugin's first session (issue 35, item 4) ----------------------------------

def test_before_the_first_session_a_plugin_user_is_not_told_to_run_lh_hooks_install(tmp_path, monkeypatch):
    claude_plugin.install()
    found = doctor_lines(tmp_path, monkeypatch)
    (line,) = found["compound loop"]
    assert "lh hooks install" not in line
    assert line.startswith("info ") and "the plugin's first session start switches it on" in line
    status = invoke("status").out
    assert "lh hooks install" not in status
    assert "compound loop: not switched on yet (the plugin's first session start switches it on" in status


def test_after_the_plugin_started_once_an_off_loop_names_the_config_key(tmp_path, monkeypatch):
    claude_plugin.install()
    marker = paths.plugin_welcome_file()
    os.makedirs(os.path.dirname(marker), exist_ok=True)
    open(marker, "w").close()
    (line,) = doctor_lines(tmp_path, monkeypatch)["compound loop"]
    assert line.startswith("warn ") and "lh hooks install" not in line
    assert f"set compound_loop.enabled = true in {paths.config_file()}" in line
    assert f"disabled (set compound_loop.enabled = true in {paths.config_file()})" in invoke("status").out


def test_without_the_plugin_the_hint_is_still_lh_hooks_install(tmp_path, monkeypatch):
    (line,) = doctor_lines(tmp_path, monkeypatch)["compound loop"]
    assert line.startswith("warn ") and "(hint: lh hooks install)" in line
    assert "compound loop: disabled (lh hooks install switches it on)" in invoke("status").out


# -- a subfolder of a repository (Claude Code 2.1.332 applies a project-scope install only to sessions
# started in its projectPath: tests/test_plugin.py) --------------------------------------------------

def repo_with_subfolder(tmp_path) -> tuple:
    root = tmp_path / "app"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "deep").mkdir(parents=True)
    return root, root / "src" / "deep"


def test_doctor_in_a_subfolder_says_the_roots_project_plugin_does_not_apply_there(tmp_path, monkeypatch):
    root, deep = repo_with_subfolder(tmp_path)
    claude_plugin.install("project", str(root))
    monkeypatch.chdir(deep)
    found = doctor_lines(tmp_path, monkeypatch)
    (plugin_line,) = found["plugin"]
    assert plugin_line.startswith("warn ") and f"installed for {root}" in plugin_line, plugin_line
    assert f"only in sessions started in that folder, not in {deep}" in plugin_line
    assert plugin_line.endswith(f"(hint: start claude in {root})")
    (hooks_line,) = found["hooks"]
    assert hooks_line.startswith("fail ") and str(root) in hooks_line and "registered by the plugin" not in hooks_line
    assert f"start claude in {root}" in hooks_line


def test_doctor_in_the_subfolder_a_project_plugin_was_installed_from_sees_it_run(tmp_path, monkeypatch):
    root, deep = repo_with_subfolder(tmp_path)
    claude_plugin.install("project", str(deep))  # `claude plugin install --scope project` run in deep
    monkeypatch.chdir(deep)
    found = doctor_lines(tmp_path, monkeypatch)
    (plugin_line,) = found["plugin"]
    assert plugin_line.startswith("ok ") and f"enabled in {deep / '.claude' / 'settings.json'}" in plugin_line
    assert found["hooks"] == ["ok ok    hooks: registered by the plugin lazy-harness@lazy-harness"]


def test_hooks_install_in_a_subfolder_writes_settings_json_as_the_roots_project_plugin_does_not_apply(
        tmp_path, monkeypatch):
    root, deep = repo_with_subfolder(tmp_path)
    claude_plugin.install("project", str(root))
    monkeypatch.chdir(deep)
    r = invoke("hooks", "install")
    assert r.code == 0, r.out + r.err
    assert "left alone (the plugin runs the hooks)" not in r.out
    assert [o.event for o in ours_in_user_file()] == list(settings.EVENTS)
    assert f"installed for {root}" in r.out and f"not in {deep}" in r.out


def test_hooks_status_in_a_subfolder_says_the_roots_project_plugin_does_not_apply_there(tmp_path, monkeypatch):
    root, deep = repo_with_subfolder(tmp_path)
    claude_plugin.install("project", str(root))
    monkeypatch.chdir(deep)
    r = invoke("hooks", "status")
    assert r.code == 0
    assert not any(line.startswith(f"plugin: lazy-harness@lazy-harness {__version__} (project scope), enabled")
                   and "installed for" not in line for line in r.out.splitlines()), r.out
    assert f"installed for {root}" in r.out and f"not in {deep}" in r.out
    assert "no Claude Code settings file holds lazy-harness hooks" in r.out
