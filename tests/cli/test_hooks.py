"""lh hooks install|uninstall|status."""

import json
import os
import subprocess
import sys
import time

from lazy_harness import config, paths, settings

from tests.cli.lhrun import invoke, run


def user_file(home):
    return home / ".claude" / "settings.json"


def config_path(home):
    return home / ".config" / "lazy-harness" / "config.toml"


def test_install_creates_settings_and_config_and_says_so(isolated_home):
    r = invoke("hooks", "install")
    assert r.code == 0, r.err
    target = user_file(isolated_home)
    data = json.loads(target.read_text())
    assert {o.event for o in settings.find_ours(data)} == {"SessionStart", "Stop", "SessionEnd", "UserPromptSubmit"}
    assert f"settings: {target} (created)" in r.out
    assert "Stop (timeout 10 s)" in r.out and "SessionEnd (timeout 5 s)" in r.out
    assert f"command: {settings.command_for('<Event>')}" in r.out and " -I -S -c " in r.out
    cfg = config_path(isolated_home)
    assert f"config: {cfg}: created from the example with compound_loop.enabled = true" in r.out
    assert config.parse_file(str(cfg))[0]["compound_loop"]["enabled"] is True


def test_second_install_changes_nothing_and_says_already_installed(isolated_home):
    invoke("hooks", "install")
    target = user_file(isolated_home)
    before = target.read_bytes()
    cfg_before = config_path(isolated_home).read_bytes()
    r = invoke("hooks", "install")
    assert r.code == 0
    assert "already installed" in r.out
    assert "already enabled" in r.out
    assert target.read_bytes() == before
    assert config_path(isolated_home).read_bytes() == cfg_before


def test_install_into_an_existing_file_reports_the_backup(isolated_home):
    target = user_file(isolated_home)
    target.parent.mkdir()
    target.write_text('{\n  "model": "opus"\n}\n')
    r = invoke("hooks", "install")
    assert r.code == 0
    assert f"backup: {target}.lh-backup" in r.out
    assert (target.parent / "settings.json.lh-backup").read_text() == '{\n  "model": "opus"\n}\n'


def test_install_flips_an_existing_config_keeping_its_comments(isolated_home):
    cfg = config_path(isolated_home)
    cfg.parent.mkdir(parents=True)
    cfg.write_text("# my notes\n[compound_loop]\nenabled = false # not yet\nmodel = \"x\"\n")
    r = invoke("hooks", "install")
    assert r.code == 0
    assert cfg.read_text() == "# my notes\n[compound_loop]\nenabled = true # not yet\nmodel = \"x\"\n"
    assert f"config: {cfg}: compound_loop.enabled switched on" in r.out


def test_install_respects_claude_config_dir(tmp_path, monkeypatch, isolated_home):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    assert invoke("hooks", "install").code == 0
    assert (tmp_path / "cc" / "settings.json").exists()
    assert not user_file(isolated_home).exists()


def test_install_with_settings_to_a_project_local_file(tmp_path, isolated_home):
    target = tmp_path / "proj" / ".claude" / "settings.local.json"
    target.parent.parent.mkdir()  # the project exists; its .claude/ is made
    r = invoke("hooks", "install", "--settings", str(target))
    assert r.code == 0
    assert len(settings.find_ours(json.loads(target.read_text()))) == len(settings.EVENTS)
    assert not user_file(isolated_home).exists()


def test_invalid_settings_is_refused_untouched_with_one_line_and_no_traceback(isolated_home):
    target = user_file(isolated_home)
    target.parent.mkdir()
    target.write_bytes(b'{"model": "opus",\n')
    p = run("hooks", "install")
    assert p.returncode == 1
    assert "Traceback" not in p.stderr
    assert p.stderr.count("\n") == 1 and str(target) in p.stderr and "not valid JSON" in p.stderr
    assert target.read_bytes() == b'{"model": "opus",\n'
    assert not config_path(isolated_home).exists()  # nothing else was done either


def test_broken_config_stops_install_before_settings_are_touched(isolated_home):
    cfg = config_path(isolated_home)
    cfg.parent.mkdir(parents=True)
    cfg.write_text("[compound_loop\n")
    r = invoke("hooks", "install")
    assert r.code == 1
    assert str(cfg) in r.err and "TOML syntax error" in r.err
    assert not user_file(isolated_home).exists()


def test_uninstall_gives_back_the_original_file(isolated_home):
    target = user_file(isolated_home)
    target.parent.mkdir()
    original = json.dumps({"model": "opus", "hooks": {"Stop": [{"matcher": "", "hooks": [
        {"type": "command", "command": "notify.sh"}]}]}}, indent=2) + "\n"
    target.write_text(original)
    invoke("hooks", "install")
    r = invoke("hooks", "uninstall")
    assert r.code == 0
    assert f"removed Stop, SessionStart, SessionEnd, UserPromptSubmit from {target}" in r.out
    assert target.read_text() == original
    again = invoke("hooks", "uninstall")
    assert again.code == 0 and "no lazy-harness hooks" in again.out


def test_uninstall_of_a_file_lh_created_deletes_it(isolated_home):
    invoke("hooks", "install")
    r = invoke("hooks", "uninstall")
    assert r.code == 0 and "deleted" in r.out
    assert not user_file(isolated_home).exists()


def test_the_registered_command_runs_without_the_venv_on_path(isolated_home, tmp_path):
    invoke("hooks", "install")
    data = json.loads(user_file(isolated_home).read_text())
    stop = next(o.command for o in settings.find_ours(data) if o.event == "Stop")
    env = {"HOME": str(isolated_home), "PATH": "/usr/bin:/bin"}
    p = subprocess.run(["/bin/sh", "-c", stop], input=b'{"session_id": "s1"}', capture_output=True,
                       env=env, timeout=30)
    assert p.returncode == 0 and p.stdout == b""
    log = (isolated_home / ".claude" / "logs" / "hooks.log").read_text()
    assert " Stop session=s1 " in log


def lh_hook_script():
    script = os.path.join(os.path.dirname(sys.executable), settings.SCRIPT)
    assert os.access(script, os.X_OK), f"{script} missing: reinstall the package (pip install -e .)"
    return script


def test_install_project_writes_the_portable_command_at_the_project_root(isolated_home, tmp_path, monkeypatch):
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "pkg").mkdir(parents=True)
    monkeypatch.chdir(root / "src" / "pkg")
    r = invoke("hooks", "install", "--project")
    assert r.code == 0, r.err
    target = root / ".claude" / "settings.json"
    assert f"settings: {target} (created)" in r.out and "command: lh-hook <Event>" in r.out
    text = target.read_text()
    assert {o.event: o.command for o in settings.find_ours(json.loads(text))} == {
        e: f"lh-hook {e} || exit 0" for e in settings.EVENTS}
    assert sys.executable not in text and str(tmp_path) not in text
    assert not user_file(isolated_home).exists()

    r = invoke("hooks", "uninstall", "--project")
    assert r.code == 0 and f"deleted {target}" in r.out
    assert not target.exists()


def test_install_project_with_a_folder_and_an_existing_empty_file(isolated_home, tmp_path):
    target = tmp_path / "proj" / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"")
    then = time.time() - 60  # why: made a minute ago (a file emptied just now waits to be written)
    os.utime(target, (then, then))
    r = invoke("hooks", "install", "--project", str(tmp_path / "proj"))
    assert r.code == 0, r.err
    assert f"settings: {target} (updated)" in r.out
    assert len(settings.find_ours(json.loads(target.read_text()))) == len(settings.EVENTS)
    assert invoke("hooks", "uninstall", "--project", str(tmp_path / "proj")).code == 0
    assert target.read_bytes() == b""


def test_settings_and_project_together_are_refused(isolated_home, tmp_path):
    r = invoke("hooks", "install", "--project", str(tmp_path), "--settings", str(tmp_path / "s.json"))
    assert r.code == 2 and "--settings and --project" in r.err
    assert not (tmp_path / ".claude").exists() and not (tmp_path / "s.json").exists()


def test_the_portable_command_runs_with_lh_hook_on_path(isolated_home, tmp_path):
    invoke("hooks", "install", "--project", str(tmp_path))
    data = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    stop = next(o.command for o in settings.find_ours(data) if o.event == "Stop")
    env = {"HOME": str(isolated_home), "PATH": os.path.dirname(lh_hook_script()) + ":/usr/bin:/bin"}
    p = subprocess.run(["/bin/sh", "-c", stop], input=b'{"session_id": "s2"}', capture_output=True,
                       env=env, timeout=30)
    assert p.returncode == 0 and p.stdout == b"", p.stderr
    log = (isolated_home / ".claude" / "logs" / "hooks.log").read_text()
    assert " Stop session=s2 " in log


def write_log(home, lines):
    log = home / ".claude" / "logs" / "hooks.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("".join(line + "\n" for line in lines))


def test_status_shows_files_commands_last_fired_and_loop_health(isolated_home, tmp_path, monkeypatch):
    invoke("hooks", "install")
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text('{"model": "opus"}')
    settings.install(str(project / ".claude" / "settings.local.json"), events={"Stop": 10})
    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")
    (project / ".git").mkdir()
    write_log(isolated_home, [
        "2025-01-01T10:00:00+00:00 Stop session=a skipped: debounced (1.0 ms)",
        "2025-01-01T10:05:00+00:00 SessionEnd session=a queued 1-a (worker pid 9) reason=other (4.0 ms)",
        "2025-01-01T10:06:00+00:00 Stop session=b skipped: compound loop disabled (0.5 ms)",
        "garbage line",
    ])
    q = paths.queue_dir()
    for folder in ("failed", "state"):
        os.makedirs(os.path.join(q, folder), exist_ok=True)
    open(os.path.join(q, "100-aaaa.task"), "w").close()
    open(os.path.join(q, "failed", "50-bbbb.task"), "w").close()
    open(os.path.join(q, "failed", "50-bbbb.task.error"), "w").close()
    with open(os.path.join(q, "state", "worker.json"), "w") as fh:
        json.dump({"started": "2025-01-01T10:05:01+00:00", "finished": "2025-01-01T10:05:09+00:00", "pid": 9,
                   "last_success": "2025-01-01T10:05:08+00:00", "last_success_task": "1-a",
                   "processed": 1, "failed": 0}, fh)
    r = invoke("hooks", "status")
    assert r.code == 0, r.err
    out = r.out
    user = user_file(isolated_home)
    assert f"{user}: SessionStart, Stop, SessionEnd, UserPromptSubmit" in out
    assert f"Stop: {settings.command_for('Stop')} (timeout 10 s)" in out
    # the files Claude Code 2.1.332 reads for a session started in sub: sub's own two, and the root's
    # settings.local.json (not the root's settings.json)
    assert f"{project}/sub/.claude/settings.json: not present" in out
    assert f"{project}/sub/.claude/settings.local.json: not present" in out
    assert f"{project}/.claude/settings.local.json: Stop" in out
    assert f"{project}/.claude/settings.json" not in out  # holds none of ours: nothing to say
    assert "Stop: 2025-01-01T10:06:00+00:00 session=b skipped: compound loop disabled" in out
    assert "SessionEnd: 2025-01-01T10:05:00+00:00 session=a queued" in out
    assert "SessionStart: not in the log" in out
    assert "UserPromptSubmit: not in the log" in out
    assert "compound loop: enabled" in out
    assert "last successful distillation: 2025-01-01T10:05:08+00:00 (task 1-a)" in out
    assert "worker: last ran 2025-01-01T10:05:01+00:00" in out
    assert "queue: 1 pending, 1 failed" in out


def test_status_with_nothing_installed_and_an_invalid_file(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text("{oops")
    r = invoke("hooks", "status")
    assert r.code == 0
    assert f"{user_file(isolated_home)}: not present" in r.out
    assert f"{tmp_path}/.claude/settings.json: not valid JSON" in r.out
    assert "no Claude Code settings file holds lazy-harness hooks (hint: lh hooks install)" in r.out
    assert "hooks.log): no hook has run yet" in r.out
    assert "worker: never ran" in r.out
    assert "queue: 0 pending, 0 failed" in r.out


def test_install_warns_about_wrong_values_in_the_config_and_still_enables(isolated_home):
    cfg = config_path(isolated_home)
    cfg.parent.mkdir(parents=True)
    cfg.write_text("[compound_loop]\nenabled = false\ndebounce_seconds = \"soon\"\n")
    r = invoke("hooks", "install")
    assert r.code == 0
    assert "warning: " in r.out and "compound_loop.debounce_seconds: expected an integer" in r.out
    assert "enabled = true" in cfg.read_text()


def test_install_project_warns_when_the_user_file_holds_our_hooks(isolated_home, tmp_path):
    """Issue 35, item 6: Claude Code runs both files, so every event ran twice without a word."""
    assert invoke("hooks", "install").code == 0
    (tmp_path / "proj").mkdir()
    r = invoke("hooks", "install", "--project", str(tmp_path / "proj"))
    assert r.code == 0, r.err
    assert (f"warning: {user_file(isolated_home)} holds lazy-harness hooks too: Claude Code runs both files, so "
            "in this project every event runs twice") in r.out
    assert invoke("hooks", "uninstall").code == 0
    (tmp_path / "other").mkdir()
    quiet = invoke("hooks", "install", "--project", str(tmp_path / "other"))
    assert quiet.code == 0 and "runs twice" not in quiet.out


def test_uninstall_project_removes_the_claude_folder_install_made_once_empty(isolated_home, tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    assert invoke("hooks", "install", "--project", str(proj)).code == 0
    assert (proj / ".claude" / "settings.json").exists()
    r = invoke("hooks", "uninstall", "--project", str(proj))
    assert r.code == 0 and f"removed {proj / '.claude'} (made by lh hooks install, empty now)" in r.out
    assert os.listdir(proj) == []


def test_uninstall_project_keeps_a_claude_folder_the_person_made_or_filled(isolated_home, tmp_path):
    mine = tmp_path / "mine"
    (mine / ".claude").mkdir(parents=True)  # made before install: the person's
    assert invoke("hooks", "install", "--project", str(mine)).code == 0
    assert invoke("hooks", "uninstall", "--project", str(mine)).code == 0
    assert (mine / ".claude").is_dir() and os.listdir(mine / ".claude") == []
    filled = tmp_path / "filled"
    filled.mkdir()
    assert invoke("hooks", "install", "--project", str(filled)).code == 0
    (filled / ".claude" / "commands").mkdir()  # something else lives there now
    r = invoke("hooks", "uninstall", "--project", str(filled))
    assert r.code == 0 and "made by lh hooks install" not in r.out
    assert (filled / ".claude" / "commands").is_dir()


# --- refusals and warnings of install and uninstall --------------------------------------------------

def test_a_read_only_settings_file_is_refused_by_install_and_uninstall(isolated_home):
    target = user_file(isolated_home)
    target.parent.mkdir()
    target.write_text('{\n  "model": "opus"\n}\n')
    os.chmod(target, 0o444)
    r = invoke("hooks", "install")
    assert r.code == 1
    assert r.err == (f"lh: {target}: read-only; left untouched "
                     f"(hint: chmod u+w {target}, then run lh hooks install again)\n")
    assert target.read_bytes() == b'{\n  "model": "opus"\n}\n' and "(updated)" not in r.out
    os.chmod(target, 0o644)
    assert invoke("hooks", "install").code == 0
    installed = target.read_bytes()
    os.chmod(target, 0o444)
    r = invoke("hooks", "uninstall")
    assert r.code == 1 and "then run lh hooks uninstall again" in r.err and r.err.count("\n") == 1
    assert target.read_bytes() == installed


def test_install_warns_about_every_other_file_that_holds_our_hooks(isolated_home, tmp_path, monkeypatch):
    """Claude Code merges the user file and the project's two files: ours in two of them run twice."""
    proj = tmp_path / "proj"
    (proj / ".git").mkdir(parents=True)
    monkeypatch.chdir(proj)
    local = proj / ".claude" / "settings.local.json"
    assert invoke("hooks", "install", "--settings", str(local)).code == 0
    r = invoke("hooks", "install")  # the user file, from inside that project
    assert r.code == 0, r.err
    assert (f"warning: {local} holds lazy-harness hooks too: Claude Code runs both files, so in this project "
            "every event runs twice") in r.out
    assert f"lh hooks uninstall --settings {local}" in r.out
    shared = invoke("hooks", "install", "--project")
    assert f"warning: {local} holds lazy-harness hooks too" in shared.out
    assert f"warning: {user_file(isolated_home)} holds lazy-harness hooks too" in shared.out
    again = invoke("hooks", "install", "--settings", str(local))
    assert f"warning: {proj / '.claude' / 'settings.json'} holds" in again.out
    assert f"lh hooks uninstall --project {proj}" in again.out
    assert "(hint: lh hooks uninstall removes" in again.out  # the user file's own command


def test_install_alone_in_its_project_warns_about_nothing(isolated_home, tmp_path, monkeypatch):
    (tmp_path / "proj").mkdir()
    monkeypatch.chdir(tmp_path / "proj")
    r = invoke("hooks", "install", "--settings", str(tmp_path / "proj" / ".claude" / "settings.local.json"))
    assert r.code == 0 and "runs twice" not in r.out


def test_install_settings_refuses_a_name_claude_code_never_reads(isolated_home, tmp_path):
    typo = tmp_path / "proj" / ".claude" / "setings.local.json"
    r = invoke("hooks", "install", "--settings", str(typo))
    assert r.code == 1 and r.err.count("\n") == 1
    assert f"--settings: {typo}: Claude Code reads no file of that name" in r.err
    assert "settings.local.json" in r.err
    assert not (tmp_path / "proj").exists() and not user_file(isolated_home).exists()


def test_uninstall_settings_still_cleans_a_misnamed_file_an_earlier_version_wrote(isolated_home, tmp_path):
    typo = tmp_path / "setings.local.json"
    settings.install(str(typo))
    r = invoke("hooks", "uninstall", "--settings", str(typo))
    assert r.code == 0 and f"deleted {typo}" in r.out


def test_install_settings_on_a_projects_shared_file_writes_the_portable_form(isolated_home, tmp_path):
    """The committed file must not name this machine's interpreter: the same command as --project."""
    shared = tmp_path / "proj" / ".claude" / "settings.json"
    (tmp_path / "proj").mkdir()
    r = invoke("hooks", "install", "--settings", str(shared))
    assert r.code == 0, r.err
    assert "command: lh-hook <Event>" in r.out
    text = shared.read_text()
    commands = {o.command for o in settings.find_ours(json.loads(text))}
    assert commands == {f"lh-hook {e} || exit 0" for e in settings.EVENTS}
    assert sys.executable not in text
    # the user file, though also a .claude/settings.json, keeps the absolute form
    mine = invoke("hooks", "install", "--settings", str(user_file(isolated_home)))
    assert mine.code == 0 and " -I -S -c " in mine.out


def test_uninstall_project_of_a_missing_folder_gives_uninstalls_hint(isolated_home, tmp_path):
    r = invoke("hooks", "uninstall", "--project", str(tmp_path / "typo"))
    assert r.code == 1 and f"--project: {tmp_path / 'typo'} does not exist" in r.err
    assert "is created" not in r.err and "nothing was removed" in r.err
    r = invoke("hooks", "install", "--project", str(tmp_path / "typo"))
    assert r.code == 1 and "only its .claude/ is created" in r.err


def test_status_in_a_subfolder_says_the_roots_project_hooks_do_not_apply_there(isolated_home, tmp_path,
                                                                              monkeypatch):
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "pkg").mkdir(parents=True)
    shared = root / ".claude" / "settings.json"
    settings.install(str(shared), portable=True)
    monkeypatch.chdir(root / "src" / "pkg")
    r = invoke("hooks", "status")
    assert r.code == 0
    assert f"{shared}: SessionStart" not in r.out  # not listed among the files read here
    assert (f"{shared} holds lazy-harness hooks, but Claude Code reads a project's .claude/settings.json only "
            f"in sessions started in {root}, not in {root / 'src' / 'pkg'}") in r.out
    assert "no Claude Code settings file holds lazy-harness hooks" in r.out


def test_install_project_from_a_subfolder_says_sessions_started_there_do_not_run_them(isolated_home, tmp_path,
                                                                                     monkeypatch):
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "pkg").mkdir(parents=True)
    monkeypatch.chdir(root / "src" / "pkg")
    r = invoke("hooks", "install", "--project")
    assert r.code == 0, r.err
    assert f"{root / '.claude' / 'settings.json'} holds lazy-harness hooks" in r.out
    assert f"not in {root / 'src' / 'pkg'}" in r.out
    monkeypatch.chdir(root)
    assert "holds lazy-harness hooks, but" not in invoke("hooks", "install", "--project").out


def test_status_shows_a_long_last_line_cut_keeping_its_start_and_end(isolated_home):
    """A hook's line may hold an error's text (up to 8 KiB): status shows its start and its end, the whole
    line stays in hooks.log."""
    middle = "x" * 6000
    write_log(isolated_home, [f"2025-01-01T10:00:00+00:00 Stop session=a error: {middle} (1.0 ms)"])
    r = invoke("hooks", "status")
    assert r.code == 0, r.err
    [line] = [ln for ln in r.out.splitlines() if ln.startswith("  Stop: ")]
    assert len(line) < 500 and "session=a error: x" in line and line.endswith("(1.0 ms)") and "[cut " in line
