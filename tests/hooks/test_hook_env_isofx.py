"""The registered hook commands under the person's PYTHON* variables: a PYTHONHOME of another Python,
or a PYTHONPATH whose empty or relative entry is the project folder Claude Code runs the hook in,
never break a session (exit 0, nothing on stderr, stdout empty or the JSON Claude Code reads)."""

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lazy_harness import paths, plugin, settings
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import SID, worker_lock_held
from tests.support import memory_samples as ms
from tests.support import sessions

EVENTS = ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd")
# a project's own scratch files, named like standard modules the hooks import (tomllib imports
# datetime when config.toml is compiled, the prompt hook's index lookup imports heapq)
SHADOWS = ("datetime", "heapq", "fcntl", "__future__")


@pytest.fixture
def world(isolated_home, tmp_path):
    """``lh hooks install`` in a fresh HOME, a project with memory and a transcript; returns (commands
    by event as read back from settings.json, project folder, transcript)."""
    r = invoke("hooks", "install")
    assert r.code == 0, r.out + r.err
    data = json.loads((isolated_home / ".claude" / "settings.json").read_text())
    commands = {o.event: o.command for o in settings.find_ours(data)}
    assert set(commands) == set(EVENTS)
    project = ms.make_project(str(tmp_path), "proj")
    transcript = sessions.place(Path(project), session_id=SID)["transcript_path"]
    memory = paths.memory_dir(project)
    now = time.time()
    ms.write_jsonl(os.path.join(memory, "decisions.jsonl"), [ms.decision(now - 3600, "Use sqlite for the index")])
    ms.write_jsonl(os.path.join(memory, "failures.jsonl"), [ms.failure(now - 3000, "Deploy broke on migrations")])
    ms.write_handoff(memory, ["finish the sqlite index migration"], "s-0", now - 100)
    return commands, project, transcript


def payload(event: str, project: str, transcript: str) -> bytes:
    p = {"session_id": SID, "transcript_path": transcript, "cwd": project, "hook_event_name": event}
    if event == "SessionStart":
        p.update(source="startup", model="claude-sonnet-4-5")
    elif event == "UserPromptSubmit":
        p.update(prompt_id="p-1", permission_mode="default", prompt="how do we migrate the sqlite index?")
    elif event == "Stop":
        p.update(prompt_id="p-1", permission_mode="default", stop_hook_active=False, last_assistant_message="done")
    else:
        p.update(prompt_id="p-1", reason="prompt_input_exit")
    return json.dumps(p).encode()


def run_command(command: str, event: str, project: str, transcript: str, **env: str) -> subprocess.CompletedProcess:
    """As Claude Code runs it: through sh, in the project folder, payload on stdin."""
    full = dict(os.environ, CLAUDE_PROJECT_DIR=project, **env)
    with worker_lock_held(paths.claude_dir()):  # why: a spawned worker leaves at once, none outlives the test
        return subprocess.run(["sh", "-c", command], input=payload(event, project, transcript), capture_output=True,
                              env=full, cwd=project, timeout=60)


def assert_harmless(p: subprocess.CompletedProcess, event: str) -> None:
    assert p.returncode == 0, p
    assert p.stderr == b"", p.stderr[-600:]
    if p.stdout:
        assert event in ("SessionStart", "UserPromptSubmit"), p.stdout
        json.loads(p.stdout)  # raises when a print of the project's file came first


def shadow(project: str) -> None:
    for name in SHADOWS:
        with open(os.path.join(project, name + ".py"), "w") as fh:
            fh.write(f"print('the project shadowed {name}')\n")


@pytest.mark.parametrize("event", EVENTS)
def test_installed_command_under_a_pythonhome_of_another_python(world, event):
    commands, project, transcript = world
    p = run_command(commands[event], event, project, transcript, PYTHONHOME="/nonexistent")
    assert_harmless(p, event)


@pytest.mark.parametrize("pythonpath", [":", ".", ":/opt/tools"])
@pytest.mark.parametrize("event", EVENTS)
def test_installed_command_does_not_import_the_projects_files_through_pythonpath(world, event, pythonpath):
    commands, project, transcript = world
    shadow(project)
    p = run_command(commands[event], event, project, transcript, PYTHONPATH=pythonpath)
    assert_harmless(p, event)
    assert b"shadowed" not in p.stdout


def test_the_installed_command_is_isolated_and_without_site():
    argv = shlex.split(settings.command_for("Stop", "/usr/bin/python3", parent="/opt/site-packages"))
    assert argv[:4] == ["/usr/bin/python3", "-I", "-S", "-c"] and argv[5:] == ["Stop", "||", "exit", "0"]
    codex = shlex.split(settings.command_for("Stop", "/usr/bin/python3", agent=settings.CODEX))
    assert codex[1:3] == ["-I", "-S"] and codex[-6:] == ["Stop", settings.AGENT_FLAG, settings.CODEX, "||", "exit", "0"]


@pytest.mark.parametrize("broken", ["raise RuntimeError('half upgraded')\n", "def (:\n"])
def test_a_broken_package_in_the_launchers_folder_exits_0_and_says_nothing(tmp_path, broken):
    """A package that raises on import (a half-finished upgrade, a syntax error) leaves the hook as a
    removed one does: exit 0, nothing on stdout or stderr."""
    parent = tmp_path / "site"
    (parent / "lazy_harness").mkdir(parents=True)
    (parent / "lazy_harness" / "__init__.py").write_text(broken)
    command = settings.command_for("UserPromptSubmit", sys.executable, parent=str(parent))
    p = subprocess.run(["sh", "-c", command], input=b'{"session_id": "s1", "prompt": "hi"}', capture_output=True,
                       cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(parent)), timeout=60)
    assert (p.returncode, p.stdout, p.stderr) == (0, b"", b"")


def old_form(event: str, python: str) -> str:
    """The command of installs before the interpreter was isolated (``-S -P``, ImportError only)."""
    code = (f"import sys; sys.path.append({json.dumps(os.path.dirname(os.path.dirname(settings.__file__)))})\n"
            f"try: {settings.RUN}\nexcept ImportError: raise SystemExit(0)")
    return f"{shlex.quote(python)} -S -P -c {shlex.quote(code)} {event}"


def test_reinstall_over_the_old_command_leaves_one_isolated_entry_per_event(isolated_home):
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir()
    hooks = {e: [{"matcher": "", "hooks": [{"type": "command", "command": old_form(e, sys.executable), "timeout": t}]}]
             for e, t in settings.EVENTS.items()}
    hooks["Stop"].append({"matcher": "", "hooks": [{"type": "command", "command": "notify-send done"}]})
    target.write_text(json.dumps({"hooks": hooks}, indent=2) + "\n")
    assert all(settings.is_ours({"command": old_form(e, sys.executable)}) for e in EVENTS)
    assert invoke("hooks", "install").code == 0
    data = json.loads(target.read_text())
    ours = settings.find_ours(data)
    assert sorted(o.event for o in ours) == sorted(EVENTS)
    assert all(shlex.split(o.command)[1:3] == ["-I", "-S"] for o in ours)
    assert [h["command"] for g in data["hooks"]["Stop"] for h in g["hooks"]][-1] == "notify-send done"


def test_uninstall_removes_the_old_and_the_new_command_and_install_keeps_one(isolated_home):
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir()
    py = "/usr/bin/python3"
    stop = [{"matcher": "", "hooks": [{"type": "command", "command": old_form("Stop", py)}]},
            {"matcher": "", "hooks": [{"type": "command", "command": settings.command_for("Stop", py)}]},
            {"matcher": "", "hooks": [{"type": "command", "command": "notify-send done"}]}]
    target.write_text(json.dumps({"model": "opus", "hooks": {"Stop": stop}}, indent=2) + "\n")
    assert invoke("hooks", "uninstall").code == 0
    data = json.loads(target.read_text())
    assert settings.find_ours(data) == []
    assert data["hooks"]["Stop"] == [{"matcher": "", "hooks": [{"type": "command", "command": "notify-send done"}]}]
    target.write_text(json.dumps({"model": "opus", "hooks": {"Stop": stop}}, indent=2) + "\n")
    assert invoke("hooks", "install").code == 0
    assert [o.event for o in settings.find_ours(json.loads(target.read_text()))].count("Stop") == 1
    assert invoke("hooks", "uninstall").code == 0
    data = json.loads(target.read_text())
    assert settings.find_ours(data) == []
    assert data["hooks"]["Stop"] == [{"matcher": "", "hooks": [{"type": "command", "command": "notify-send done"}]}]


def lh_hook() -> str:
    exe = os.path.join(os.path.dirname(sys.executable), settings.SCRIPT)
    if not os.access(exe, os.X_OK):
        pytest.skip(f"no {settings.SCRIPT} console script beside {sys.executable}")
    return exe


@pytest.mark.parametrize("pythonpath", [":", ".", os.path.dirname(os.__file__)])  # the last: its own stdlib
@pytest.mark.parametrize("event", EVENTS)
def test_the_portable_script_and_the_plugin_do_not_import_the_projects_files(world, event, pythonpath):
    """``lh-hook`` is a console script whose interpreter reads PYTHONPATH; the launcher drops those
    folders before the hook imports anything from the standard library."""
    _, project, transcript = world
    shadow(project)
    path = os.path.dirname(lh_hook()) + os.pathsep + os.environ.get("PATH", "")
    for command in (settings.command_for(event, portable=True), plugin.hook_command(event)):
        p = run_command(command, event, project, transcript, PYTHONPATH=pythonpath, PATH=path)
        assert_harmless(p, event)
        assert b"shadowed" not in p.stdout


@pytest.mark.parametrize("event", EVENTS)
def test_codex_hooks_json_commands_under_pythonhome_and_pythonpath(world, event, tmp_path, monkeypatch):
    from tests.support import fake_codex_app_server as fake_codex

    _, project, transcript = world
    bin_dir = tmp_path / "codexbin"
    fake_codex.install(bin_dir)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    data = json.loads(Path(paths.codex_home(), "hooks.json").read_text())
    command = {o.event: o.command for o in settings.find_ours(data)}[event]
    shadow(project)
    for env in ({"PYTHONHOME": "/nonexistent"}, {"PYTHONPATH": ":"}):
        p = run_command(command, event, project, transcript, **env)
        assert_harmless(p, event)
        assert b"shadowed" not in p.stdout


def test_doctor_asks_for_a_reinstall_of_the_older_command(isolated_home):
    from tests.cli.lhrun import invoke

    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir()
    hooks = {e: [{"matcher": "", "hooks": [{"type": "command", "command": old_form(e, sys.executable), "timeout": t}]}]
             for e, t in settings.EVENTS.items()}
    target.write_text(json.dumps({"hooks": hooks}))
    [line] = [x for x in invoke("doctor").out.splitlines() if " hooks:" in x or x.split()[1:2] == ["hooks:"]]
    assert line.split()[0] == "warn" and "older version" in line and "lh hooks install" in line
    assert invoke("hooks", "install").code == 0
    [line] = [x for x in invoke("doctor").out.splitlines() if " hooks:" in x or x.split()[1:2] == ["hooks:"]]
    assert line.split()[0] == "ok"


@pytest.mark.parametrize("event", EVENTS)
def test_the_plugin_command_under_a_pythonhome_of_another_python(world, event):
    """``lh-hook`` is a console script, whose interpreter reads PYTHONHOME before any code of ours: the
    plugin's sh command clears it, so the hook runs and does its work (SessionStart's memory, not the
    message that lh-hook cannot start)."""
    _, project, transcript = world
    assert invoke("hooks", "uninstall").code == 0  # why: with settings.json's hooks, the plugin's runs leave at once
    path = os.path.dirname(lh_hook()) + os.pathsep + os.environ.get("PATH", "")
    p = run_command(plugin.hook_command(event), event, project, transcript, PYTHONHOME="/nonexistent", PATH=path)
    assert_harmless(p, event)
    if event == "SessionStart":
        told = json.dumps(json.loads(p.stdout))
        assert "cannot start" not in told and "Use sqlite for the index" in told
