"""lh doctor: one line per check, ok/warn/fail with a hint, exit 1 when any check fails."""

import os
import re
import stat
import sys

from lazy_harness import paths

from tests.cli.lhrun import invoke, run
from tests.support import fake_claude

LINE = re.compile(r"^(ok|warn|fail) +([a-z][a-z ]*): (.+?)(  \(hint: .+\))?$")


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


def test_invalid_config_fails_and_disabled_loop_warns(tmp_path, monkeypatch):
    healthy(monkeypatch, tmp_path)
    cfg = tmp_path / "c.toml"
    cfg.write_text('[compound_loop]\ndebounce_seconds = "soon"\n')
    monkeypatch.setenv("LH_CONFIG", str(cfg))
    r = invoke("doctor")
    found = checks(r.out)
    assert r.code == 1
    assert found["config"][0] == "fail" and "compound_loop.debounce_seconds" in found["config"][1]
    assert "(hint: lh config validate)" in found["config"][1]
    assert found["compound loop"][0] == "warn"


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
