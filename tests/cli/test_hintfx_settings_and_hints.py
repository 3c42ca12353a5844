"""``lh hooks install --settings`` into a folder that does not exist (refused, nothing created, but a
project's missing ``.claude/``), no "runs twice" warning for a file Claude Code does not read, and the
hint of an unreadable settings.json or config.toml, or one that is not a regular file, naming a fix
that works for that error."""

import builtins
import errno
import json
import os

from lazy_harness import paths, private, settings
from tests.cli.lhrun import invoke


def refused_in_one_line(r, target) -> None:
    assert r.code == 1, r.out + r.err
    assert "Traceback" not in r.err and len(r.err.strip().splitlines()) == 1, r.err
    assert str(target) in r.err, r.err


def nothing_made(home) -> None:
    """No settings file, no config.toml, no backup written for the refused install."""
    assert not os.path.exists(paths.user_settings_file())
    assert not os.path.exists(paths.config_file())
    assert not os.path.exists(os.path.join(paths.data_dir(), "settings-backups"))


# --- --settings in a folder that does not exist -----------------------------------------------------

def test_install_refuses_a_misspelt_claude_folder_and_creates_nothing(isolated_home, tmp_path, monkeypatch):
    proj = tmp_path / "proj"
    proj.mkdir()
    monkeypatch.chdir(proj)
    r = invoke("hooks", "install", "--settings", ".claud/settings.local.json")
    refused_in_one_line(r, proj / ".claud" / "settings.local.json")
    assert "does not exist" in r.err
    assert not (proj / ".claud").exists()
    nothing_made(isolated_home)


def test_install_refuses_a_settings_path_two_missing_folders_deep(isolated_home, tmp_path, monkeypatch):
    proj = tmp_path / "proj"
    proj.mkdir()
    monkeypatch.chdir(proj)
    r = invoke("hooks", "install", "--settings", "../nosuch/deeper/settings.json")
    refused_in_one_line(r, tmp_path / "nosuch" / "deeper")
    assert not (tmp_path / "nosuch").exists()
    nothing_made(isolated_home)


def test_install_refuses_a_claude_folder_inside_a_missing_project(isolated_home, tmp_path):
    target = tmp_path / "nosuch" / ".claude" / "settings.json"
    r = invoke("hooks", "install", "--settings", str(target))
    refused_in_one_line(r, target.parent)
    assert not (tmp_path / "nosuch").exists()
    nothing_made(isolated_home)


def test_install_refuses_a_settings_path_whose_folder_is_a_file(isolated_home, tmp_path):
    (tmp_path / "notdir").write_text("x")
    target = tmp_path / "notdir" / "settings.json"
    r = invoke("hooks", "install", "--settings", str(target))
    refused_in_one_line(r, tmp_path / "notdir")
    assert (tmp_path / "notdir").read_text() == "x"
    nothing_made(isolated_home)


def test_install_still_makes_a_missing_claude_folder_in_an_existing_project_and_uninstall_removes_it(tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    target = proj / ".claude" / "settings.local.json"
    r = invoke("hooks", "install", "--settings", str(target))
    assert r.code == 0, r.out + r.err
    assert [o.event for o in settings.find_ours(json.loads(target.read_text()))] == list(settings.EVENTS)
    r = invoke("hooks", "uninstall", "--settings", str(target))
    assert r.code == 0 and not (proj / ".claude").exists(), r.out + r.err


def test_install_still_takes_the_user_file_of_a_claude_dir_not_made_yet(tmp_path, monkeypatch):
    claude_dir = tmp_path / "cfg" / "claude"  # not named .claude: CLAUDE_CONFIG_DIR names it
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude_dir))
    r = invoke("hooks", "install", "--settings", str(claude_dir / "settings.json"))
    assert r.code == 0, r.out + r.err
    assert settings.find_ours(json.loads((claude_dir / "settings.json").read_text()))


def test_no_runs_twice_warning_for_a_file_claude_code_does_not_read(tmp_path, monkeypatch):
    assert invoke("hooks", "install").code == 0  # the user file holds our hooks
    proj = tmp_path / "proj"
    (proj / "conf").mkdir(parents=True)
    monkeypatch.chdir(proj)
    target = proj / "conf" / "settings.json"
    r = invoke("hooks", "install", "--settings", str(target))
    assert r.code == 0, r.out + r.err
    assert "runs twice" not in r.out and paths.user_settings_file() not in r.out
    assert f"note: Claude Code does not read {target}" in r.out


def test_the_runs_twice_warning_stays_for_a_projects_local_file(tmp_path, monkeypatch):
    assert invoke("hooks", "install").code == 0
    proj = tmp_path / "proj"
    (proj / ".claude").mkdir(parents=True)
    monkeypatch.chdir(proj)
    r = invoke("hooks", "install", "--settings", str(proj / ".claude" / "settings.local.json"))
    assert r.code == 0 and f"warning: {paths.user_settings_file()} holds lazy-harness hooks too" in r.out


# --- hints that follow the error ---------------------------------------------------------------------

def deny_open(monkeypatch, path) -> None:
    """``open(path)`` and ``os.open(path)`` fail with EACCES, as for a mode-000 file without root's override."""
    real, real_os = builtins.open, os.open

    def fake(file, *args, **kwargs):
        if isinstance(file, (str, os.PathLike)) and os.fspath(file) == str(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(file, *args, **kwargs)

    def fake_os(file, flags, mode=0o777, *, dir_fd=None):
        if dir_fd is None and isinstance(file, (str, os.PathLike)) and os.fspath(file) == str(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_os(file, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(builtins, "open", fake)
    monkeypatch.setattr(os, "open", fake_os)


def deny_os_open(monkeypatch, name: str) -> None:
    """``os.open(name, ..., dir_fd=...)`` (how config.toml is opened) fails with EACCES."""
    real = os.open

    def fake(path, flags, mode=0o777, *, dir_fd=None):
        if dir_fd is not None and path == name:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", fake)


def doctor_line(out: str, check: str) -> str:
    [line] = [ln for ln in out.splitlines() if ln[6:].startswith(f"{check}:")]
    return line


def test_doctor_hint_for_an_unreadable_settings_file_is_chmod_not_fix_the_json(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = paths.user_settings_file()
    os.makedirs(os.path.dirname(target))
    with open(target, "w") as fh:
        fh.write("{}")
    deny_open(monkeypatch, target)
    line = doctor_line(invoke("doctor").out, "hooks")
    assert "Permission denied" in line and "fix the JSON" not in line
    assert line.endswith(f"(hint: chmod u+rw {target})")


def test_install_hint_for_an_unreadable_settings_file_is_chmod(monkeypatch):
    target = paths.user_settings_file()
    os.makedirs(os.path.dirname(target))
    with open(target, "w") as fh:
        fh.write("{}")
    deny_open(monkeypatch, target)
    r = invoke("hooks", "install")
    refused_in_one_line(r, target)
    assert f"(hint: chmod u+rw {target})" in r.err


def test_doctor_hint_for_a_settings_file_that_is_a_folder_is_to_move_it_aside(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = paths.user_settings_file()
    os.makedirs(target)
    line = doctor_line(invoke("doctor").out, "hooks")
    assert "fix the JSON" not in line and "chmod" not in line
    assert f"(hint: move {target} aside" in line


def test_doctor_hint_for_a_settings_file_that_does_not_parse_still_says_fix_the_json(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = paths.user_settings_file()
    os.makedirs(os.path.dirname(target))
    with open(target, "w") as fh:
        fh.write('{"a":\n')
    assert doctor_line(invoke("doctor").out, "hooks").endswith(f"(hint: fix the JSON in {target})")


def write_config(text: str = "[compound_loop]\nenabled = true\n") -> str:
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)
    return path


def test_an_unreadable_config_toml_gets_chmod_600_not_700(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write_config()
    deny_os_open(monkeypatch, os.path.basename(path))
    r = invoke("doctor")
    for check in ("config", "config file"):
        line = doctor_line(r.out, check)
        assert "Permission denied" in line and line.endswith(f"(hint: chmod 600 {path})"), line
    r = invoke("memory", "show")
    refused_in_one_line(r, path)
    assert r.err.rstrip().endswith(f"(hint: chmod 600 {path})") and "chmod 700" not in r.err


def test_a_config_toml_that_is_a_folder_is_moved_aside_and_written_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = paths.config_file()
    os.makedirs(path, mode=0o700)
    r = invoke("doctor")
    for check in ("config", "config file"):
        line = doctor_line(r.out, check)
        assert "not a regular file" in line and "chmod" not in line, line
        assert f"(hint: move {path} aside, then lh config init writes a new one)" in line
    r = invoke("hooks", "install")
    refused_in_one_line(r, path)
    assert "chmod" not in r.err and "lh config init" in r.err


def test_the_folder_holding_config_toml_unopenable_gets_chmod_on_that_folder():
    folder = "/x/lazy-harness"
    why = f"{folder} cannot be opened as a folder (Permission denied)"
    assert private.fix(f"{folder}/config.toml", why) == f"chmod 700 {folder}"


def test_a_private_folder_keeps_its_chmod_700_hint(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir(mode=0o700)
    assert private.fix(str(folder), f"{folder} cannot be looked at (Permission denied)") == f"chmod 700 {folder}"
