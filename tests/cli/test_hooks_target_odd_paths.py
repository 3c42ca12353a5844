"""Where lh hooks install and uninstall write, when the path the person gives (or their home folder)
is not what it looks like: a link into a folder that is gone, a home folder that is a repository, an
empty --settings. Each is refused in one line before anything is written; nothing else changes."""

import os
import subprocess

from lazy_harness import paths
from tests.cli.lhrun import invoke


def _tree(root) -> list[str]:
    return sorted(os.path.relpath(os.path.join(d, n), root) for d, dirs, files in os.walk(root) for n in dirs + files)


def test_a_settings_link_into_a_folder_that_is_gone_is_refused_and_no_folder_is_made(isolated_home, tmp_path,
                                                                                     monkeypatch):
    # why: the write followed the link and made its missing folders (dotfiles-old/claude/) to hold the file
    monkeypatch.chdir(tmp_path)
    user = paths.user_settings_file()
    os.makedirs(os.path.dirname(user))
    gone = isolated_home / "dotfiles-old" / "claude" / "settings.json"
    os.symlink(gone, user)
    before = _tree(isolated_home)
    outcome = invoke("hooks", "install")
    assert outcome.code == 1
    err = outcome.err.strip()
    assert len(err.splitlines()) == 1, err
    assert f"{user} is a link to {gone}, whose folder does not exist; nothing written" in err
    assert f"rm {user}" in err and f"restore {gone.parent}" in err, err
    assert _tree(isolated_home) == before and os.readlink(user) == str(gone)
    # the same link given by --settings, into a typo's folder
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    local = project / ".claude" / "settings.local.json"
    os.symlink("../../typo/deep/settings.local.json", local)
    outcome = invoke("hooks", "install", "--settings", str(local))
    assert outcome.code == 1 and "whose folder does not exist; nothing written" in outcome.err
    assert not (tmp_path / "typo").exists()


def test_a_settings_link_to_a_file_not_written_yet_in_a_folder_that_is_there_is_written(isolated_home, tmp_path,
                                                                                        monkeypatch):
    monkeypatch.chdir(tmp_path)
    user = paths.user_settings_file()
    os.makedirs(os.path.dirname(user))
    kept = isolated_home / "dotfiles" / "claude-settings.json"
    kept.parent.mkdir()
    os.symlink(kept, user)
    assert invoke("hooks", "install").code == 0
    assert os.path.islink(user) and '"UserPromptSubmit"' in kept.read_text()  # written through the link


def test_project_install_where_the_project_is_the_home_folder_leaves_the_user_file_alone(isolated_home, tmp_path,
                                                                                          monkeypatch):
    # why: a home folder under git (dotfiles) is the project of a folder below it with no repository of
    # its own; --project rewrote the user file to the portable `lh-hook` command, which failed in every
    # project where lh-hook was not on PATH
    subprocess.run(["git", "init", "-q", str(isolated_home)], check=True)
    notes = isolated_home / "notes"
    notes.mkdir()
    monkeypatch.chdir(isolated_home)
    assert invoke("hooks", "install").code == 0
    user = paths.user_settings_file()
    with open(user, "rb") as fh:
        before = fh.read()
    monkeypatch.chdir(notes)
    for command in ("install", "uninstall"):
        outcome = invoke("hooks", command, "--project")
        assert outcome.code == 1, outcome.out
        err = outcome.err.strip()
        assert len(err.splitlines()) == 1, err
        assert f"--project: {isolated_home}'s .claude/settings.json is the user settings file; nothing changed" in err
        assert f"lh hooks {command} (the user file)" in err, err
        with open(user, "rb") as fh:
            assert fh.read() == before
    assert b"lh-hook" not in before  # the user file keeps the interpreter's own command


def test_an_empty_settings_path_is_a_usage_error_not_the_user_file(isolated_home, tmp_path, monkeypatch):
    # why: ``--settings "$FILE"`` with FILE unset wrote the user file, and uninstall deleted it
    monkeypatch.chdir(tmp_path)
    user = paths.user_settings_file()
    for command in ("install", "uninstall"):
        outcome = invoke("hooks", command, "--settings", "")
        assert outcome.code == 2, outcome.out
        assert "--settings: an empty path" in outcome.err and user in outcome.err, outcome.err
        assert not os.path.lexists(user)
