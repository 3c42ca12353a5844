"""lh doctor and the folder Claude Code really runs the plugin's hooks from (docs/adr/0022): a
marketplace added from a folder (a clone) is read in place, so its plugin folder is what is checked,
not the cached copy; a git marketplace's plugin runs from the cached copy (installPath)."""

import json
import os
import shutil

from lazy_harness import __version__, paths, plugin
from tests.cli.lhrun import invoke
from tests.support import claude_plugin, fake_claude

PLUGIN = claude_plugin.PLUGIN_ID


def older_hooks() -> dict:
    """The hooks.json of 0.1.0: the commands without ``PYTHONHOME=``."""
    return json.loads(json.dumps(plugin.hooks_document()).replace("PYTHONHOME= ", ""))


def doctor(tmp_path, monkeypatch) -> tuple[int, dict[str, list[str]]]:
    """Exit code and check name -> its lines, with claude and an lh-hook on PATH."""
    fake_claude.on_path(monkeypatch, tmp_path / "bin")
    fake_claude.install(tmp_path / "bin")
    script = tmp_path / "bin" / "lh-hook"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    r = invoke("doctor")
    found: dict[str, list[str]] = {}
    for line in r.out.splitlines():
        status, _, rest = line.partition("  ")
        found.setdefault(rest.split(":", 1)[0].strip(), []).append(f"{status.strip()} {rest.strip()}")
    return r.code, found


def test_plugfx_a_clone_moved_away_fails_the_plugin_and_the_hooks_lines(tmp_path, monkeypatch):
    clone = tmp_path / "lazy-harness"
    claude_plugin.install(clone=str(clone))
    shutil.move(str(clone), str(tmp_path / "elsewhere"))
    code, found = doctor(tmp_path, monkeypatch)
    (line,) = found["plugin"]
    assert line.startswith("fail ") and str(clone) in line, line
    assert f"put the clone back at {clone}" in line
    assert ("claude plugin marketplace remove lazy-harness && claude plugin marketplace add ./ && "
            f"claude plugin install {PLUGIN}") in line
    assert found["hooks"] and all(not h.startswith("ok ") and "registered by" not in h for h in found["hooks"])
    assert code == 1


def test_plugfx_a_clone_without_the_plugins_hooks_json_fails(tmp_path, monkeypatch):
    clone = tmp_path / "lazy-harness"
    claude_plugin.install(clone=str(clone), clone_hooks=False)
    _, found = doctor(tmp_path, monkeypatch)
    (line,) = found["plugin"]
    assert line.startswith("fail ") and str(clone / plugin.FOLDER / "hooks" / "hooks.json") in line, line
    assert all(not h.startswith("ok ") for h in found["hooks"])


def test_plugfx_a_current_clone_is_ok_whatever_the_cached_copy_holds(tmp_path, monkeypatch):
    """A git pull changed the clone's hooks and no update ran: the cached copy is 0.1.0's, yet the
    sessions run the clone's hooks.json, which is this version's."""
    clone = tmp_path / "lazy-harness"
    claude_plugin.install(clone=str(clone), hooks=older_hooks(), version="0.1.0")
    code, found = doctor(tmp_path, monkeypatch)
    (line,) = found["plugin"]
    assert line.startswith("ok ") and str(clone / plugin.FOLDER) in line, line
    assert found["hooks"] == [f"ok hooks: registered by the plugin {PLUGIN}"]
    assert code == 0, found


def test_plugfx_an_old_checkout_of_the_clone_warns_and_asks_for_a_pull(tmp_path, monkeypatch):
    clone = tmp_path / "lazy-harness"
    claude_plugin.install(clone=str(clone), clone_hooks=older_hooks())
    _, found = doctor(tmp_path, monkeypatch)
    (line,) = found["plugin"]
    assert line.startswith("warn ") and f"not the hooks of this lh ({__version__})" in line, line
    assert str(clone / plugin.FOLDER / "hooks" / "hooks.json") in line
    assert f"git -C {clone} pull" in line and "claude plugin update" not in line


def test_plugfx_a_git_marketplace_runs_its_cached_copy_which_is_what_is_checked(tmp_path, monkeypatch):
    """The marketplace's own clone (plugins/marketplaces) holds this version's hooks; the installed
    copy is 0.1.0's, and it is the one Claude Code runs until the update."""
    where = claude_plugin.add_marketplace("lazy-harness")
    claude_plugin.install(hooks=older_hooks(), version="0.1.0")
    assert os.path.isfile(os.path.join(where, plugin.FOLDER, "hooks", "hooks.json"))
    _, found = doctor(tmp_path, monkeypatch)
    (line,) = found["plugin"]
    assert line.startswith("warn ") and "0.1.0" in line, line
    assert f"claude plugin marketplace update lazy-harness && claude plugin update {PLUGIN}" in line


def test_plugfx_an_unreadable_known_marketplaces_json_is_a_line_naming_it(tmp_path, monkeypatch):
    claude_plugin.install(clone=str(tmp_path / "lazy-harness"))
    known = os.path.join(os.path.dirname(paths.claude_plugins_file()), "known_marketplaces.json")
    with open(known, "w") as fh:
        fh.write("{not json")
    _, found = doctor(tmp_path, monkeypatch)
    (line,) = found["plugin"]
    assert line.startswith("warn ") and f"{known}: not valid JSON" in line, line


def test_plugfx_with_the_clone_gone_settings_hooks_are_not_said_to_run_twice(tmp_path, monkeypatch):
    clone = tmp_path / "lazy-harness"
    claude_plugin.install(clone=str(clone))
    assert invoke("hooks", "install", "--write-settings").code == 0
    shutil.rmtree(clone)
    _, found = doctor(tmp_path, monkeypatch)
    assert found["plugin"][0].startswith("fail ")
    assert "hooks twice" not in found
    assert found["hooks"] and all(paths.user_settings_file() in h for h in found["hooks"]), found["hooks"]
