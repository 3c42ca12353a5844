"""config.toml is checked on the descriptor it is read from (private.open_config, config.load_fast):
another local user who swaps a file of theirs in between the hook's check and its read gets neither
their values used nor a snapshot that keeps them (ADR 0031). The swap is made deterministic: done
from inside the call numbered ``step`` (every step in turn) by the test, as their ``renameat2`` would."""

import os

import pytest

from lazy_harness import config, paths, private
from tests.support.as_person import as_root, not_the_persons
from tests.support.swap_at import SwapAt

NOBODY = 65534
OURS = b"[recall]\nmax_items = 7\n"
THEIRS = b"[recall]\nmax_items = 1\n"  # the same size, and given the same mtime: only the inode differs
CALLS = ("open", "lstat", "stat", "fstat", "readlink")


def _write(path: str, data: bytes, owner: int | None = None, mode: int = 0o600) -> None:
    """``owner``: not the person's (another user's as root, else open to others' writes: ``not_the_persons``)."""
    with open(path, "wb") as fh:
        fh.write(data)
    os.chmod(path, mode)
    if owner is not None:
        not_the_persons(path, mode)


def _exchange(a: str, b: str) -> None:
    os.rename(a, a + ".x")
    os.rename(b, a)
    os.rename(a + ".x", b)


def test_a_config_swapped_at_any_step_is_neither_used_nor_kept(tmp_path, monkeypatch):
    folder = tmp_path / "conf"
    folder.mkdir(mode=0o700)
    path, evil = str(folder / "config.toml"), str(folder / "evil.toml")
    monkeypatch.setenv("LH_CONFIG", path)
    _write(path, OURS)
    for step in range(40):
        _write(evil, THEIRS, NOBODY, 0o644)
        st = os.stat(path)
        os.utime(evil, ns=(st.st_atime_ns, st.st_mtime_ns))
        with monkeypatch.context() as m:
            swap = SwapAt(m, step, lambda: _exchange(path, evil), CALLS, builtin_open=True)
            why = private.first_problem()  # what the hook does first, then what it reads
            values = config.load_fast()
        if why is None and config.invalid(values) is None:
            assert values["recall"]["max_items"] == 7, f"the other user's config used at step {step}"
        if swap.swapped:
            _exchange(path, evil)
        assert config.load_fast()["recall"]["max_items"] == 7, f"the other user's config kept at step {step}"
        os.unlink(evil)
        if not swap.swapped:
            break
    assert step > 3


def test_load_fast_refuses_another_users_file_by_itself(tmp_path, monkeypatch):
    """Swapped in after the hook's first check: load_fast's own fstat refuses it, writes no snapshot."""
    folder = tmp_path / "conf"
    folder.mkdir(mode=0o700)
    path = str(folder / "config.toml")
    monkeypatch.setenv("LH_CONFIG", path)
    with open(path, "wb") as fh:
        fh.write(THEIRS)
    said = not_the_persons(path, 0o644)
    values = config.load_fast()
    assert said in (config.invalid(values) or "")
    assert values["recall"]["max_items"] == 5
    assert not os.path.exists(os.path.join(paths.state_dir(), "config.json"))


def test_the_snapshot_is_stamped_with_the_files_identity(tmp_path, monkeypatch):
    """Another file of the same size and mtime (renamed over it) is read again."""
    folder = tmp_path / "conf"
    folder.mkdir(mode=0o700)
    path = str(folder / "config.toml")
    monkeypatch.setenv("LH_CONFIG", path)
    _write(path, OURS)
    assert config.load_fast()["recall"]["max_items"] == 7
    st = os.stat(path)
    _write(path + ".new", THEIRS)
    os.utime(path + ".new", ns=(st.st_atime_ns, st.st_mtime_ns))
    os.rename(path + ".new", path)
    assert config.load_fast()["recall"]["max_items"] == 1


@pytest.mark.parametrize("owner, mode, usable", [
    pytest.param(NOBODY, 0o755, False, marks=as_root),  # their folder: they rename what is in it
    (0, 0o777, False),
    (0, 0o770, False),
    (0, 0o1777, True),  # sticky: only the owner of an entry renames it
    (0, 0o755, True),
])
def test_the_folder_holding_the_config_is_checked_even_with_lh_config(tmp_path, monkeypatch, owner, mode, usable):
    folder = tmp_path / "shared"
    folder.mkdir()
    path = str(folder / "config.toml")
    _write(path, OURS)
    os.chown(folder, owner or os.geteuid(), owner or os.getegid())
    os.chmod(folder, mode)
    monkeypatch.setenv("LH_CONFIG", path)
    why = private.config_problem()
    assert (why is None) is usable, why
    values = config.load_fast()
    assert (config.invalid(values) is None) is usable
    assert values["recall"]["max_items"] == (7 if usable else 5)
    assert (private.first_problem() is None) is usable
    if not usable:
        assert str(folder) in why
        assert [what for what, _, _ in private.unsafe()] == ["config file"]


def test_a_config_kept_as_a_link_is_read_when_its_target_is_safe(tmp_path, monkeypatch):
    """A config kept with the user's dotfiles is a link: followed, each hop checked as the first."""
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir(mode=0o700)
    _write(str(dotfiles / "lh.toml"), OURS)
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), mode=0o700)
    os.symlink(str(dotfiles / "lh.toml"), path)
    assert private.config_problem() is None
    assert config.load_fast()["recall"]["max_items"] == 7
    # a link into a folder another user owns is not followed
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    _write(str(theirs / "lh.toml"), OURS)
    not_the_persons(str(theirs), 0o755)
    os.unlink(path)
    os.symlink(str(theirs / "lh.toml"), path)
    assert str(theirs) in (private.config_problem() or "")
    assert config.invalid(config.load_fast()) is not None


def test_a_missing_config_is_the_defaults_and_no_problem(tmp_path, monkeypatch):
    monkeypatch.setenv("LH_CONFIG", str(tmp_path / "nothing" / "config.toml"))
    assert private.config_problem() is None
    assert config.load_fast()["recall"]["max_items"] == 5
    monkeypatch.setenv("LH_CONFIG", str(tmp_path / "config.toml"))
    assert private.config_problem() is None and config.invalid(config.load_fast()) is None


def test_the_full_load_of_the_cli_and_the_worker_refuses_a_config_others_may_write(isolated_home):
    """``config.load`` (the worker, lh distill, lh sync) read config.toml by path with no owner check:
    a ``claude_path`` another user wrote there would be run."""
    from lazy_harness.errors import ConfigError

    path = paths.config_file()
    os.makedirs(os.path.dirname(path), mode=0o700)
    with open(path, "w") as fh:
        fh.write('[compound_loop]\nclaude_path = "/tmp/not-claude"\n')
    os.chmod(path, 0o666)
    with pytest.raises(ConfigError) as got:
        config.load()
    assert "open to group or others" in got.value.message
    os.chmod(path, 0o600)
    assert config.load()["compound_loop"]["claude_path"] == "/tmp/not-claude"
