"""The plugin's first SessionStart (``lh-hook SessionStart --plugin``): the loop switched on as
``lh hooks install`` does, and two lines for the person, once; every later start says nothing of it."""

import json
import os
import subprocess
import sys
import tomllib

from lazy_harness import config, paths
from tests.hooks.hookrun import SID, hook_log


def start(project, *flags: str) -> subprocess.CompletedProcess:
    payload = {"session_id": SID, "transcript_path": f"/nowhere/{SID}.jsonl", "cwd": str(project),
               "hook_event_name": "SessionStart", "source": "startup"}
    return subprocess.run([sys.executable, "-m", "lazy_harness.hooks", "SessionStart", *flags],
                          input=json.dumps(payload).encode(), capture_output=True, env=dict(os.environ), timeout=30)


def told(result) -> str | None:
    assert result.returncode == 0, result.stderr
    if not result.stdout:
        return None
    return json.loads(result.stdout).get("systemMessage")


def test_first_plugin_start_switches_the_loop_on_and_says_what_happens_next(tmp_path):
    cfg = paths.config_file()
    assert not os.path.exists(cfg)
    message = told(start(tmp_path, "--plugin"))
    assert tomllib.loads(open(cfg).read())["compound_loop"]["enabled"] is True
    first, second = message.split("\n")
    assert "at least 200 characters" in first and "at least 4 messages" in first and "skipped" in first
    assert "lh memory show" in second and "lh ui" in second
    assert "plugin first start: loop created; told the person what happens next" in hook_log(paths.claude_dir())[-1]
    assert os.path.exists(paths.plugin_welcome_file())

    assert told(start(tmp_path, "--plugin")) is None  # once
    assert "plugin first start" not in hook_log(paths.claude_dir())[-1]


def test_the_message_names_the_configured_gates(tmp_path):
    cfg = paths.config_file()
    os.makedirs(os.path.dirname(cfg))
    with open(cfg, "w") as fh:
        fh.write("[compound_loop]\nmin_user_chars = 50\nmin_messages = 2\n")
    message = told(start(tmp_path, "--plugin"))
    assert "at least 50 characters" in message and "at least 2 messages" in message
    text = open(cfg).read()
    assert "min_user_chars = 50" in text and config.load()["compound_loop"]["enabled"] is True


def test_a_loop_switched_off_by_the_person_stays_off(tmp_path):
    cfg = paths.config_file()
    os.makedirs(os.path.dirname(cfg))
    with open(cfg, "w") as fh:
        fh.write("[compound_loop]\nenabled = false\n")
    start(tmp_path, "--plugin")
    assert open(cfg).read() == "[compound_loop]\nenabled = false\n"
    assert "loop left off (compound_loop.enabled = false in config.toml)" in hook_log(paths.claude_dir())[-1]


def test_a_config_that_does_not_parse_is_left_as_is_and_the_session_still_starts(tmp_path):
    cfg = paths.config_file()
    os.makedirs(os.path.dirname(cfg))
    with open(cfg, "w") as fh:
        fh.write("[compound_loop\n")
    result = start(tmp_path, "--plugin")
    message = told(result)
    assert open(cfg).read() == "[compound_loop\n"
    assert "config.toml is invalid" in message  # the notice the person already gets for it
    assert "loop not switched on:" in hook_log(paths.claude_dir())[-1]


def test_settings_json_hooks_never_see_the_welcome(tmp_path):
    assert told(start(tmp_path)) is None
    assert not os.path.exists(paths.config_file()) and not os.path.exists(paths.plugin_welcome_file())
