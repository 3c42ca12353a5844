"""What the person sees: a paused or failing distillation and an invalid config.toml, as the
SessionStart hook's systemMessage (never sent to the model); hooks.log says "config invalid"."""

import json
import os
import time

from lazy_harness import notice, paths
from tests.hooks.hookrun import SID, enable_loop, hook_log, run_hook


def _start(cwd) -> dict:
    result = run_hook("SessionStart", {"session_id": SID, "transcript_path": f"/nowhere/{SID}.jsonl",
                                       "cwd": str(cwd), "hook_event_name": "SessionStart", "source": "startup"})
    assert result.returncode == 0
    return json.loads(result.stdout) if result.stdout.strip() else {}


def test_a_paused_loop_is_one_line_for_the_person(isolated_home, tmp_path):
    enable_loop(isolated_home)
    notice.write(notice.PAUSED, "lazy-harness: distillation paused, daily cap $5.00 reached", time.time() + 3600)
    out = _start(tmp_path)
    assert out["systemMessage"] == "lazy-harness: distillation paused, daily cap $5.00 reached"
    assert "\n" not in out["systemMessage"]
    assert "told the person" in hook_log(paths.claude_dir())[-1]


def test_an_expired_pause_is_not_shown(isolated_home, tmp_path):
    notice.write(notice.PAUSED, "lazy-harness: distillation paused", time.time() - 1)
    assert "systemMessage" not in _start(tmp_path)


def test_the_notice_goes_beside_the_model_context(isolated_home, tmp_path):
    from tests.support import memory_samples as ms
    from lazy_harness.memory import files

    project = ms.make_project(tmp_path, "shop", branch="main")
    ms.write_jsonl(os.path.join(paths.memory_dir(project), files.DECISIONS),
                   [ms.decision(time.time() - 60, "queue stays in postgres", "one database")])
    notice.write(notice.FAILING, "lazy-harness: distillation failing, the API is unreachable (lh doctor)")
    out = _start(project)
    assert out["systemMessage"].startswith("lazy-harness: distillation failing")
    context = out["hookSpecificOutput"]["additionalContext"]
    assert "queue stays in postgres" in context and "the API is unreachable" not in context


def test_an_invalid_config_is_reported_as_invalid_not_disabled(isolated_home, tmp_path):
    path = enable_loop(isolated_home)
    with open(path, "w") as fh:
        fh.write("[compound_loop]\nenabled = true\nmodel = \n")
    run_hook("Stop", {"session_id": SID, "transcript_path": str(tmp_path / "t.jsonl"), "cwd": str(tmp_path)})
    last = hook_log(paths.claude_dir())[-1]
    assert "config invalid: lh config validate" in last and "disabled" not in last
    out = _start(tmp_path)
    assert "config.toml is invalid" in out["systemMessage"] and "lh config validate" in out["systemMessage"]
    assert f"{path}:3" in out["systemMessage"]


def test_nothing_to_say_prints_nothing(isolated_home, tmp_path):
    assert _start(tmp_path) == {}
