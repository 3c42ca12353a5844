"""A folder of ours the hooks refuse (ADR 0031): SessionStart tells the person in one line which
folder, why, what to run and ``lh doctor``, as it does for a refused config.toml. Before, only a
refused config.toml was told: with the cache or data folder refused every hook skipped with a
hooks.log line, and the person saw no memory come back and never learnt why. The other hooks stay
silent (stdout holds only what Claude Code reads)."""

import json
import os
import sys

import pytest

from lazy_harness import paths
from tests.hooks.hookrun import SID, hook_log, run_hook

ME = os.geteuid()


def _payload(event: str, cwd: str) -> dict:
    return {"session_id": SID, "cwd": cwd, "hook_event_name": event, "source": "startup",
            "prompt": "the deploy scheduler ran twice last night, why",
            "transcript_path": os.path.join(paths.projects_dir(), paths.project_key(cwd), f"{SID}.jsonl")}


def _open_cache_holder(tmp_path, monkeypatch) -> tuple[str, str]:
    """XDG_CACHE_HOME a folder of the person's that everyone may rename in: (it, the cache folder)."""
    vc = tmp_path / "vc"
    vc.mkdir()
    os.chmod(vc, 0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(vc))
    return str(vc), paths.cache_dir()


def test_session_start_tells_the_person_of_a_cache_folder_in_a_folder_others_may_rename_in(tmp_path, monkeypatch):
    vc, cache = _open_cache_holder(tmp_path, monkeypatch)
    r = run_hook("SessionStart", _payload("SessionStart", str(tmp_path)))
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    out = json.loads(r.stdout)
    assert set(out) == {"systemMessage"}, out  # nothing read back
    message = out["systemMessage"]
    assert "\n" not in message
    why = f"{vc} (holding {cache}) is open to group or others (mode 0777) without the sticky bit"
    assert message.startswith("lazy-harness: ") and why in message and "cache folder" in message, message
    assert f"chmod go-w {vc}" in message and "lh doctor" in message, message
    [line] = hook_log(paths.claude_dir())
    assert f"skipped: {why}; see lh doctor" in line and "told the person" in line, line
    assert os.listdir(vc) == []  # nothing made in it


@pytest.mark.skipif(ME != 0, reason="giving a folder to another user needs root (CI runs as root)")
def test_session_start_tells_the_person_of_a_data_folder_inside_another_users_folder(tmp_path, monkeypatch):
    vd = tmp_path / "vd"
    vd.mkdir()
    os.chown(vd, 65534, 65534)
    os.chmod(vd, 0o1777)
    monkeypatch.setenv("XDG_DATA_HOME", str(vd))
    os.mkdir(paths.data_dir(), 0o700)
    message = json.loads(run_hook("SessionStart", _payload("SessionStart", str(tmp_path))).stdout)["systemMessage"]
    assert f"{vd} (holding {paths.data_dir()}) belongs to uid 65534" in message, message
    assert "data folder" in message and "point XDG_DATA_HOME at a folder of yours" in message, message


def test_session_start_tells_the_person_of_a_data_folder_open_to_others(tmp_path):
    data = paths.data_dir()
    os.makedirs(data)
    os.chmod(data, 0o777)
    message = json.loads(run_hook("SessionStart", _payload("SessionStart", str(tmp_path))).stdout)["systemMessage"]
    assert f"{data} is open to group or others (mode 0777)" in message and f"chmod 700 {data}" in message, message


@pytest.mark.parametrize("event", ["UserPromptSubmit", "Stop", "SessionEnd"])
def test_the_other_hooks_stay_silent(tmp_path, monkeypatch, event):
    _open_cache_holder(tmp_path, monkeypatch)
    r = run_hook(event, _payload(event, str(tmp_path)))
    assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")


def test_a_plugin_start_beside_the_settings_hook_leaves_it_to_that_one(tmp_path):
    """Both registered (the settings file's hook and the plugin's): the person is told once."""
    from lazy_harness.hooks import entry

    os.makedirs(paths.data_dir())
    os.chmod(paths.data_dir(), 0o777)
    settings = paths.user_settings_file()
    os.makedirs(os.path.dirname(settings), exist_ok=True)
    command = f"{sys.executable} -m lazy_harness.hooks SessionStart"
    with open(settings, "w") as fh:
        json.dump({"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": command}]}]}}, fh)
    decision, out = entry.dispatch("SessionStart", _payload("SessionStart", str(tmp_path)), os.environ, 0.0,
                                   plugin=True)
    assert (decision, out) == (None, None)
