"""Which project a folder belongs to, read from the repository's files without a git process: the
main working tree (worktrees and subfolders included), the branch, the origin in one form."""

import os
import subprocess

import pytest

from lazy_harness import paths, project_identity as identity

from tests.support import memory_samples as ms
from tests.support.git_repos import git, repo_with_worktree


@pytest.fixture
def repo(tmp_path):
    return repo_with_worktree(tmp_path)


def test_linked_worktree_and_subfolders_belong_to_the_main_tree(repo, tmp_path):
    assert identity.project_root(str(repo / "src" / "deep")) == str(repo)
    assert identity.project_root(str(tmp_path / "wt.linked")) == str(repo)
    assert identity.project_root(str(tmp_path / "wt.linked" / "src" / "deep")) == str(repo)
    assert identity.project_name(str(tmp_path / "wt.linked")) == "my.repo x"


def test_the_main_tree_agrees_with_git_itself(repo, tmp_path):
    out = subprocess.run(["git", "rev-parse", "--path-format=absolute", "--git-common-dir"],
                         cwd=tmp_path / "wt.linked" / "src", capture_output=True, text=True, check=True)
    assert identity.project_root(str(tmp_path / "wt.linked" / "src")) == os.path.dirname(out.stdout.strip())


def test_a_folder_not_in_git_is_its_own_project(tmp_path):
    plain = tmp_path / "plain dir.v2"
    (plain / "sub").mkdir(parents=True)
    assert identity.project_root(str(plain)) == str(plain)
    assert identity.project_root(str(plain / "sub")) == str(plain / "sub")  # no repo: the cwd itself
    assert identity.project_name(str(plain)) == "plain dir.v2"


def test_git_branch_from_head_without_a_git_process(tmp_path):
    proj = ms.make_project(tmp_path, "p", branch="feature/x")
    assert identity.git_branch(os.path.join(proj)) == "feature/x"
    os.makedirs(os.path.join(proj, "sub", "dir"))
    assert identity.git_branch(os.path.join(proj, "sub", "dir")) == "feature/x"
    detached = ms.make_project(tmp_path, "d", branch=None)
    assert identity.git_branch(detached) is None
    # a linked worktree: .git is a file pointing at <main>/.git/worktrees/<name>
    gitdir = os.path.join(proj, ".git", "worktrees", "wt")
    os.makedirs(gitdir)
    with open(os.path.join(gitdir, "HEAD"), "w") as fh:
        fh.write("ref: refs/heads/wt-branch\n")
    wt = tmp_path / "wt"
    wt.mkdir()
    (wt / ".git").write_text(f"gitdir: {gitdir}\n")
    assert identity.git_branch(str(wt)) == "wt-branch"
    assert identity.git_branch(str(tmp_path / "nogit")) is None


@pytest.mark.parametrize("url", ["git@github.com:team/demo.git", "https://github.com/team/demo",
                                 "ssh://git@github.com:22/team/demo.git", "https://someone@GitHub.com/team/demo.git/",
                                 "https://github.com/team/./demo"])
def test_the_forms_of_one_remote_are_one_origin(url):
    assert identity.normalize_remote(url) == "github.com/team/demo"


@pytest.mark.parametrize("url", ["ssh://git@[2001:DB8::1]:2222/team/demo.git", "git@[2001:db8::1]:team/demo.git",
                                 "https://[2001:db8::1]/team/demo", "[2001:db8::1]:team/demo.git"])
def test_an_ipv6_host_is_its_own_host(url):
    """A host written as an IPv6 literal keeps its address: two servers' repositories of one path are
    two projects (the bracket alone was taken for the host: every IPv6 remote of a path shared a key)."""
    assert identity.normalize_remote(url) == "[2001:db8::1]/team/demo"
    other = url.replace("2001:db8::1", "2001:db8::2").replace("2001:DB8::1", "2001:db8::2")
    assert identity.normalize_remote(other) == "[2001:db8::2]/team/demo"


def test_a_local_path_stays_a_path_and_an_empty_url_is_none():
    assert identity.normalize_remote("/srv/git/demo.git") == "/srv/git/demo.git"
    assert identity.normalize_remote("file:///srv/git/demo") == "/srv/git/demo"
    assert identity.normalize_remote("  ") is None


def test_origin_is_read_from_the_config_a_linked_worktree_shares(repo, tmp_path):
    assert identity.origin(str(repo)) is None  # no origin yet
    git("remote", "add", "origin", "git@example.org:team/demo.git", cwd=repo)
    assert identity.origin_url(str(repo)) == "git@example.org:team/demo.git"
    assert identity.origin(identity.project_root(str(tmp_path / "wt.linked"))) == "example.org/team/demo"
    git("remote", "set-url", "origin", str(tmp_path / "bare.git"), cwd=repo)
    assert identity.origin(str(repo)) is None  # a local path names no project on another machine
    assert paths.memory_key(str(repo)) == paths.project_key(str(repo))


@pytest.mark.parametrize("url", ["../app.git", "app.git", "./x:y/app.git", "sub/dir/app", "file://../app.git"])
def test_a_relative_local_origin_names_no_project_either(tmp_path, url):
    """Two different repositories side by side, each with the origin ``../app.git``, are two projects:
    a relative path is read from each clone's own folder, so it names no project (not one key for both)."""
    roots = []
    for name in ("one", "two"):
        root = tmp_path / "clients" / name / "tool"
        root.mkdir(parents=True)
        git("init", "-q", cwd=root)
        git("remote", "add", "origin", url, cwd=root)
        assert identity.origin(str(root)) is None
        roots.append(str(root))
    assert paths.memory_key(roots[0]) != paths.memory_key(roots[1])
    assert paths.memory_key(roots[0]) == paths.project_key(roots[0])


@pytest.mark.parametrize("url", ["git@github.com:team/demo.git", "host:team/demo", "ssh://h/team/demo"])
def test_a_host_origin_still_names_its_project(tmp_path, url):
    root = tmp_path / "r"
    root.mkdir()
    git("init", "-q", cwd=root)
    git("remote", "add", "origin", url, cwd=root)
    assert identity.origin(str(root)) is not None
