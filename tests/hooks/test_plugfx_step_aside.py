"""The plugin's run of a hook (its hooks.json command, ``lh-hook <Event> --plugin``) leaves only for settings
hooks that Claude Code loads and that can start: a settings file it discards (a null matcher, hooks
switched off, not JSON) or a command whose interpreter is gone must not cost the session its task."""

import json
import os
import subprocess
import sys

import pytest

from lazy_harness import hook_command, paths, plugin, queue, settings
from tests.hooks.hookrun import enable_loop, hook_log, worker_lock_held

BIN = os.path.dirname(sys.executable)  # where lh-hook is, as the plugin's command finds it on PATH


def plugin_run(event: str, payload: dict) -> subprocess.CompletedProcess:
    """The plugin's hooks.json command for ``event``, run by sh as Claude Code runs it."""
    env = dict(os.environ, PATH=BIN + os.pathsep + os.environ.get("PATH", ""), CLAUDE_PROJECT_DIR=payload["cwd"])
    return subprocess.run(["/bin/sh", "-c", plugin.hook_command(event)], input=json.dumps(payload).encode(),
                          capture_output=True, env=env, cwd=payload["cwd"], timeout=30)


def write_settings(path: str, data: dict) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        json.dump(data, fh)


def with_ours(path: str, **more) -> dict:
    settings.install(path)
    with open(path) as fh:
        data = json.load(fh)
    data.update(more)
    return data


def ended(session: dict) -> dict:
    return dict(session, hook_event_name="SessionEnd", reason="prompt_input_exit")


def notes() -> list[str]:
    return [line for line in hook_log(paths.claude_dir()) if "plugin:" in line and "does not leave" in line]


def test_a_null_matcher_in_the_user_file_does_not_make_the_plugin_leave(session, isolated_home):
    enable_loop(isolated_home)
    user = paths.user_settings_file()
    data = with_ours(user)
    data["hooks"]["PreToolUse"] = [{"matcher": None, "hooks": [{"type": "command", "command": "true"}]}]
    write_settings(user, data)
    with worker_lock_held(paths.claude_dir()) as q:
        p = plugin_run("SessionEnd", ended(session))
        assert (p.returncode, p.stdout) == (0, b"")
        assert len(queue.pending(q)) == 1
    (note,) = notes()
    assert user in note and "null" in note and "PreToolUse" in note


def test_disable_all_hooks_in_the_file_does_not_make_the_plugin_leave(session, isolated_home):
    enable_loop(isolated_home)
    user = paths.user_settings_file()
    write_settings(user, with_ours(user, disableAllHooks=True))
    with worker_lock_held(paths.claude_dir()) as q:
        assert plugin_run("SessionEnd", ended(session)).returncode == 0
        assert len(queue.pending(q)) == 1
    (note,) = notes()
    assert user in note and "disableAllHooks" in note


def test_a_settings_command_whose_interpreter_is_gone_does_not_make_the_plugin_leave(session, isolated_home,
                                                                                    tmp_path):
    enable_loop(isolated_home)
    gone = str(tmp_path / "oldvenv" / "bin" / "python3")  # a deleted virtualenv's interpreter
    user = paths.user_settings_file()
    os.makedirs(os.path.dirname(user), exist_ok=True)
    settings.install(user, python=gone)
    with worker_lock_held(paths.claude_dir()) as q:
        assert plugin_run("UserPromptSubmit", dict(session, hook_event_name="UserPromptSubmit",
                                                   prompt="hi")).returncode == 0
        assert plugin_run("SessionEnd", ended(session)).returncode == 0
        assert len(queue.pending(q)) == 1
    (note,) = notes()  # once for both runs: the reason did not change
    assert gone in note and user in note


@pytest.mark.parametrize("form", ["package gone", "lh-hook gone", "lh-hook interpreter gone"])
def test_other_commands_that_cannot_start_do_not_make_the_plugin_leave(session, isolated_home, tmp_path, form):
    enable_loop(isolated_home)
    script = tmp_path / "venv" / "bin" / "lh-hook"
    if form == "lh-hook interpreter gone":
        script.parent.mkdir(parents=True)
        script.write_text(f"#!{tmp_path / 'venv' / 'bin' / 'python'}\nimport sys\n")
        script.chmod(0o755)
    command = {"package gone": settings.command_for("SessionEnd", sys.executable, parent=str(tmp_path / "gone")),
               "lh-hook gone": f"{script} SessionEnd", "lh-hook interpreter gone": f"{script} SessionEnd"}[form]
    assert settings.is_ours({"command": command})
    user = paths.user_settings_file()
    write_settings(user, {"hooks": {"SessionEnd": [{"matcher": "", "hooks": [{"type": "command",
                                                                              "command": command}]}]}})
    with worker_lock_held(paths.claude_dir()) as q:
        assert plugin_run("SessionEnd", ended(session)).returncode == 0
        assert len(queue.pending(q)) == 1
    (note,) = notes()
    assert user in note


def test_a_settings_file_that_does_not_parse_but_holds_ours_is_said(session, isolated_home):
    enable_loop(isolated_home)
    user = paths.user_settings_file()
    settings.install(user)
    with open(user) as fh:
        text = fh.read()
    with open(user, "w") as fh:
        fh.write(text[:-3])
    with worker_lock_held(paths.claude_dir()) as q:
        assert plugin_run("SessionEnd", ended(session)).returncode == 0
        assert len(queue.pending(q)) == 1
    (note,) = notes()
    assert user in note and "JSON" in note


@pytest.mark.parametrize("portable", [False, True])
def test_valid_settings_hooks_that_can_start_still_make_the_plugin_leave(session, isolated_home, portable):
    enable_loop(isolated_home)
    user = paths.user_settings_file()
    os.makedirs(os.path.dirname(user), exist_ok=True)
    settings.install(user, portable=portable)
    with worker_lock_held(paths.claude_dir()) as q:
        for _ in range(2):  # the second: the files as the first run saw them
            p = plugin_run("SessionEnd", ended(session))
            assert (p.returncode, p.stdout, p.stderr) == (0, b"", b"")
            assert queue.pending(q) == []
    assert notes() == []
    assert [line for line in hook_log(paths.claude_dir()) if line.split(" ")[1:2] == ["SessionEnd"]] == []


def test_an_interpreter_that_goes_after_the_answer_was_kept_is_seen(session, isolated_home, tmp_path):
    enable_loop(isolated_home)
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    os.symlink(sys.executable, venv / "python3")
    user = paths.user_settings_file()
    os.makedirs(os.path.dirname(user), exist_ok=True)
    settings.install(user, python=str(venv / "python3"))
    with worker_lock_held(paths.claude_dir()) as q:
        assert plugin_run("SessionEnd", ended(session)).returncode == 0
        assert queue.pending(q) == []  # it can start: the plugin's run leaves
        os.unlink(venv / "python3")  # the virtualenv goes; the settings file is unchanged
        assert plugin_run("SessionEnd", ended(session)).returncode == 0
        assert len(queue.pending(q)) == 1
    (note,) = notes()
    assert str(venv / "python3") in note


@pytest.mark.parametrize("command", [
    settings.command_for("Stop", "/usr/bin/python3"), settings.command_for("Stop", "/opt/my venv/bin/python"),
    settings.command_for("Stop", "/opt/it's/bin/python"), settings.command_for("Stop", portable=True),
    "/home/u/.local/bin/lh-hook Stop", '"/opt/a b/python" -m lazy_harness.hooks Stop',
    "PYTHONHOME= /usr/bin/python3 -m lazy_harness.hooks Stop", "/opt/a\\ b/python -m lazy_harness.hooks Stop",
])
def test_the_program_the_entry_checks_is_the_one_sh_starts(command):
    import shlex

    words = shlex.split(command)
    while "=" in words[0] and not words[0].startswith("/"):
        words.pop(0)
    assert hook_command.program(command) == words[0]


@pytest.mark.parametrize("command", ["$HOME/venv/bin/python -m lazy_harness.hooks Stop",
                                     '"$VENV/python" -m lazy_harness.hooks Stop',
                                     "`which python3` -m lazy_harness.hooks"])
def test_a_program_only_a_shell_could_name_is_not_checked(command):
    assert hook_command.program(command) is None


def test_a_fifo_where_a_settings_file_is_read_holds_no_plugin_run(session, isolated_home):
    """A FIFO at the project's settings.local.json (a tarball can carry one) would block a plain read
    until a writer came: the hook is killed by Claude Code's timeout and the session loses its task."""
    enable_loop(isolated_home)
    local = os.path.join(session["cwd"], ".claude", "settings.local.json")
    os.makedirs(os.path.dirname(local), exist_ok=True)
    os.mkfifo(local)
    with worker_lock_held(paths.claude_dir()) as q:
        p = plugin_run("SessionEnd", ended(session))  # why its timeout: a bound on the hang, not a wait
        assert (p.returncode, p.stdout) == (0, b"")
        assert len(queue.pending(q)) == 1
