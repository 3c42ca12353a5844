"""lh doctor: one line per check, ok/warn/fail with a hint, exit 1 when any check fails."""

import os
import re
import stat
import sys
from pathlib import Path

import pytest

from lazy_harness import paths
from lazy_harness.cli import doctor_distiller

from tests.cli.lhrun import invoke, run
from tests.support import fake_claude

LINE = re.compile(r"^(ok|info|warn|fail) +([a-z][a-z ]*): (.+?)(  \(hint: .+\))?$")


def checks(out: str) -> dict[str, tuple[str, str]]:
    """check name -> (status, whole line); every line must have the documented shape."""
    found = {}
    for line in out.splitlines():
        m = LINE.match(line)
        assert m, f"not a check line: {line!r}"
        found[m.group(2)] = (m.group(1), line)
    return found


def healthy(monkeypatch, tmp_path):
    fake_claude.on_path(monkeypatch, tmp_path / "bin")
    fake_claude.install(tmp_path / "bin")
    assert invoke("hooks", "install").code == 0


def test_all_ok_with_a_fake_claude_on_path(tmp_path, monkeypatch):
    healthy(monkeypatch, tmp_path)
    r = invoke("doctor")
    found = checks(r.out)
    assert r.code == 0, r.out
    assert set(found) >= {"python", "config", "compound loop", "claude", "hooks", "queue folder", "log folder",
                          "queue", "failed tasks", "worker"}
    assert found["claude"][0] == "ok"
    assert "2.1.328 (Claude Code)" in found["claude"][1] and str(tmp_path / "bin" / "claude") in found["claude"][1]
    assert found["python"][0] == "ok" and sys.version.split()[0] in found["python"][1]
    assert found["hooks"][0] == "ok" and paths.user_settings_file() in found["hooks"][1]
    assert found["worker"] == ("ok", "ok    worker: never ran (nothing queued yet)")
    assert all(status == "ok" for status, _ in found.values()), r.out


def test_no_claude_is_a_failure_with_a_hint_and_exit_one(tmp_path, monkeypatch):
    assert invoke("hooks", "install").code == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    r = invoke("doctor")
    found = checks(r.out)
    assert r.code == 1
    status, line = found["claude"]
    assert status == "fail" and "not found" in line and "(hint: " in line


def test_through_the_console_script_exit_code(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path))  # no claude, no hooks
    p = run("doctor", env=env)
    assert p.returncode == 1
    assert "Traceback" not in p.stderr
    found = checks(p.stdout)
    assert found["hooks"][0] == "fail" and "lh hooks install" in found["hooks"][1]


def test_configured_claude_path_and_a_failing_version(tmp_path, monkeypatch):
    exe = tmp_path / "tools" / "my claude"
    exe.parent.mkdir()
    exe.write_text("#!/bin/sh\necho 'boom' >&2\nexit 3\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[compound_loop]\nenabled = true\nclaude_path = "{exe}"\n')
    monkeypatch.setenv("LH_CONFIG", str(cfg))
    found = checks(invoke("doctor").out)
    status, line = found["claude"]
    assert status == "fail" and str(exe) in line and "exited 3" in line and "boom" in line


def test_invalid_config_fails_and_says_distillation_is_paused(tmp_path, monkeypatch):
    healthy(monkeypatch, tmp_path)
    cfg = tmp_path / "c.toml"
    cfg.write_text('[compound_loop]\ndebounce_seconds = "soon"\n')
    monkeypatch.setenv("LH_CONFIG", str(cfg))
    r = invoke("doctor")
    found = checks(r.out)
    assert r.code == 1
    assert found["config"][0] == "fail" and "compound_loop.debounce_seconds" in found["config"][1]
    assert "(hint: lh config validate)" in found["config"][1]
    assert found["compound loop"][0] == "fail" and "paused: config.toml is invalid" in found["compound loop"][1]


def test_a_syntax_error_fails_with_file_and_line_and_pauses(tmp_path, monkeypatch):
    healthy(monkeypatch, tmp_path)
    cfg = tmp_path / "c.toml"
    cfg.write_text("[compound_loop]\nenabled = true\nmodel = \n")
    monkeypatch.setenv("LH_CONFIG", str(cfg))
    r = invoke("doctor")
    found = checks(r.out)
    assert r.code == 1
    assert found["config"][0] == "fail" and f"{cfg}:3: TOML syntax error" in found["config"][1]
    assert found["compound loop"][0] == "fail" and "paused" in found["compound loop"][1]


def test_a_disabled_loop_in_a_valid_file_warns(tmp_path, monkeypatch):
    healthy(monkeypatch, tmp_path)
    cfg = tmp_path / "c.toml"
    cfg.write_text("[compound_loop]\nenabled = false\n")
    monkeypatch.setenv("LH_CONFIG", str(cfg))
    found = checks(invoke("doctor").out)
    assert found["config"][0] == "ok"
    assert found["compound loop"][0] == "warn" and "disabled" in found["compound loop"][1]


def test_a_capped_value_is_a_config_warning(tmp_path, monkeypatch):
    healthy(monkeypatch, tmp_path)
    cfg = tmp_path / "c.toml"
    cfg.write_text("[compound_loop]\nenabled = true\n[context]\nmax_chars = 50000\n")
    monkeypatch.setenv("LH_CONFIG", str(cfg))
    found = checks(invoke("doctor").out)
    assert found["config"][0] == "warn"
    assert f"{cfg}:4: context.max_chars: 50000 is above the cap of 9500" in found["config"][1]
    assert found["compound loop"][0] == "ok"


def test_failed_tasks_and_a_stale_queue_warn(tmp_path, monkeypatch):
    healthy(monkeypatch, tmp_path)
    q = paths.queue_dir()
    os.makedirs(os.path.join(q, "failed"))
    open(os.path.join(q, "failed", "1-aaaa.task"), "w").close()
    old = q + "/1000000000000000000-bbbb.task"  # queued in 2001
    open(old, "w").close()
    found = checks(invoke("doctor").out)
    assert found["failed tasks"][0] == "warn" and "1 task" in found["failed tasks"][1]
    assert "lh queue retry --failed" in found["failed tasks"][1]
    assert found["queue"][0] == "warn" and "1 pending" in found["queue"][1]
    assert found["worker"][0] == "warn"


def test_unwritable_queue_folder_fails(tmp_path, monkeypatch):
    if os.geteuid() == 0:
        # why: root writes anywhere; simulate with a file where the folder should be
        healthy(monkeypatch, tmp_path)
        claude_dir = paths.claude_dir()
        with open(os.path.join(claude_dir, "queue"), "w") as fh:
            fh.write("not a folder")
    else:
        healthy(monkeypatch, tmp_path)
        os.makedirs(paths.queue_dir())
        os.chmod(paths.queue_dir(), 0o500)
    r = invoke("doctor")
    found = checks(r.out)
    assert r.code == 1
    assert found["queue folder"][0] == "fail"


def test_a_registered_interpreter_that_no_longer_exists_fails(tmp_path, monkeypatch):
    from lazy_harness import settings

    fake_claude.on_path(monkeypatch, tmp_path / "bin")
    fake_claude.install(tmp_path / "bin")
    settings.install(paths.user_settings_file(), python="/gone/venv/bin/python")
    found = checks(invoke("doctor").out)
    assert found["hooks"][0] == "fail" and "/gone/venv/bin/python" in found["hooks"][1]


def test_hooks_that_load_lazy_harness_from_a_folder_that_holds_it_no_more_fail(tmp_path, monkeypatch):
    """The interpreter is there, but the folder the command appends to the import path (an old clone,
    a removed install) is not: with -S it is the only way the hook finds the package."""
    from lazy_harness import settings

    fake_claude.on_path(monkeypatch, tmp_path / "bin")
    fake_claude.install(tmp_path / "bin")
    from lazy_harness import hotload

    settings.install(paths.user_settings_file(), python=sys.executable)
    path = Path(paths.user_settings_file())
    here = hotload.package_parent()
    assert here in path.read_text()
    path.write_text(path.read_text().replace(here, str(tmp_path / "old-clone" / "src")))
    r = invoke("doctor")
    status, line = checks(r.out)["hooks"]
    assert status == "fail" and str(tmp_path / "old-clone" / "src") in line and "lh hooks install" in line, r.out
    assert r.code == 1


def test_an_lh_hook_whose_interpreter_is_gone_is_not_runnable(tmp_path, monkeypatch):
    """A pipx venv left by a Python upgrade: the script is on PATH, its #! interpreter is not."""
    from lazy_harness import settings

    fake_claude.on_path(monkeypatch, tmp_path / "bin")
    fake_claude.install(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin")
    (tmp_path / "bin" / "lh-hook").write_text("#!/gone/pipx/venvs/lazy-harness/bin/python\nimport sys\n")
    (tmp_path / "bin" / "lh-hook").chmod(0o755)
    monkeypatch.chdir(tmp_path)
    settings.install(str(tmp_path / ".claude" / "settings.json"), portable=True)
    status, line = checks(invoke("doctor").out)["hooks"]
    assert status == "fail" and "command lh-hook: " in line and "names the interpreter /gone/pipx/venvs" in line


def test_disable_all_hooks_in_a_settings_file_fails(tmp_path, monkeypatch):
    """Claude Code runs no hook while a settings file says disableAllHooks: true."""
    import json

    healthy(monkeypatch, tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".claude").mkdir(exist_ok=True)
    local = tmp_path / ".claude" / "settings.local.json"
    local.write_text(json.dumps({"disableAllHooks": True}))
    r = invoke("doctor")
    assert r.code == 1 and f"fail  hooks: {local} sets \"disableAllHooks\": true" in r.out, r.out


# -- the claude version against the tested range ---------------------------------------------------

def claude_printing(monkeypatch, tmp_path, output: str, code: int = 0):
    """A fake `claude` on PATH whose --version prints `output`."""
    bin_dir = tmp_path / "vbin"
    bin_dir.mkdir(exist_ok=True)
    exe = bin_dir / "claude"
    exe.write_text(f"#!/bin/sh\nprintf '%s\\n' '{output}'\nexit {code}\n")
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert invoke("hooks", "install").code == 0


@pytest.mark.parametrize("version", [doctor_distiller.CLAUDE_OLDEST_TESTED, "2.1.250",
                                     doctor_distiller.CLAUDE_NEWEST_TESTED])
def test_a_claude_inside_the_tested_range_is_ok(tmp_path, monkeypatch, version):
    claude_printing(monkeypatch, tmp_path, f"{version} (Claude Code)")
    r = invoke("doctor")
    found = checks(r.out)
    assert r.code == 0, r.out
    assert found["claude"][0] == "ok" and f"{version} (Claude Code)" in found["claude"][1]
    status, line = found["claude version"]
    assert status == "ok" and version in line
    assert f"tested {doctor_distiller.CLAUDE_OLDEST_TESTED} to {doctor_distiller.CLAUDE_NEWEST_TESTED}" in line


@pytest.mark.parametrize("version,word", [("2.1.196", "older"), ("1.0.80", "older"), ("2.2.0", "newer"),
                                          ("2.10.0", "newer"), ("3.0.0", "newer")])
def test_a_claude_outside_the_tested_range_warns(tmp_path, monkeypatch, version, word):
    claude_printing(monkeypatch, tmp_path, f"{version} (Claude Code)")
    r = invoke("doctor")
    found = checks(r.out)
    assert r.code == 0, r.out  # a warning, not a failure: it may well work
    status, line = found["claude version"]
    assert status == "warn"
    assert f"{version} is {word} than the {'oldest' if word == 'older' else 'newest'} tested" in line
    assert "(hint: " in line


def test_the_newest_claude_the_registry_offers_is_inside_the_tested_range(tmp_path, monkeypatch):
    """2.1.332, the newest release, and the one CI pins: a fresh install gets no warning."""
    claude_printing(monkeypatch, tmp_path, "2.1.332 (Claude Code)")
    r = invoke("doctor")
    status, line = checks(r.out)["claude version"]
    assert status == "ok", line
    assert doctor_distiller.CLAUDE_NEWEST_TESTED == "2.1.332"


@pytest.mark.parametrize("version", ["2.1.333", "2.1.400"])
def test_a_patch_release_above_the_newest_tested_is_information(tmp_path, monkeypatch, version):
    claude_printing(monkeypatch, tmp_path, f"{version} (Claude Code)")
    r = invoke("doctor")
    found = checks(r.out)
    assert r.code == 0, r.out
    status, line = found["claude version"]
    assert status == "info"
    assert f"{version} is newer than tested (tested {doctor_distiller.CLAUDE_OLDEST_TESTED} to " in line
    assert "(hint: " not in line


def test_the_readme_names_the_tested_range():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert f"checked on {doctor_distiller.CLAUDE_OLDEST_TESTED} to {doctor_distiller.CLAUDE_NEWEST_TESTED}" in readme


def test_a_version_doctor_cannot_read_warns(tmp_path, monkeypatch):
    claude_printing(monkeypatch, tmp_path, "Claude Code (development build)")
    status, line = checks(invoke("doctor").out)["claude version"]
    assert status == "warn" and "cannot read a version in 'Claude Code (development build)'" in line


def test_a_hanging_claude_version_fails_after_the_short_timeout(tmp_path, monkeypatch):
    bin_dir = tmp_path / "vbin"
    bin_dir.mkdir()
    (bin_dir / "claude").write_text("#!/bin/sh\nexec sleep 600\n")
    (bin_dir / "claude").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(doctor_distiller, "VERSION_TIMEOUT", 0.5)
    found = checks(invoke("doctor").out)
    status, line = found["claude"]
    assert status == "fail" and "timed out after 0.5s" in line
    assert "claude version" not in found


def test_ci_runs_the_e2e_suite_on_the_tested_range():
    ci = (Path(__file__).resolve().parents[2] / ".ci" / "run").read_text()
    assert f'CLAUDE_OLDEST="{doctor_distiller.CLAUDE_OLDEST_TESTED}"' in ci
    assert f'CLAUDE_NEWEST="{doctor_distiller.CLAUDE_NEWEST_TESTED}"' in ci


# -- hooks registered in more than one file ---------------------------------------------------------

def test_hooks_in_user_and_project_settings_warn_they_run_twice(tmp_path, monkeypatch):
    healthy(monkeypatch, tmp_path)
    monkeypatch.setenv("PATH", f"{os.environ['PATH']}{os.pathsep}{os.path.dirname(sys.executable)}")  # lh-hook
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    monkeypatch.chdir(project)
    before = checks(invoke("doctor").out)
    assert "hooks twice" not in before
    assert invoke("hooks", "install", "--project").code == 0
    r = invoke("doctor")
    found = checks(r.out)
    status, line = found["hooks twice"]
    assert status == "warn" and r.code == 0
    assert f"user ({paths.user_settings_file()})" in line
    assert f"project ({project / '.claude' / 'settings.json'})" in line
    assert "hint: keep one: lh hooks uninstall or lh hooks uninstall --project" in line


def test_a_project_file_with_lh_hook_not_on_path_fails_with_an_install_hint(tmp_path, monkeypatch):
    from lazy_harness import settings

    fake_claude.on_path(monkeypatch, tmp_path / "bin")
    fake_claude.install(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin")  # no lh-hook
    monkeypatch.chdir(tmp_path)
    settings.install(str(tmp_path / ".claude" / "settings.json"), portable=True)
    status, line = checks(invoke("doctor").out)["hooks"]
    assert status == "fail" and "command lh-hook not found" in line and "pipx install ." in line

    bin_dir = tmp_path / "bin"
    (bin_dir / "lh-hook").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "lh-hook").chmod(0o755)
    assert checks(invoke("doctor").out)["hooks"][0] == "ok"


def test_a_failing_notice_is_shown_without_its_own_pointer_to_lh_doctor(tmp_path, monkeypatch):
    """Issue 35, item 5: the notice SessionStart shows ends in "(lh doctor)"; inside lh doctor it read
    as advice to run the command being run."""
    from lazy_harness import notice
    from lazy_harness.worker import calls

    healthy(monkeypatch, tmp_path)
    reason = ("the API is unreachable (claude reported an error (api_error): API Error: Connection refused; "
              "stderr: retrying; `claude -p ...` exited 1)")
    notice.write(notice.FAILING, f"lazy-harness: distillation failing, {calls._first_clause(reason)} "
                 f"({notice.SEE_DOCTOR})")
    r = invoke("doctor")
    status, line = checks(r.out)["distillation"]
    assert status == "warn"
    assert "distillation failing, the API is unreachable (claude reported an error (api_error): API Error: " \
           "Connection refused)  (hint: lh logs; lh queue)" in line
    assert "lh doctor" not in r.out


def test_fail_lines_of_an_invalid_config_and_no_hooks_exit_one_through_the_console_script(tmp_path):
    """Issue 35, item 3: the exit status follows the fail lines (a script runs lh doctor && ...)."""
    cfg = tmp_path / "c.toml"
    cfg.write_text('[compound_loop]\nenabled = "yes"\n')
    p = run("doctor", env=dict(os.environ, PATH=str(tmp_path), LH_CONFIG=str(cfg)))
    found = checks(p.stdout)
    assert {found["config"][0], found["hooks"][0], found["compound loop"][0]} == {"fail"}
    assert p.returncode == 1 and "Traceback" not in p.stderr


def test_a_damaged_worker_state_is_a_warning_not_never_ran(tmp_path, monkeypatch):
    healthy(monkeypatch, tmp_path)
    state = Path(paths.state_dir()) / "worker.json"
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_bytes(b"\x00\xffnot json")
    status, line = checks(invoke("doctor").out)["worker"]
    assert status == "warn" and "cannot read" in line and str(state) in line and "never ran" not in line
    out = invoke("status").out
    assert "never ran" not in out and "cannot read" in out


def _claimed(tmp_path) -> None:
    """A task in processing/, as a worker leaves its claim (whether it still runs or was killed)."""
    from lazy_harness import queue

    q = paths.queue_dir()
    queue.ensure_layout(q)
    fields = {"session_id": "11111111-aaaa-4bbb-8ccc-000000000001", "session_jsonl": str(tmp_path / "s.jsonl"),
              "cwd": str(tmp_path), "event": "SessionEnd"}
    with open(os.path.join(q, queue.PROCESSING, "1700000000000000000-11111111.task"), "w") as fh:
        fh.write(queue.format_task(fields))


def test_a_dead_workers_claim_warns_it_waits_for_the_next_worker(tmp_path, monkeypatch):
    """A worker killed mid-task left its claim, and doctor said all was well."""
    healthy(monkeypatch, tmp_path)
    _claimed(tmp_path)
    found = checks(invoke("doctor").out)
    status, line = found["processing"]
    assert status == "warn", line
    assert ("1 task interrupted: resumes when the next session starts a worker, or run lh worker run --once"
            in line and line.endswith("(hint: lh worker run --once)")), line


def test_a_claim_while_a_worker_holds_the_lock_is_no_warning(tmp_path, monkeypatch):
    from lazy_harness import queue

    healthy(monkeypatch, tmp_path)
    _claimed(tmp_path)
    fd = queue.acquire_worker_lock(paths.queue_dir())
    assert fd is not None
    try:
        r = invoke("doctor")
    finally:
        queue.release_worker_lock(fd)
    found = checks(r.out)
    assert found["processing"] == ("ok", "ok    processing: 1 task being distilled now"), r.out
    assert all(status == "ok" for status, _ in found.values()), r.out


# -- a subfolder of a repository: Claude Code 2.1.332 reads the start folder's .claude/settings.json,
# never the repository root's; the root's settings.local.json it does read (tests/test_plugin.py) -----

def lh_hook_on_path(tmp_path, monkeypatch) -> None:
    fake_claude.on_path(monkeypatch, tmp_path / "bin")
    fake_claude.install(tmp_path / "bin")
    (tmp_path / "bin" / "lh-hook").write_text("#!/bin/sh\nexit 0\n")
    (tmp_path / "bin" / "lh-hook").chmod(0o755)


def test_the_roots_project_hooks_do_not_apply_in_a_subfolder(tmp_path, monkeypatch):
    from lazy_harness import settings

    lh_hook_on_path(tmp_path, monkeypatch)
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "deep").mkdir(parents=True)
    shared = root / ".claude" / "settings.json"
    settings.install(str(shared), portable=True)
    monkeypatch.chdir(root)
    assert checks(invoke("doctor").out)["hooks"][0] == "ok"
    monkeypatch.chdir(root / "src" / "deep")
    r = invoke("doctor")
    status, line = checks(r.out)["hooks"]
    assert status == "fail" and r.code == 1
    assert f"{shared} holds lazy-harness hooks" in line and f"not in {root / 'src' / 'deep'}" in line
    assert line.endswith(f"(hint: start claude in {root})")


def test_the_roots_project_hooks_beside_hooks_that_apply_here_are_a_warning(tmp_path, monkeypatch):
    from lazy_harness import settings

    healthy(monkeypatch, tmp_path)
    monkeypatch.setenv("PATH", f"{os.environ['PATH']}{os.pathsep}{os.path.dirname(sys.executable)}")  # lh-hook
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "sub").mkdir()
    settings.install(str(root / ".claude" / "settings.json"), portable=True)
    monkeypatch.chdir(root / "sub")
    out = invoke("doctor").out
    lines = [line for line in out.splitlines() if line.split(":")[0].split()[-1] == "hooks"]
    assert any(line.startswith("ok ") and str(paths.user_settings_file()) in line for line in lines), out
    (note,) = [line for line in lines if str(root / ".claude" / "settings.json") in line]
    assert note.startswith("warn ") and f"(hint: start claude in {root})" in note
    assert "hooks twice" not in checks(out)


def test_the_roots_settings_local_json_applies_in_a_subfolder(tmp_path, monkeypatch):
    from lazy_harness import settings

    lh_hook_on_path(tmp_path, monkeypatch)
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "sub").mkdir()
    local = root / ".claude" / "settings.local.json"
    settings.install(str(local), portable=True)
    monkeypatch.chdir(root / "sub")
    status, line = checks(invoke("doctor").out)["hooks"]
    assert status == "ok" and str(local) in line


def test_hooks_that_load_another_install_warn_with_the_fix(tmp_path, monkeypatch):
    """A second virtualenv's lh (or an upgrade into another one) next to hooks an older install wrote:
    that version runs the hooks, this one the commands and the worker (two index versions)."""
    from lazy_harness import settings

    healthy(monkeypatch, tmp_path)
    settings_file = paths.user_settings_file()
    text = Path(settings_file).read_text(encoding="utf-8")
    mine = settings.package_folder(settings.split_command(settings.command_for("SessionStart")))
    other = tmp_path / "other-venv" / "site-packages"
    (other / "lazy_harness" / "hooks").mkdir(parents=True)
    (other / "lazy_harness" / "hooks" / "launch.py").write_text("")
    assert mine and mine in text
    Path(settings_file).write_text(text.replace(mine, str(other)), encoding="utf-8")
    found = checks(invoke("doctor").out)
    status, line = found["hooks"]
    assert status == "warn" and str(other) in line and "another install" in line, line
    assert "lh hooks install" in line
