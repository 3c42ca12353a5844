"""The hooks' config snapshot follows the environment variables a folder of config.toml names
(``[memory] path = "$MEMROOT/mem"``): compiled while one was unset, then set (or the other way), the
snapshot was kept under the file's stamp, and every hook read the wrong answer until the file was
touched: "$MEMROOT is not set" and the default, empty folder; or no message and a ConfigError at use."""

import json
import os

from lazy_harness import config, paths
from tests.hooks.hookrun import SID, hook_log, run_hook


def _config(text: str) -> str:
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)
    return path


def _without(env: dict, name: str) -> dict:
    return {k: v for k, v in env.items() if k != name}


def test_a_snapshot_compiled_while_the_variable_was_unset_is_not_used_once_it_is_set(tmp_path):
    _config('[compound_loop]\nenabled = true\n[memory]\npath = "$MEMROOT/mem"\n')
    unset = _without(dict(os.environ), "MEMROOT")
    assert "$MEMROOT is not set" in (config.invalid(config.load_fast(unset)) or "")
    cfg = config.load_fast({**unset, "MEMROOT": str(tmp_path)})
    assert config.invalid(cfg) is None
    assert cfg["memory"]["path"] == "$MEMROOT/mem"


def test_a_snapshot_compiled_while_the_variable_was_set_is_not_used_once_it_is_unset(tmp_path):
    _config('[knowledge]\npath = "${KNOWROOT}/k"\n')
    env = {**dict(os.environ), "KNOWROOT": str(tmp_path)}
    assert config.invalid(config.load_fast(env)) is None
    cfg = config.load_fast(_without(env, "KNOWROOT"))
    assert "$KNOWROOT is not set" in (config.invalid(cfg) or "")
    assert cfg["knowledge"]["path"] == ""  # the default stands for the key that cannot be resolved


def test_the_snapshot_is_still_used_while_the_file_and_the_variables_stay_the_same(tmp_path):
    _config('[memory]\npath = "$MEMROOT/mem"\n')
    env = {**dict(os.environ), "MEMROOT": str(tmp_path)}
    config.load_fast(env)
    snapshot = os.path.join(paths.state_dir(), "config.json")
    before = os.stat(snapshot)
    assert config.load_fast(dict(env)) == config.load_fast(env)
    after = os.stat(snapshot)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)  # read, not written again


def test_session_start_tells_the_person_when_the_variable_is_unset_after_a_run_with_it(tmp_path):
    mem = tmp_path / "memroot"
    mem.mkdir()
    _config('[compound_loop]\nenabled = true\n[memory]\npath = "$MEMROOT/mem"\n')
    payload = {"session_id": SID, "transcript_path": str(tmp_path / "t.jsonl"), "cwd": str(tmp_path),
               "hook_event_name": "SessionStart", "source": "startup"}
    with_var = {**dict(os.environ), "MEMROOT": str(mem)}
    assert run_hook("SessionStart", payload, env=with_var).returncode == 0
    r = run_hook("SessionStart", payload, env=_without(with_var, "MEMROOT"))
    assert r.returncode == 0
    message = json.loads(r.stdout)["systemMessage"]
    assert "config.toml is invalid" in message and "$MEMROOT is not set" in message
    assert "ConfigError" not in hook_log(paths.claude_dir())[-1]
