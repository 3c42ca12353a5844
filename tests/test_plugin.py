"""The plugin in the repository (docs/adr/0022): its files, the hook command run by /bin/sh as Claude
Code runs it, and what lh reads of Claude Code's record of an install."""

import json
import os
import subprocess

import pytest

import lazy_harness
from lazy_harness import paths, plugin, settings
from tests.conftest import ROOT
from tests.support import claude_plugin

PAYLOAD = {"session_id": "0b7e3c55-2f4a-4d8e-9a61-5c3b2e1f0d94", "hook_event_name": "SessionStart",
           "source": "startup", "cwd": "/nowhere"}


def load(*parts: str) -> dict:
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as fh:
        return json.load(fh)


def test_the_repository_is_a_marketplace_listing_the_plugin_folder():
    market = load(".claude-plugin", "marketplace.json")
    (entry,) = market["plugins"]
    assert entry["name"] == plugin.NAME and entry["source"] == f"./{plugin.FOLDER}"
    manifest = load(plugin.FOLDER, ".claude-plugin", "plugin.json")
    assert manifest["name"] == plugin.NAME
    assert manifest["version"] == lazy_harness.__version__  # an update reaches users when it changes


def plugin_digest() -> str:
    """sha256 over the plugin folder's files (their paths and bytes), in a fixed order."""
    import hashlib

    h = hashlib.sha256()
    top = os.path.join(ROOT, plugin.FOLDER)
    for folder, dirs, files in sorted(os.walk(top)):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(folder, name)
            with open(full, "rb") as fh:
                h.update(os.path.relpath(full, top).encode() + b"\0" + fh.read() + b"\0")
    return h.hexdigest()


def test_the_plugin_files_change_only_with_a_new_version():
    """Claude Code keeps an installed plugin's cached copy until plugin.json's version changes: a
    change to plugin/ without a new version never reaches anyone who installed it. The digest of
    each released plugin/ is recorded beside its version in tests/fixtures/plugin_releases.json."""
    releases = load("tests", "fixtures", "plugin_releases.json")
    version = lazy_harness.__version__
    assert version in releases, (f"record the plugin's digest for {version}: "
                                 f'"{version}": "{plugin_digest()}" in tests/fixtures/plugin_releases.json')
    assert releases[version] == plugin_digest(), (
        f"plugin/ changed since {version} was recorded: raise lazy_harness.__version__ (and plugin.json's "
        "version), then record the new digest")
    assert list(releases)[-1] == version  # why: the newest release is the one checked


def test_hooks_json_registers_the_events_and_timeouts_of_lh_hooks_install():
    doc = load(plugin.FOLDER, "hooks", "hooks.json")
    assert doc == plugin.hooks_document()  # the file is what the code says (regenerate it when this fails)
    timeouts = {event: group[0]["hooks"][0]["timeout"] for event, group in doc["hooks"].items()}
    assert timeouts == settings.EVENTS and timeouts["SessionEnd"] == 5


def run_sh(event: str, path_dirs: list[str], payload: dict = PAYLOAD) -> subprocess.CompletedProcess:
    """The event's command from hooks.json, run by /bin/sh -c as Claude Code runs a command hook."""
    command = load(plugin.FOLDER, "hooks", "hooks.json")["hooks"][event][0]["hooks"][0]["command"]
    env = {"PATH": os.pathsep.join(path_dirs), "HOME": os.environ["HOME"]}
    return subprocess.run(["/bin/sh", "-c", command], input=json.dumps(payload).encode(), capture_output=True,
                          env=env, timeout=20)


@pytest.fixture
def bare_path(tmp_path):
    """A PATH without lh-hook (the shell's own tools only)."""
    empty = tmp_path / "empty"
    empty.mkdir()
    return [str(empty)]


def test_without_lh_hook_session_start_tells_the_person_how_to_install_it(bare_path):
    r = run_sh("SessionStart", bare_path)
    assert r.returncode == 0 and r.stderr == b""
    (line,) = r.stdout.decode().splitlines()
    assert json.loads(line) == {"systemMessage": plugin.MISSING}


@pytest.mark.parametrize("event", ["Stop", "SessionEnd", "UserPromptSubmit"])
def test_without_lh_hook_the_other_events_say_nothing_and_exit_0(bare_path, event):
    r = run_sh(event, bare_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")


def fake_lh_hook(bindir, body: str) -> None:
    bindir.mkdir(exist_ok=True)
    fake = bindir / "lh-hook"
    fake.write_text(body)
    fake.chmod(0o755)


def test_with_lh_hook_on_path_it_gets_the_event_the_flag_and_the_payload(tmp_path, bare_path):
    """lh-hook gets the event, --plugin and the payload on stdin, and its stdout is the hook's."""
    record = tmp_path / "record"
    fake_lh_hook(tmp_path / "bin", f'#!/bin/sh\necho "$*" > {record}\n/bin/cat >> {record}\necho \'{{"ok": 1}}\'\n')
    r = run_sh("Stop", [str(tmp_path / "bin"), *bare_path])
    assert (r.returncode, r.stdout, r.stderr) == (0, b'{"ok": 1}\n', b"")
    args, payload = record.read_text().split("\n", 1)
    assert args == "Stop --plugin" and json.loads(payload) == PAYLOAD


def test_with_lh_hook_on_path_session_start_prints_its_output_only(tmp_path, bare_path):
    fake_lh_hook(tmp_path / "bin", '#!/bin/sh\n/bin/cat > /dev/null\necho \'{"context": 1}\'\n')
    r = run_sh("SessionStart", [str(tmp_path / "bin"), *bare_path])
    assert (r.returncode, r.stdout) == (0, b'{"context": 1}\n')


@pytest.mark.parametrize("event", list(settings.EVENTS))
def test_an_lh_hook_whose_interpreter_is_gone_exits_0_and_session_start_says_how_to_install(
        tmp_path, bare_path, event):
    """A pipx venv left by a Python upgrade: lh-hook is on PATH, its #! names a Python that is gone, so
    sh cannot start it (status 127). The hook still exits 0, and SessionStart tells the person."""
    fake_lh_hook(tmp_path / "bin", "#!/nonexistent/python\nimport sys\n")
    command = plugin.hooks_document()["hooks"][event][0]["hooks"][0]["command"]
    r = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(PAYLOAD).encode(), capture_output=True,
                       env={"PATH": os.pathsep.join([str(tmp_path / "bin"), *bare_path]), "HOME": os.environ["HOME"]},
                       timeout=20)
    assert r.returncode == 0, r.stderr
    if event == "SessionStart":
        (line,) = r.stdout.decode().splitlines()
        assert json.loads(line) == {"systemMessage": plugin.MISSING}
    else:
        assert r.stdout == b""


def test_the_install_message_covers_an_lh_hook_that_cannot_start():
    assert "lh-hook is not on PATH or cannot start" in plugin.MISSING and "pipx install" in plugin.MISSING


# -- what lh reads of Claude Code's files ----------------------------------------------------------


def test_nothing_installed_reads_as_no_install(tmp_path):
    assert plugin.installs(str(tmp_path)) == [] and plugin.active(str(tmp_path)) is None


def test_a_user_install_enabled_in_the_user_file_is_active(tmp_path):
    folder = claude_plugin.install()
    found = plugin.active(str(tmp_path))
    assert found is not None and found.path == folder and found.scope == "user"
    assert found.decided_by == paths.user_settings_file()
    assert found.describe() == (f"{claude_plugin.PLUGIN_ID} {lazy_harness.__version__} (user scope), enabled in "
                                f"{paths.user_settings_file()}")


def test_disabled_in_the_project_overrides_enabled_for_the_user(tmp_path):
    project = tmp_path / "app"
    (project / ".git").mkdir(parents=True)
    claude_plugin.install()
    claude_plugin.enable(claude_plugin.PLUGIN_ID, False, "local", str(project))
    assert plugin.active(str(project)) is None
    assert plugin.active(str(tmp_path)) is not None
    (install,) = plugin.installs(str(project / "sub"))
    assert not install.enabled and install.decided_by.endswith("settings.local.json")


def test_a_project_scope_install_applies_to_its_own_project_only(tmp_path):
    app, other = tmp_path / "app", tmp_path / "other"
    for p in (app, other):
        (p / ".git").mkdir(parents=True)
    claude_plugin.install("project", str(app))
    assert plugin.active(str(app)) is not None
    assert plugin.installs(str(other)) == []


def test_another_plugin_is_not_ours(tmp_path):
    claude_plugin.install(plugin_id="claude-mem@thedotmack")
    assert plugin.installs(str(tmp_path)) == []


def test_an_unreadable_plugin_file_is_an_error_naming_it(tmp_path):
    state = paths.claude_plugins_file()
    os.makedirs(os.path.dirname(state))
    with open(state, "w") as fh:
        fh.write("{oops")
    with pytest.raises(plugin.SettingsError) as err:
        plugin.installs(str(tmp_path))
    assert state in err.value.message and "not valid JSON" in err.value.message
    assert plugin.active(str(tmp_path)) is None


# -- a subfolder of a repository: Claude Code 2.1.332 reads the start folder's .claude/settings.json and
# settings.local.json, and the repository root's settings.local.json, which decides over both; a
# project-scope install applies where its projectPath is the start folder, a local-scope one also in
# the root's subfolders (observed with the real CLI, see plugin.py)


@pytest.fixture
def repo(tmp_path):
    """(the repository root, its subfolder src/deep)."""
    root = tmp_path / "app"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "deep").mkdir(parents=True)
    return root, root / "src" / "deep"


def test_a_project_scope_install_at_the_root_does_not_apply_in_a_subfolder(repo):
    root, deep = repo
    claude_plugin.install("project", str(root))
    assert plugin.active(str(root)) is not None
    assert plugin.installs(str(deep)) == [] and plugin.active(str(deep)) is None
    (other,) = plugin.elsewhere(str(deep))
    assert other.project == str(root) and other.scope == "project" and other.enabled
    assert plugin.elsewhere(str(root)) == []


def test_a_project_scope_install_made_in_a_subfolder_applies_there_only(repo):
    root, deep = repo
    claude_plugin.install("project", str(deep))
    found = plugin.active(str(deep))
    assert found is not None and found.decided_by == str(deep / ".claude" / "settings.json")
    assert plugin.installs(str(root)) == []
    (other,) = plugin.elsewhere(str(root))
    assert other.project == str(deep) and other.enabled


def test_a_project_scope_install_is_matched_to_the_real_path_of_the_folder(repo, tmp_path):
    root, _ = repo
    link = tmp_path / "link"
    link.symlink_to(root)
    claude_plugin.install("project", str(root))
    assert plugin.active(str(link)) is not None


def test_a_local_scope_install_at_the_root_applies_in_a_subfolder(repo):
    root, deep = repo
    claude_plugin.install("local", str(root))
    found = plugin.active(str(deep))
    assert found is not None and found.decided_by == str(root / ".claude" / "settings.local.json")
    assert plugin.elsewhere(str(deep)) == []


def test_the_roots_settings_json_does_not_decide_in_a_subfolder(repo):
    root, deep = repo
    claude_plugin.install()
    claude_plugin.enable(claude_plugin.PLUGIN_ID, False, "project", str(root))
    assert plugin.active(str(root)) is None
    found = plugin.active(str(deep))
    assert found is not None and found.decided_by == paths.user_settings_file()


@pytest.mark.parametrize("deep_file", ["project", "local"])
def test_the_roots_settings_local_json_decides_over_the_subfolders_own_files(repo, deep_file):
    root, deep = repo
    claude_plugin.install()
    claude_plugin.enable(claude_plugin.PLUGIN_ID, True, deep_file, str(deep))
    claude_plugin.enable(claude_plugin.PLUGIN_ID, False, "local", str(root))
    (install,) = plugin.installs(str(deep))
    assert not install.enabled and install.decided_by == str(root / ".claude" / "settings.local.json")
