"""settings.py: registering our hooks in a Claude Code settings.json without disturbing anything else."""

import json
import os
import shlex
import stat
import time

import pytest

from lazy_harness import settings, settings_read
from lazy_harness.errors import SettingsError

PY = "/usr/bin/python3"

# A file in Claude Code's own style (indent 2, keys in its order) with foreign keys and hooks.
FOREIGN = {
    "model": "opus",
    "env": {"ANTHROPIC_BASE_URL": "http://127.0.0.1:9"},
    "permissions": {"allow": ["Bash(ls:*)"], "deny": []},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}],
        "Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "notify-send done", "timeout": 3}]}],
    },
    "statusLine": {"type": "command", "command": "~/bin/status"},
}


def write_json(path, data, indent=2, newline="\n"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=indent, ensure_ascii=False) + newline, encoding="utf-8")
    return path


def our_commands(data):
    return {o.event: o.command for o in settings.find_ours(data)}


def test_command_is_the_python_without_site_then_the_launcher_then_the_event():
    argv = shlex.split(settings.command_for("Stop", PY, parent="/opt/venv/lib/python3.11/site-packages"))
    assert argv[:4] == [PY, "-I", "-S", "-c"] and argv[5:] == ["Stop", "||", "exit", "0"]
    assert argv[4] == ('import sys; sys.path.append("/opt/venv/lib/python3.11/site-packages")\n'
                       "try: from lazy_harness.hooks.launch import run; run()\n"
                       "except Exception: raise SystemExit(0)")


def test_the_launcher_runs_the_hook_from_another_folder_with_a_module_named_like_ours(tmp_path):
    """What Claude Code does: the command through a shell, in the project folder. A project file
    named like a module the hook imports is not picked up (-I), and no site is loaded (-S)."""
    import subprocess
    import sys

    project = tmp_path / "project"
    (project / "lazy_harness").mkdir(parents=True)
    (project / "lazy_harness" / "__init__.py").write_text("raise SystemExit('the project shadowed lazy_harness')\n")
    (project / "fcntl.py").write_text("raise SystemExit('the project shadowed fcntl')\n")
    home = tmp_path / "home"
    command = settings.command_for("UserPromptSubmit", sys.executable)
    p = subprocess.run(["sh", "-c", command], cwd=project, input=b'{"session_id": "s1", "prompt": "hi"}',
                       capture_output=True, env={"HOME": str(home), "PATH": os.environ.get("PATH", "")}, timeout=60)
    assert p.returncode == 0 and p.stdout == b"" and p.stderr == b"", p
    log = (home / ".claude" / "logs" / "hooks.log").read_text()
    assert "UserPromptSubmit session=s1 skipped: prompt under 20 characters" in log


def test_python_path_with_spaces_is_quoted_so_shlex_gives_it_back(tmp_path):
    py = "/opt/my tools/venv x/bin/python3"
    target = tmp_path / "settings.json"
    settings.install(str(target), python=py)
    data = json.loads(target.read_text())
    for o in settings.find_ours(data):
        argv = shlex.split(o.command)
        assert argv[0] == py and argv[-4:] == [o.event, "||", "exit", "0"] and settings.RUN in argv[-5]


def test_the_older_module_form_is_ours_and_replaced_at_install(tmp_path):
    target = write_json(tmp_path / "settings.json", {"hooks": {"Stop": [{"matcher": "", "hooks": [
        {"type": "command", "command": f"{PY} -m lazy_harness.hooks Stop", "timeout": 10}]}]}})
    settings.install(str(target), python=PY)
    commands = [h["command"] for g in json.loads(target.read_text())["hooks"]["Stop"] for h in g["hooks"]]
    assert commands == [settings.command_for("Stop", PY)]


def test_the_launcher_before_the_bundle_is_ours_and_replaced_at_install(tmp_path):
    """Installs of earlier versions registered ``hooks.entry``'s run; a reinstall moves them to the
    launcher that loads the hooks' bundle (hotload.py), one entry per event, never two."""
    old = settings.command_for("Stop", PY).replace(settings.RUN, settings.RUN_BEFORE)
    assert settings.RUN_BEFORE in old and settings.RUN not in old
    target = write_json(tmp_path / "settings.json", {"hooks": {"Stop": [{"matcher": "", "hooks": [
        {"type": "command", "command": old, "timeout": 10}]}]}})
    settings.install(str(target), python=PY)
    commands = [h["command"] for g in json.loads(target.read_text())["hooks"]["Stop"] for h in g["hooks"]]
    assert commands == [settings.command_for("Stop", PY)]


def test_default_python_is_the_running_interpreter(tmp_path):
    import sys

    target = tmp_path / "settings.json"
    settings.install(str(target))
    cmds = our_commands(json.loads(target.read_text()))
    assert shlex.split(cmds["Stop"])[0] == sys.executable


def test_creates_file_and_folder_private(tmp_path):
    target = tmp_path / "new" / ".claude" / "settings.json"
    change = settings.install(str(target), python=PY)
    assert change.action == "created"
    assert change.backup is None
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert stat.S_IMODE(target.parent.stat().st_mode) == 0o700
    data = json.loads(target.read_text())
    assert list(data) == ["hooks"]
    assert data["hooks"]["Stop"] == [{"matcher": "", "hooks": [
        {"type": "command", "command": settings.command_for("Stop", PY), "timeout": 10}]}]
    timeouts = {o.event: o.timeout for o in settings.find_ours(data)}
    assert timeouts == {"SessionStart": 10, "Stop": 10, "SessionEnd": 5, "UserPromptSubmit": 5}
    assert target.read_text().endswith("}\n")


def test_keeps_foreign_keys_and_hooks_and_adds_own_group(tmp_path):
    target = write_json(tmp_path / "settings.json", FOREIGN)
    settings.install(str(target), python=PY)
    data = json.loads(target.read_text())
    assert list(data) == list(FOREIGN)  # key order kept
    for key in ("model", "env", "permissions", "statusLine"):
        assert data[key] == FOREIGN[key]
    assert data["hooks"]["PreToolUse"] == FOREIGN["hooks"]["PreToolUse"]
    stop = data["hooks"]["Stop"]
    assert stop[0] == FOREIGN["hooks"]["Stop"][0]  # the foreign group first, untouched
    assert stop[1] == {"matcher": "", "hooks": [
        {"type": "command", "command": settings.command_for("Stop", PY), "timeout": 10}]}
    assert list(data["hooks"]) == ["PreToolUse", "Stop", "SessionStart", "SessionEnd", "UserPromptSubmit"]


def test_null_matcher_is_left_as_is_and_reported(tmp_path):
    original = {"hooks": {"Stop": [{"matcher": None, "hooks": [{"type": "command", "command": "x.sh"}]}]}}
    target = write_json(tmp_path / "settings.json", original)
    change = settings.install(str(target), python=PY)
    data = json.loads(target.read_text())
    assert data["hooks"]["Stop"][0] == original["hooks"]["Stop"][0]
    assert data["hooks"]["Stop"][0]["matcher"] is None
    assert any("null" in w and "hooks.Stop[0]" in w for w in change.warnings)
    settings.uninstall(str(target))
    assert json.loads(target.read_text()) == original


def test_second_install_changes_nothing_byte_for_byte(tmp_path):
    target = write_json(tmp_path / "settings.json", FOREIGN)
    first = settings.install(str(target), python=PY)
    assert first.action == "updated"
    before = target.read_bytes()
    mtime = target.stat().st_mtime_ns
    second = settings.install(str(target), python=PY)
    assert second.action == "unchanged"
    assert target.read_bytes() == before
    assert target.stat().st_mtime_ns == mtime
    assert sorted(second.events) == ["SessionEnd", "SessionStart", "Stop", "UserPromptSubmit"]


def test_reinstall_from_another_interpreter_replaces_never_duplicates(tmp_path):
    target = write_json(tmp_path / "settings.json", FOREIGN)
    settings.install(str(target), python="/old/venv/bin/python")
    settings.install(str(target), python=PY)
    data = json.loads(target.read_text())
    ours = settings.find_ours(data)
    assert len(ours) == len(settings.EVENTS)
    assert all(shlex.split(o.command)[0] == PY for o in ours)
    assert len(data["hooks"]["Stop"]) == 2  # the foreign group and ours


def test_duplicates_of_ours_collapse_to_one(tmp_path):
    cmd = f"{PY} -m lazy_harness.hooks Stop"
    dup = {"hooks": {"Stop": [
        {"matcher": "", "hooks": [{"type": "command", "command": cmd, "timeout": 10}]},
        {"matcher": "", "hooks": [{"type": "command", "command": "/x/python -m lazy_harness.hooks Stop"}]},
    ]}}
    target = write_json(tmp_path / "settings.json", dup)
    settings.install(str(target), python=PY)
    data = json.loads(target.read_text())
    assert [o.event for o in settings.find_ours(data)].count("Stop") == 1
    assert len(data["hooks"]["Stop"]) == 1


def test_only_requested_events_stay_registered(tmp_path):
    target = tmp_path / "settings.json"
    settings.install(str(target), python=PY)
    settings.install(str(target), events={"Stop": 10}, python=PY)
    data = json.loads(target.read_text())
    assert [o.event for o in settings.find_ours(data)] == ["Stop"]
    assert list(data["hooks"]) == ["Stop"]


def test_backup_of_the_original_before_the_first_change(tmp_path):
    target = write_json(tmp_path / "settings.json", FOREIGN)
    original = target.read_bytes()
    change = settings.install(str(target), python=PY)
    assert change.backup == str(target) + ".lh-backup"
    assert open(change.backup, "rb").read() == original
    assert stat.S_IMODE(os.stat(change.backup).st_mode) == 0o600
    # a later change of a different file keeps the first backup and writes a dated one
    settings.uninstall(str(target))
    data = json.loads(target.read_text())
    data["model"] = "sonnet"
    write_json(target, data)
    again = settings.install(str(target), python=PY)
    assert again.backup != change.backup and again.backup.startswith(change.backup + ".")
    assert open(change.backup, "rb").read() == original


@pytest.mark.parametrize("indent,newline", [(2, "\n"), (2, ""), (4, "\n"), ("\t", "\n")])
def test_install_then_uninstall_gives_back_the_original_bytes(tmp_path, indent, newline):
    target = write_json(tmp_path / "settings.json", FOREIGN, indent=indent, newline=newline)
    original = target.read_bytes()
    settings.install(str(target), python=PY)
    assert target.read_bytes() != original
    change = settings.uninstall(str(target))
    assert change.action == "updated"
    assert sorted(change.events) == ["SessionEnd", "SessionStart", "Stop", "UserPromptSubmit"]
    assert target.read_bytes() == original


def test_uninstall_round_trip_of_an_oddly_formatted_file_is_equal_when_parsed(tmp_path):
    target = tmp_path / "settings.json"
    target.write_text('{"model":"opus",  "hooks" : {"Stop":[{"hooks": []}]},\n"x": [1,2]}')
    settings.install(str(target), python=PY)
    settings.uninstall(str(target))
    assert json.loads(target.read_text()) == {"model": "opus", "hooks": {"Stop": [{"hooks": []}]}, "x": [1, 2]}


def test_uninstall_keeps_empty_foreign_groups(tmp_path):
    original = {"hooks": {"SessionEnd": [{"matcher": "", "hooks": []}, {"matcher": "x", "hooks": []}]}}
    target = write_json(tmp_path / "settings.json", original)
    settings.install(str(target), python=PY)
    settings.uninstall(str(target))
    assert json.loads(target.read_text()) == original


def test_an_event_list_that_was_already_empty_comes_back_from_the_backup(tmp_path):
    # why: parsed, an empty list we filled and one we created are the same; install's backup tells
    # them apart (docs/adr/0058), so the person's empty list stays
    target = write_json(tmp_path / "settings.json", {"model": "opus", "hooks": {"Stop": []}})
    settings.install(str(target), python=PY)
    settings.uninstall(str(target))
    assert json.loads(target.read_text()) == {"model": "opus", "hooks": {"Stop": []}}


def test_without_a_backup_an_event_list_left_empty_goes_with_ours(tmp_path):
    target = write_json(tmp_path / "settings.json", {"model": "opus", "hooks": {"Stop": []}})
    settings.install(str(target), python=PY)
    for backup in tmp_path.glob("settings.json.lh-backup*"):
        backup.unlink()
    settings.uninstall(str(target))
    assert json.loads(target.read_text()) == {"model": "opus"}


def test_uninstall_removes_ours_from_a_shared_group_and_keeps_the_rest(tmp_path):
    mixed = {"hooks": {"Stop": [{"matcher": "", "hooks": [
        {"type": "command", "command": "notify.sh"},
        {"type": "command", "command": "'/a b/python' -m lazy_harness.hooks Stop", "timeout": 10},
    ]}]}}
    target = write_json(tmp_path / "settings.json", mixed)
    settings.uninstall(str(target))
    assert json.loads(target.read_text()) == {"hooks": {"Stop": [{"matcher": "", "hooks": [
        {"type": "command", "command": "notify.sh"}]}]}}


def test_uninstall_of_a_file_we_created_deletes_it(tmp_path):
    target = tmp_path / ".claude" / "settings.json"
    settings.install(str(target), python=PY)
    change = settings.uninstall(str(target))
    assert change.action == "deleted"
    assert not target.exists()


def test_uninstall_without_ours_or_without_file_changes_nothing(tmp_path):
    target = write_json(tmp_path / "settings.json", FOREIGN)
    before = target.read_bytes()
    assert settings.uninstall(str(target)).action == "unchanged"
    assert target.read_bytes() == before
    assert settings.uninstall(str(tmp_path / "none.json")).action == "missing"
    assert not (tmp_path / "none.json").exists()


def test_similar_foreign_command_is_not_ours():
    data = {"hooks": {"Stop": [{"matcher": "", "hooks": [
        {"type": "command", "command": "python -m lazy_harness.hooksmith Stop"},
        {"type": "command", "command": "echo lazy_harness.hooks"},
    ]}]}}
    assert settings.find_ours(data) == []


@pytest.mark.parametrize("content", [b'{"model": "opus",', b"not json", b'{"a": 1} trailing'])
def test_invalid_json_is_refused_and_left_untouched(tmp_path, content):
    (tmp_path / "c").mkdir()
    target = tmp_path / "c" / "settings.json"
    target.write_bytes(content)
    with pytest.raises(SettingsError) as info:
        settings.install(str(target), python=PY)
    message = str(info.value)
    assert str(target) in message and "JSON" in message
    assert "\n" not in message
    assert target.read_bytes() == content
    assert os.listdir(target.parent) == ["settings.json"]  # no backup, no temp file  # no temp file left behind
    with pytest.raises(SettingsError):
        settings.uninstall(str(target))
    assert target.read_bytes() == content


@pytest.mark.parametrize("content", [b"", b"\n", b"  \n\t\n"])
def test_an_empty_file_reads_as_an_empty_object(tmp_path, content):
    target = tmp_path / "settings.json"
    target.write_bytes(content)
    assert settings_read.read(str(target)) == ({}, content)


@pytest.mark.parametrize("content", [b"", b"\n"])
def test_install_on_an_empty_file_then_uninstall_gives_it_back(tmp_path, content):
    target = tmp_path / "settings.json"
    target.write_bytes(content)
    then = time.time() - 60  # why: made a minute ago (a file emptied just now waits to be written)
    os.utime(target, (then, then))
    change = settings.install(str(target), python=PY)
    assert change.action == "updated"
    assert set(our_commands(json.loads(target.read_text()))) == set(settings.EVENTS)
    assert target.read_text().startswith('{\n  "hooks"')  # Claude Code's indent 2 for a file with no style
    assert open(change.backup, "rb").read() == content
    assert settings.uninstall(str(target)).action == "updated"
    assert target.read_bytes() == content


def test_uninstall_writes_the_original_bytes_back_only_when_they_read_the_same(tmp_path):
    target = tmp_path / "settings.json"
    target.write_text('{"model":"opus",  "x": [1,2]}')  # a style render() cannot reproduce
    settings.install(str(target), python=PY)
    settings.uninstall(str(target))
    assert target.read_text() == '{"model":"opus",  "x": [1,2]}'
    settings.install(str(target), python=PY)
    edited = json.loads(target.read_text())
    edited["theme"] = "dark"  # the user changed the file after install: it is kept, in our rendering
    write_json(target, edited)
    settings.uninstall(str(target))
    assert json.loads(target.read_text()) == {"model": "opus", "x": [1, 2], "theme": "dark"}


def test_portable_command_names_no_path_of_this_machine(tmp_path):
    target = tmp_path / "project" / ".claude" / "settings.json"
    change = settings.install(str(target), python=PY, portable=True)
    assert change.action == "created"
    data = json.loads(target.read_text())
    assert our_commands(data) == {e: f"lh-hook {e} || exit 0" for e in settings.EVENTS}
    assert str(tmp_path) not in target.read_text() and PY not in target.read_text()


def test_switching_between_forms_replaces_never_duplicates(tmp_path):
    target = write_json(tmp_path / "settings.json", FOREIGN)
    settings.install(str(target), python=PY)
    settings.install(str(target), portable=True)
    data = json.loads(target.read_text())
    assert our_commands(data) == {e: f"lh-hook {e} || exit 0" for e in settings.EVENTS}
    assert len(settings.find_ours(data)) == len(settings.EVENTS)
    settings.install(str(target), python=PY)
    assert our_commands(json.loads(target.read_text())) == {e: settings.command_for(e, PY) for e in settings.EVENTS}
    settings.uninstall(str(target))
    assert json.loads(target.read_text()) == FOREIGN


@pytest.mark.parametrize("command,ours", [
    ("lh-hook Stop", True),
    ("/home/u/.local/bin/lh-hook SessionEnd", True),
    ("my-lh-hook Stop", False),
    ("echo lh-hook Stop", False),
    ("lh-hooks Stop", False),
])
def test_the_console_script_form_is_recognised_as_ours(command, ours):
    assert settings.is_ours({"type": "command", "command": command}) is ours


@pytest.mark.parametrize("content", [b"[]\n", b'"text"\n', b"null\n", b'{"hooks": []}\n'])
def test_non_object_top_level_or_hooks_is_refused(tmp_path, content):
    target = tmp_path / "settings.json"
    target.write_bytes(content)
    with pytest.raises(SettingsError) as info:
        settings.install(str(target), python=PY)
    assert str(target) in str(info.value)
    assert target.read_bytes() == content


def test_existing_file_mode_is_preserved(tmp_path):
    target = write_json(tmp_path / "settings.json", FOREIGN)
    os.chmod(target, 0o664)
    settings.install(str(target), python=PY)
    assert stat.S_IMODE(target.stat().st_mode) == 0o664


def test_a_symlinked_settings_file_stays_a_symlink(tmp_path):
    real = write_json(tmp_path / "dotfiles" / "settings.json", FOREIGN)
    link = tmp_path / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(real)
    settings.install(str(link), python=PY)
    assert link.is_symlink()
    assert len(settings.find_ours(json.loads(real.read_text()))) == len(settings.EVENTS)


def test_non_ascii_text_is_written_as_is(tmp_path):
    target = write_json(tmp_path / "settings.json", {"model": "opus", "note": "café ✓"})
    original = target.read_bytes()
    settings.install(str(target), python=PY)
    assert "café ✓" in target.read_text(encoding="utf-8")
    settings.uninstall(str(target))
    assert target.read_bytes() == original


def test_project_local_settings_file(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    target = project / ".claude" / "settings.local.json"
    change = settings.install(str(target), python=PY)
    assert change.action == "created"
    assert len(settings.find_ours(json.loads(target.read_text()))) == len(settings.EVENTS)


def test_uninstall_leaves_a_symlink_in_place_even_when_empty(tmp_path):
    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    link = tmp_path / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(real)
    settings.install(str(link), python=PY)
    assert real.exists() and link.is_symlink()
    assert settings.uninstall(str(link)).action == "updated"
    assert link.is_symlink() and json.loads(real.read_text()) == {}


def test_a_file_changed_between_read_and_write_is_not_overwritten(tmp_path, monkeypatch):
    target = write_json(tmp_path / "settings.json", FOREIGN)
    real_read = settings_read.read

    def read_then_someone_writes(path):
        out = real_read(path)
        write_json(target, {**FOREIGN, "model": "changed by Claude Code"})
        return out

    monkeypatch.setattr(settings_read, "read", read_then_someone_writes)
    with pytest.raises(SettingsError, match="changed while"):
        settings.install(str(target), python=PY)
    assert json.loads(target.read_text())["model"] == "changed by Claude Code"


def test_a_file_changed_while_our_bytes_go_to_disk_is_not_overwritten(tmp_path, monkeypatch):
    """Claude Code saves the file while ours is being written and synced, after the first look: the
    second look, just before the rename, refuses."""
    from lazy_harness import atomic

    target = write_json(tmp_path / "settings.json", FOREIGN)
    real_fsync, done = os.fsync, []

    def fsync_then_someone_writes(fd):
        real_fsync(fd)
        if not done and os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp") and "settings.json." in os.readlink(
                f"/proc/self/fd/{fd}") and "lh-backup" not in os.readlink(f"/proc/self/fd/{fd}"):
            done.append(fd)
            write_json(target, {**FOREIGN, "model": "changed by Claude Code"})

    monkeypatch.setattr(atomic.os, "fsync", fsync_then_someone_writes)
    with pytest.raises(SettingsError, match="changed while"):
        settings.install(str(target), python=PY)
    assert done and json.loads(target.read_text())["model"] == "changed by Claude Code"
    assert [n for n in os.listdir(tmp_path) if n.endswith(".tmp")] == []


def test_uninstall_never_deletes_a_file_changed_since_it_was_read(tmp_path, monkeypatch):
    """Only our entries were left, so uninstall would delete the file; Claude Code writes it between
    the read and the delete: refused, and its edit stays."""
    target = tmp_path / ".claude" / "settings.json"
    settings.install(str(target), python=PY)
    real = settings._remove_ours

    def remove_then_someone_writes(data):
        out = real(data)
        write_json(target, {"model": "changed by Claude Code"})
        return out

    monkeypatch.setattr(settings, "_remove_ours", remove_then_someone_writes)
    with pytest.raises(SettingsError, match="changed while"):
        settings.uninstall(str(target))
    assert json.loads(target.read_text()) == {"model": "changed by Claude Code"}


@pytest.mark.parametrize("number", ["1e400", "-1e400", "NaN", "Infinity"])
def test_a_number_json_cannot_write_back_leaves_the_file_untouched(tmp_path, number):
    target = tmp_path / "settings.json"
    target.write_text('{"x": ' + number + ', "model": "opus"}\n')
    before = target.read_bytes()
    with pytest.raises(SettingsError, match=f"holds the number {number}, which would not be written back"):
        settings.install(str(target), python=PY)
    assert target.read_bytes() == before


def test_an_escaped_lone_surrogate_goes_back_out_as_the_same_escape(tmp_path):
    target = tmp_path / "settings.json"
    target.write_text('{"note": "x\\ud800y", "model": "opus"}\n')
    settings.install(str(target), python=PY)
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["note"] == "x\ud800y" and data["model"] == "opus" and our_commands(data)
    assert settings.uninstall(str(target)).action == "updated"
    assert json.loads(target.read_text(encoding="utf-8")) == {"note": "x\ud800y", "model": "opus"}


def test_unwritable_location_is_a_one_line_settings_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SettingsError) as info:
        settings.install(str(blocker / "settings.json"), python=PY)
    message = str(info.value)
    assert str(blocker) in message and ("cannot read" in message or "cannot write" in message)
    assert "\n" not in message


def test_a_read_only_file_is_refused_by_install_and_left_byte_for_byte(tmp_path):
    """A dotfiles user's chmod 444 says no tool edits the file: a rename over it would ignore that."""
    target = write_json(tmp_path / "c" / "settings.json", FOREIGN)
    original = target.read_bytes()
    os.chmod(target, 0o444)
    with pytest.raises(SettingsError) as info:
        settings.install(str(target), python=PY)
    assert str(info.value) == (f"{target}: read-only; left untouched "
                               f"(hint: chmod u+w {target}, then run lh hooks install again)")
    assert target.read_bytes() == original and stat.S_IMODE(target.stat().st_mode) == 0o444
    assert os.listdir(target.parent) == ["settings.json"]  # no backup either


def test_a_read_only_file_is_refused_by_uninstall_and_left_byte_for_byte(tmp_path):
    target = write_json(tmp_path / "settings.json", FOREIGN)
    settings.install(str(target), python=PY)
    installed = target.read_bytes()
    os.chmod(target, 0o444)
    with pytest.raises(SettingsError) as info:
        settings.uninstall(str(target))
    assert str(info.value) == (f"{target}: read-only; left untouched "
                               f"(hint: chmod u+w {target}, then run lh hooks uninstall again)")
    assert target.read_bytes() == installed and stat.S_IMODE(target.stat().st_mode) == 0o444


def test_a_read_only_file_lh_created_is_not_deleted_by_uninstall(tmp_path):
    target = tmp_path / "settings.json"
    settings.install(str(target), python=PY)
    os.chmod(target, 0o400)
    with pytest.raises(SettingsError, match="read-only; left untouched"):
        settings.uninstall(str(target))
    assert target.exists()


def test_a_read_only_file_that_already_holds_our_hooks_is_just_unchanged(tmp_path):
    target = write_json(tmp_path / "settings.json", FOREIGN)
    settings.install(str(target), python=PY)
    os.chmod(target, 0o444)
    assert settings.install(str(target), python=PY).action == "unchanged"


def test_reinstalls_that_change_only_our_entries_keep_one_backup(tmp_path):
    """A moved venv or a Python upgrade changes our command only: no new dated backup each time."""
    target = write_json(tmp_path / "c" / "settings.json", FOREIGN)
    original = target.read_bytes()
    first = settings.install(str(target), python="/old/venv/bin/python")
    second = settings.install(str(target), python=PY)
    third = settings.install(str(target), portable=True)
    assert first.backup == second.backup == third.backup == str(target) + ".lh-backup"
    assert sorted(os.listdir(target.parent)) == ["settings.json", "settings.json.lh-backup"]
    assert open(first.backup, "rb").read() == original


def test_a_change_of_the_persons_own_keys_still_gets_a_dated_backup_once(tmp_path):
    target = write_json(tmp_path / "c" / "settings.json", FOREIGN)
    settings.install(str(target), python="/old/venv/bin/python")
    data = json.loads(target.read_text())
    data["model"] = "sonnet"  # the person's edit, between two installs
    write_json(target, data)
    dated = settings.install(str(target), python=PY).backup
    assert dated and dated.startswith(str(target) + ".lh-backup.")
    assert settings.install(str(target), python="/new/venv/bin/python").backup in (dated, str(target) + ".lh-backup")
    assert len(os.listdir(target.parent)) == 3  # the file, the first original, the dated one
