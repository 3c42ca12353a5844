"""The hooks left in a settings file after what they run is gone: ``pipx uninstall lazy-harness`` (or a
deleted virtualenv, a Python upgrade that took the venv's interpreter) before ``lh hooks uninstall``,
and a project's shared file run by a teammate without ``lh-hook``. Claude Code runs each command through
sh after every turn and before every prompt; an exit other than 0 shows "hook error" each time, so every
command must exit 0 and print nothing then (docs/how/hooks.md)."""

import json
import os
import shutil
import subprocess
import sys

from lazy_harness import logfile, settings
from tests.cli.lhrun import invoke

PAYLOAD = {"session_id": "5f0c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f", "source": "startup", "prompt": "hi",
           "hook_event_name": "SessionStart", "reason": "other", "stop_hook_active": False}


def run_as_claude_code(command: str, cwd, path: str) -> subprocess.CompletedProcess:
    """The command as Claude Code runs a hook: through sh, the payload on stdin, in the project folder."""
    payload = dict(PAYLOAD, cwd=str(cwd), transcript_path=os.path.join(str(cwd), "t.jsonl"))
    return subprocess.run(["sh", "-c", command], input=json.dumps(payload).encode(), capture_output=True,
                          cwd=cwd, env=dict(os.environ, PATH=path), timeout=60)


def commands(path) -> dict[str, str]:
    return {o.event: o.command for o in settings.find_ours(json.loads(path.read_text()))}


def test_hooks_of_a_removed_virtualenv_exit_0_and_print_nothing(tmp_path):
    venv = tmp_path / "pipx" / "venvs" / "lazy-harness" / "bin"
    venv.mkdir(parents=True)
    os.symlink(sys.executable, venv / "python3")  # what a venv's interpreter is
    target = tmp_path / "settings.json"
    settings.install(str(target), python=str(venv / "python3"))
    works = run_as_claude_code(commands(target)["SessionStart"], tmp_path, os.environ["PATH"])
    with open(logfile.log_path(logfile.HOOKS), encoding="utf-8") as fh:
        assert works.returncode == 0 and " SessionStart " in fh.read()  # the hook ran before
    shutil.rmtree(tmp_path / "pipx")  # pipx uninstall lazy-harness
    for event, command in commands(target).items():
        p = run_as_claude_code(command, tmp_path, os.environ["PATH"])
        assert (event, p.returncode, p.stdout) == (event, 0, b"")


def test_a_shared_project_file_run_by_a_teammate_without_lh_hook_exits_0(tmp_path):
    target = tmp_path / ".claude" / "settings.json"
    target.parent.mkdir()
    settings.install(str(target), portable=True)
    bare = tmp_path / "bin"  # a PATH with sh and nothing of lazy-harness
    bare.mkdir()
    for event, command in commands(target).items():
        p = run_as_claude_code(command, tmp_path, f"{bare}:/usr/bin:/bin")
        assert (event, p.returncode, p.stdout) == (event, 0, b"")


def test_a_hook_command_of_an_earlier_version_is_replaced_and_doctor_says_why(isolated_home, tmp_path, monkeypatch):
    """Written before the guard: one entry per event after install, and doctor names it until then."""
    monkeypatch.chdir(tmp_path)
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir(exist_ok=True)
    earlier = {e: settings.command_for(e).removesuffix(settings.GUARD) for e in settings.EVENTS}
    target.write_text(json.dumps({"hooks": {e: [{"matcher": "", "hooks": [
        {"type": "command", "command": c, "timeout": settings.EVENTS[e]}]}] for e, c in earlier.items()}}, indent=2))
    said = invoke("doctor").out
    assert "an interpreter removed" in said and "lh hooks install" in said, said
    assert invoke("hooks", "install", "--write-settings").code == 0
    assert commands(target) == {e: settings.command_for(e) for e in settings.EVENTS}
    assert all(c.endswith(" || exit 0") for c in commands(target).values())
    assert "an interpreter removed" not in invoke("doctor").out


def test_after_pip_uninstall_the_hooks_do_nothing_and_doctor_says_so_as_it_is(isolated_home, tmp_path, monkeypatch):
    """pip uninstall takes the package and leaves the interpreter: the launcher's try makes each hook exit 0
    silently (no error in the session), so doctor does not say the hooks "fail": they do nothing."""
    monkeypatch.chdir(tmp_path)
    site = tmp_path / "venv" / "site-packages"
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir(exist_ok=True)
    hooks = {e: [{"matcher": "", "hooks": [{"type": "command", "timeout": t, "command": settings.command_for(
        e, sys.executable, parent=str(site))}]}] for e, t in settings.EVENTS.items()}
    target.write_text(json.dumps({"hooks": hooks}, indent=2))
    for event, command in commands(target).items():
        p = run_as_claude_code(command, tmp_path, os.environ["PATH"])
        assert (event, p.returncode, p.stdout, p.stderr) == (event, 0, b"", b"")
    said = invoke("doctor").out
    assert (f"the commands load lazy_harness from {site}, which holds it no more (an install moved or removed): "
            "every hook exits at once and does nothing (no session is remembered)") in said, said


def test_an_upgrade_over_the_earlier_form_says_so_in_one_line(isolated_home, tmp_path, monkeypatch):
    """The entries this interpreter wrote before the guard differ from this version's only by it: one line
    says the form changed, not four lines quoting the whole earlier command as if edited by hand."""
    monkeypatch.chdir(tmp_path)
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir(exist_ok=True)
    earlier = {e: settings.command_for(e).removesuffix(settings.GUARD) for e in settings.EVENTS}
    target.write_text(json.dumps({"hooks": {e: [{"matcher": "", "hooks": [
        {"type": "command", "command": c, "timeout": settings.EVENTS[e]}]}] for e, c in earlier.items()}}, indent=2))
    out = invoke("hooks", "install", "--write-settings").out
    assert "rewrote the command" not in out, out
    assert (f"updated the command of SessionStart, Stop, SessionEnd, UserPromptSubmit in {target} to this "
            "version's form: it ends with || exit 0, so a hook whose program is gone exits 0 and says nothing") in out
