"""A repository's ``.git`` read without running git (``project_identity``: the commit HEAD points at,
whether an object is there), as the SessionStart hook and the worker read it to tell one repository
from another (memory/last_key.py): a crafted ``.git`` (a tarball's, a checkout's) neither raises,
nor holds the hook, nor lets another user's files decide."""

import os

import pytest

from lazy_harness import project_identity
from lazy_harness.memory import last_key
from tests.memory.test_migrate_other_repository import repo
from tests.support.git_repos import git

OTHER_UID = 12345
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")


def indexes_opened(monkeypatch) -> list[str]:
    """The pack indexes looked in from now on, as they are opened."""
    opened: list[str] = []
    real = project_identity._in_pack_index

    def counted(path: str, wanted: bytes) -> bool:
        opened.append(path)
        return real(path, wanted)

    monkeypatch.setattr(project_identity, "_in_pack_index", counted)
    return opened


def test_a_nul_byte_in_a_git_file_is_no_repository_and_raises_nothing(tmp_path):
    """``gitdir: /x\\0y`` (or such a ``commondir``): Python refuses the path with ValueError, not
    OSError; every task of the project failed on it, and the migration at every start."""
    app = tmp_path / "app"
    app.mkdir()
    (app / ".git").write_bytes(b"gitdir: /tmp/x\x00y\n")
    assert project_identity.git_dir(str(app)) is None
    assert last_key.identity(str(app)) == ""
    last_key.remember_key(str(app), str(tmp_path / "mem" / "-app"))
    assert last_key.same_repository(str(app))
    real = repo(str(tmp_path / "real"), "real")
    worktree = str(tmp_path / "wt")
    git("worktree", "add", "-q", worktree, cwd=real)
    with open(os.path.join(project_identity.git_dir(worktree) or "", "commondir"), "wb") as fh:
        fh.write(b"../\x00x\n")
    assert project_identity.has_object(worktree, "1" * 40) is False


def test_an_alternates_file_naming_one_folder_thousands_of_times_opens_few_indexes(tmp_path, monkeypatch):
    """git skips repeated alternates; a file of 32,768 ``.`` lines beside 10 pack indexes held the
    hook for seconds per look-up (100 indexes: 26 s, past Claude Code's hook timeout)."""
    app = repo(str(tmp_path / "app"), "app")
    objects = os.path.join(app, ".git", "objects")
    os.makedirs(os.path.join(objects, "pack"), exist_ok=True)
    for n in range(10):
        with open(os.path.join(objects, "pack", f"pack-{n:040x}.idx"), "wb") as fh:
            fh.write(b"\xfftOc\x00\x00\x00\x02" + b"\x00" * 1024)
    with open(os.path.join(objects, "info", "alternates"), "w", encoding="utf-8") as fh:
        fh.write(".\n" * 32768)
    opened = indexes_opened(monkeypatch)
    assert project_identity.has_object(app, "2" * 40) is False
    assert len(opened) == 10, len(opened)  # each index once: the repeated folder is one folder


def test_past_the_cap_of_pack_indexes_it_cannot_tell_and_says_not_found(tmp_path, monkeypatch):
    app = repo(str(tmp_path / "app"), "app")
    pack = os.path.join(app, ".git", "objects", "pack")
    os.makedirs(pack, exist_ok=True)
    for n in range(project_identity.MAX_PACK_INDEXES + 20):
        with open(os.path.join(pack, f"pack-{n:040x}.idx"), "wb") as fh:
            fh.write(b"\xfftOc\x00\x00\x00\x02" + b"\x00" * 1024)
    opened = indexes_opened(monkeypatch)
    assert project_identity.has_object(app, "3" * 40) is False
    assert len(opened) == project_identity.MAX_PACK_INDEXES


@as_root
def test_another_users_git_folder_and_loose_object_decide_nothing(tmp_path):
    """Our ``.git`` file names a git folder another user owns, where that user planted an empty file
    named like the recorded commit: no repository of ours, and no object found."""
    app = repo(str(tmp_path / "app"), "app")
    first = project_identity.head_commit(app) or ""
    assert first and project_identity.has_object(app, first)
    theirs = tmp_path / "theirs.git"
    os.rename(os.path.join(app, ".git"), theirs)
    with open(os.path.join(app, ".git"), "w", encoding="utf-8") as fh:
        fh.write(f"gitdir: {theirs}\n")
    assert project_identity.git_dir(app) == str(theirs)
    for folder, dirs, files in os.walk(theirs):
        for name in dirs + files:
            os.lchown(os.path.join(folder, name), OTHER_UID, OTHER_UID)
    os.lchown(theirs, OTHER_UID, OTHER_UID)
    assert project_identity.git_dir(app) is None
    assert not project_identity.has_object(app, first)
    mine = repo(str(tmp_path / "mine"), "mine")
    planted = os.path.join(mine, ".git", "objects", "ab", "c" * 38)
    os.makedirs(os.path.dirname(planted), exist_ok=True)
    open(planted, "w").close()
    os.lchown(planted, OTHER_UID, OTHER_UID)
    assert not project_identity.has_object(mine, "ab" + "c" * 38)


def test_a_fifo_is_looked_at_before_it_is_opened(tmp_path, monkeypatch):
    """Opening a FIFO wakes a writer waiting on it (and a device may act on an open): a HEAD that is a
    FIFO is never opened."""
    app = repo(str(tmp_path / "app"), "app")
    head = os.path.join(app, ".git", "HEAD")
    os.unlink(head)
    os.mkfifo(head)
    opened = []
    real = os.open
    monkeypatch.setattr(os, "open", lambda path, *a, **k: opened.append(str(path)) or real(path, *a, **k))
    assert project_identity.head_commit(app) is None
    assert head not in opened, opened


def test_every_commit_is_found_in_a_repository_of_many_packs(tmp_path):
    """A repository that never repacks into one (``gc.auto 0``) keeps a pack per fetch or repack:
    past the first cap (64) an origin change was read as another repository's."""
    app = repo(str(tmp_path / "app"), "app")
    git("config", "gc.auto", "0", cwd=app)
    commits = []
    for n in range(80):
        with open(os.path.join(app, f"f{n}"), "w", encoding="utf-8") as fh:
            fh.write(str(n))
        git("add", ".", cwd=app)
        git("commit", "-q", "-m", f"c{n}", cwd=app)
        git("repack", "-q", "-d", cwd=app)
        commits.append(project_identity.head_commit(app))
    packs = os.listdir(os.path.join(app, ".git", "objects", "pack"))
    assert sum(n.endswith(".idx") for n in packs) >= 80
    assert all(project_identity.has_object(app, c or "") for c in commits)
