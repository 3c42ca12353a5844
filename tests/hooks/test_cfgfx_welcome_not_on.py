"""The plugin's first SessionStart when it cannot switch the loop on (a config.toml whose
``compound_loop`` is an inline table: no safe edit) or is told not to (``enabled = false``): the
person was told "a session is distilled ... when it ends" and the welcome was marked told, so they
never learnt that nothing would be distilled."""

import json
import os
import subprocess
import sys
import tomllib

from lazy_harness import paths
from tests.hooks.hookrun import SID, hook_log


def start(project) -> subprocess.CompletedProcess:
    payload = {"session_id": SID, "transcript_path": f"/nowhere/{SID}.jsonl", "cwd": str(project),
               "hook_event_name": "SessionStart", "source": "startup"}
    return subprocess.run([sys.executable, "-m", "lazy_harness.hooks", "SessionStart", "--plugin"],
                          input=json.dumps(payload).encode(), capture_output=True, env=dict(os.environ), timeout=30)


def told(result) -> str:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout).get("systemMessage") or "" if result.stdout else ""


def _config(text: str) -> str:
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)
    os.chmod(path, 0o600)
    return path


def test_a_loop_it_could_not_switch_on_is_said_and_told_again_at_the_next_start(tmp_path):
    path = _config("compound_loop = { min_messages = 2 }\n")
    message = told(start(tmp_path))
    assert "not switched on" in message and "compound_loop" in message and "enabled = true" in message, message
    assert "inside the braces" in message  # what to do, in the file's own form
    assert "distilled into its project's memory when it ends" not in message
    assert open(path).read() == "compound_loop = { min_messages = 2 }\n"
    assert not os.path.exists(paths.plugin_welcome_file())
    assert "loop not switched on" in hook_log(paths.claude_dir())[-1]

    again = told(start(tmp_path))  # tried and told again
    assert "not switched on" in again

    _config("compound_loop = { min_messages = 2, enabled = true }\n")  # the person follows it
    last = told(start(tmp_path))
    assert "distilled into its project's memory when it ends" in last and "at least 2 messages" in last
    assert os.path.exists(paths.plugin_welcome_file())


def test_a_dotted_key_config_is_switched_on_in_its_own_form(tmp_path):
    path = _config("compound_loop.min_messages = 2\n")
    message = told(start(tmp_path))
    assert "distilled into its project's memory when it ends" in message and "at least 2 messages" in message
    assert tomllib.loads(open(path).read())["compound_loop"] == {"min_messages": 2, "enabled": True}
    assert "compound_loop.enabled = true" in open(path).read()


def test_a_loop_left_off_by_the_person_is_not_said_to_distill(tmp_path):
    path = _config("[compound_loop]\nenabled = false\n")
    message = told(start(tmp_path))
    assert "distilled into its project's memory when it ends" not in message
    assert "compound_loop.enabled" in message and "false" in message and "not distilled" in message, message
    assert open(path).read() == "[compound_loop]\nenabled = false\n"
