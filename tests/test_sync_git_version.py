"""A round that must merge needs git 2.38 (``git merge-tree --write-tree``): an older git is named in
one line that says what to do, before anything is written, and `lh doctor` says so too."""

import os
import stat

import pytest

from lazy_harness.sync import repo


def _old_git(tmp_path, monkeypatch, version: str = "2.34.1") -> None:
    """``git`` on PATH that says it is ``version`` and otherwise is the real one."""
    real = next(os.path.join(d, "git") for d in os.environ["PATH"].split(os.pathsep)
                if os.access(os.path.join(d, "git"), os.X_OK))
    folder = tmp_path / "oldgit"
    folder.mkdir()
    script = folder / "git"
    script.write_text(f'#!/bin/sh\nif [ "$1" = "version" ] || [ "$1" = "--version" ]; then\n'
                      f'  echo "git version {version}"; exit 0\nfi\nexec {real} "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    repo.git_version.cache_clear()


@pytest.mark.parametrize("said,want", [("git version 2.39.5", (2, 39, 5)), ("git version 2.38.0.windows.1", (2, 38, 0)),
                                       ("git version 2.34.1", (2, 34, 1)), ("nonsense", None)])
def test_the_version_is_read_from_what_git_says(said, want):
    assert repo.parse_version(said) == want


def test_an_old_git_stops_a_merge_with_one_line_naming_the_version(tmp_path, monkeypatch):
    _old_git(tmp_path, monkeypatch)
    with pytest.raises(repo.SyncError) as err:
        repo.need_merge_tree(str(tmp_path), dict(os.environ))
    assert "2.38" in str(err.value) and "2.34.1" in str(err.value) and "\n" not in str(err.value)
    repo.git_version.cache_clear()


def test_a_recent_git_passes(tmp_path):
    repo.git_version.cache_clear()
    repo.need_merge_tree(str(tmp_path), dict(os.environ))  # this machine's git is 2.38 or later (CI's too)
    assert repo.git_version(os.environ.get("PATH", "")) >= (2, 38)


def test_doctor_warns_of_a_git_too_old_to_sync(tmp_path, monkeypatch, isolated_home):
    from lazy_harness import paths
    from tests.cli.lhrun import invoke

    cfg = paths.config_file()
    os.makedirs(os.path.dirname(cfg), exist_ok=True)
    with open(cfg, "w") as fh:
        fh.write('[sync]\nremote = "/srv/git/memory.git"\n')
    _old_git(tmp_path, monkeypatch)
    out = invoke("doctor").out
    [line] = [ln for ln in out.splitlines() if "sync" in ln and "git" in ln]
    assert line.lstrip().startswith("warn") and "2.38" in line and "2.34.1" in line, line
    repo.git_version.cache_clear()
