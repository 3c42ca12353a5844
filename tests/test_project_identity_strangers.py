"""A repository another local user made is not ours to take a project's identity from: git itself
refuses it ("dubious ownership"), and its origin could name one of this person's projects, whose
memory SessionStart would then read into a session there. A file planted where a ``.git`` file is
read (a FIFO) never makes a hook wait."""

import os
import threading

import pytest

from lazy_harness import paths, project_identity as identity
from tests.support.git_repos import git

OTHER_UID = 12345
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")


def _give_away(top) -> None:
    for folder, dirs, files in os.walk(top):
        for name in dirs + files:
            os.lchown(os.path.join(folder, name), OTHER_UID, OTHER_UID)
    os.lchown(top, OTHER_UID, OTHER_UID)


def _repo(path, origin: str):
    path.mkdir(parents=True)
    git("init", "-q", cwd=path)
    git("remote", "add", "origin", origin, cwd=path)
    return path


@as_root
def test_another_users_repository_cannot_claim_a_projects_key(tmp_path):
    mine = _repo(tmp_path / "secret", "https://github.com/victim/secret")
    theirs = _repo(tmp_path / "shared" / "evil", "https://github.com/victim/secret")
    assert paths.memory_key(str(theirs)) == paths.memory_key(str(mine))  # before: the claim works
    _give_away(theirs / ".git")
    assert identity.project_root(str(theirs)) == str(theirs)
    assert identity.origin(str(theirs)) is None
    assert paths.memory_key(str(theirs)) == paths.project_key(str(theirs)) != paths.memory_key(str(mine))
    assert identity.git_branch(str(theirs)) is None


@as_root
def test_a_folder_of_mine_under_another_users_repository_is_its_own_project(tmp_path):
    shared = _repo(tmp_path / "shared", "https://github.com/victim/secret")
    _give_away(shared / ".git")
    mywork = shared / "mywork"
    mywork.mkdir()
    assert identity.project_root(str(mywork)) == str(mywork)
    assert paths.memory_key(str(mywork)) == paths.project_key(str(mywork))


@as_root
def test_a_config_file_of_another_user_in_my_repository_is_not_read(tmp_path):
    mine = _repo(tmp_path / "mine", "https://github.com/victim/secret")
    os.lchown(mine / ".git" / "config", OTHER_UID, OTHER_UID)
    assert identity.origin(str(mine)) is None


def test_a_fifo_in_place_of_a_git_file_never_blocks(tmp_path):
    repo = _repo(tmp_path / "proj", "https://github.com/team/demo")
    for name in ("config", "HEAD"):
        os.unlink(repo / ".git" / name)
        os.mkfifo(repo / ".git" / name)
    worktree = tmp_path / "wt"
    worktree.mkdir()
    os.mkfifo(worktree / ".git")
    got: dict = {}

    def read() -> None:
        got["origin"] = identity.origin(str(repo))
        got["branch"] = identity.git_branch(str(repo))
        got["root"] = identity.project_root(str(worktree))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=20)
    stuck = reader.is_alive()
    while reader.is_alive():  # why: a writer's open frees a stuck reader, so the suite goes on to fail
        for fifo in (repo / ".git" / "config", repo / ".git" / "HEAD", worktree / ".git"):
            os.close(os.open(fifo, os.O_RDWR))
        reader.join(timeout=1)
    assert not stuck, "reading the repository's files waited on a FIFO"
    assert got == {"origin": None, "branch": None, "root": str(worktree)}


@as_root
def test_another_users_folder_linking_to_my_repository_gets_no_key_of_mine(tmp_path):
    mine = _repo(tmp_path / "plain", "https://github.com/me/plain")
    evil = tmp_path / "evil"
    evil.mkdir()
    os.symlink(mine / ".git", evil / ".git")
    assert paths.memory_key(str(evil)) == paths.memory_key(str(mine))  # before: it claims the key
    os.lchown(evil / ".git", OTHER_UID, OTHER_UID)
    os.lchown(evil, OTHER_UID, OTHER_UID)
    assert identity.project_root(str(evil)) == str(evil)
    assert paths.memory_key(str(evil)) == paths.project_key(str(evil))
    os.lchown(evil / ".git", 0, 0)  # the link is mine, the folder holding it still theirs
    assert paths.memory_key(str(evil)) == paths.project_key(str(evil))


def test_a_symlinked_git_folder_of_mine_keeps_its_origin(tmp_path):
    store = _repo(tmp_path / "store", "https://github.com/me/plain")
    work = tmp_path / "work"
    work.mkdir()
    os.symlink(store / ".git", work / ".git")
    assert identity.project_root(str(work)) == str(work)
    assert identity.origin(str(work)) == "github.com/me/plain"


@as_root
def test_memory_under_the_origin_stays_when_the_repository_turns_out_to_be_another_users(tmp_path):
    """A checkout another user owns was keyed by its origin before this rule: on upgrade its key is
    its path. That is not an origin change: the origin's memory (synced, the person's clones elsewhere
    use it) stays where it is, never moved into the path-keyed folder."""
    from lazy_harness.memory import last_key, migrate

    root = _repo(tmp_path / "deploy", "https://github.com/org/app")
    before = paths.project_memory_dir(str(root))
    os.makedirs(before)
    line = '{"id": "d-00000001", "summary": "Deploy from the release branch only"}\n'
    with open(os.path.join(before, "decisions.jsonl"), "w") as fh:
        fh.write(line)
    last_key.remember_key(str(root), before)  # what the version before wrote after a task there
    _give_away(root / ".git")
    after = paths.project_memory_dir(str(root))
    assert after != before
    assert migrate.earlier_key(str(root), after) is None
    migrate.migrate(after, paths.project_key(str(root)), str(root), None, 1.0)
    with open(os.path.join(before, "decisions.jsonl")) as fh:
        assert fh.read() == line
    assert not os.path.exists(os.path.join(after, "decisions.jsonl"))


@as_root
def test_doctor_says_why_a_folder_in_another_users_repository_is_keyed_by_its_path(tmp_path, monkeypatch,
                                                                                  isolated_home):
    from tests.cli.lhrun import invoke

    shared = _repo(tmp_path / "shared", "https://github.com/victim/secret")
    _give_away(shared / ".git")
    monkeypatch.chdir(shared)
    out = invoke("doctor").out
    [line] = [ln for ln in out.splitlines() if "another user's repository" in ln]
    assert str(shared) in line and str(OTHER_UID) in line and "by its path" in line
