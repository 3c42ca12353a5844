"""Spellings of one remote give one key (docs/how/project-key.md): owner and repository in any case on
the hosts known to ignore it, a ``url.<base>.insteadOf`` shorthand, an ``~/.ssh/config`` host alias.
Read from files (no git, no ssh), only for a remote whose host is no real host; odd files change
nothing and raise nothing."""

import os

import pytest

from lazy_harness import paths, project_identity as identity

from tests.support.git_repos import git

GITHUB = "github.com/owner/repo"


def repo_with_origin(parent, url: str, name: str = "r") -> str:
    root = parent / name
    root.mkdir(parents=True)
    git("init", "-q", cwd=root)
    git("remote", "add", "origin", url, cwd=root)
    return str(root)


def home_file(isolated_home, rel: str, text: str) -> str:
    path = os.path.join(str(isolated_home), rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


# --- (a) case ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["github.com", "gitlab.com", "bitbucket.org", "codeberg.org"])
def test_owner_and_repository_in_any_case_are_one_remote_on_the_known_hosts(host):
    spellings = [f"git@{host}:Owner/Repo.git", f"https://{host}/owner/repo", f"ssh://git@{host.upper()}/OWNER/repo"]
    assert {identity.normalize_remote(u) for u in spellings} == {f"{host}/owner/repo"}


@pytest.mark.parametrize("host", ["git.example.org", "gitea.internal.example", "github.com.evil.example"])
def test_another_host_keeps_the_case_it_may_tell_apart(host):
    assert identity.normalize_remote(f"git@{host}:Owner/Repo.git") == f"{host}/Owner/Repo"
    assert identity.normalize_remote(f"https://{host}/owner/repo") == f"{host}/owner/repo"


def test_two_clones_spelled_in_two_cases_share_one_memory_folder(tmp_path):
    one = repo_with_origin(tmp_path, "git@github.com:Owner/Repo.git", "one")
    two = repo_with_origin(tmp_path, "https://github.com/owner/repo", "two")
    assert paths.memory_key(one) == paths.memory_key(two) == paths.remote_key(GITHUB)


# --- (b) url.<base>.insteadOf ----------------------------------------------------------------------

GH = '[url "git@github.com:"]\n\tinsteadOf = gh:\n'


@pytest.mark.parametrize("where", [".gitconfig", ".config/git/config"])
def test_an_insteadof_shorthand_in_the_users_config_is_the_host_it_stands_for(tmp_path, isolated_home, where):
    home_file(isolated_home, where, "[user]\n\tname = me\n" + GH)
    root = repo_with_origin(tmp_path, "gh:owner/repo")
    assert identity.origin(root, paths.remote_lookup_files) == GITHUB
    assert paths.memory_key(root) == paths.remote_key(GITHUB)


def test_an_insteadof_in_the_repositorys_config_counts_and_the_longest_prefix_wins(tmp_path, isolated_home):
    home_file(isolated_home, ".gitconfig", '[url "https://gitlab.com/"]\n\tinsteadOf = g\n')
    root = repo_with_origin(tmp_path, "gh:Owner/Repo")
    with open(os.path.join(root, ".git", "config"), "a", encoding="utf-8") as fh:
        fh.write('[url "ssh://git@github.com/"] # where gh: goes\n\tINSTEADOF = "gh:" ; a comment\n')
    assert paths.memory_key(root) == paths.remote_key(GITHUB)


def test_xdg_config_home_is_where_the_users_git_config_is(tmp_path, isolated_home, monkeypatch):
    xdg = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    home_file(xdg, "git/config", GH)
    assert paths.memory_key(repo_with_origin(tmp_path, "gh:owner/repo")) == paths.remote_key(GITHUB)


def test_a_remote_on_a_real_host_is_not_rewritten_and_no_user_file_is_read(tmp_path, isolated_home, monkeypatch):
    """The common case costs nothing: the https, ssh and scp forms of a real host's remote are one
    already, so an ``insteadOf`` over one of them (a mirror, https to ssh) is a way of fetching, not
    another project: the key stays the remote's, and neither ~/.gitconfig nor ~/.ssh/config is read."""
    gitconfig = home_file(isolated_home, ".gitconfig", '[url "https://mirror.example/"]\n\tinsteadOf = https://github.com/\n'
                          + GH)
    ssh = home_file(isolated_home, ".ssh/config", "Host github.com\n  HostName other.example\n")
    read = []
    real_read = identity._read
    monkeypatch.setattr(identity, "_read", lambda path, size: read.append(path) or real_read(path, size))
    for n, url in enumerate(("https://github.com/owner/repo", "git@github.com:owner/repo.git")):
        root = repo_with_origin(tmp_path, url, name=f"clone{n}")
        assert paths.memory_key(root) == paths.remote_key(GITHUB)
    assert gitconfig not in read and ssh not in read and read  # the repository's config was read
    paths.memory_key(repo_with_origin(tmp_path, "gh:owner/repo", "short"))
    assert gitconfig in read  # the shorthand needed it


# --- (c) an ssh host alias -------------------------------------------------------------------------

SSH = "# mine\nHost personal\n  HostName example.com\n\nHost work wk\n  HostName github.com\n  User git\n"


@pytest.mark.parametrize("url", ["work:owner/repo", "git@work:Owner/Repo.git", "ssh://git@wk:22/owner/repo",
                                 "git+ssh://WORK/owner/repo"])
def test_an_ssh_host_alias_is_keyed_by_its_real_hostname(tmp_path, isolated_home, url):
    home_file(isolated_home, ".ssh/config", SSH)
    assert paths.memory_key(repo_with_origin(tmp_path, url)) == paths.remote_key(GITHUB)


def test_an_insteadof_then_an_ssh_alias_as_git_and_ssh_do_it(tmp_path, isolated_home):
    home_file(isolated_home, ".gitconfig", '[url "work:"]\n\tinsteadOf = w:\n')
    home_file(isolated_home, ".ssh/config", SSH)
    assert paths.memory_key(repo_with_origin(tmp_path, "w:owner/repo")) == paths.remote_key(GITHUB)


@pytest.mark.parametrize("ssh", [
    "Host w*\n  HostName github.com\n",  # a wildcard
    "Host *\n  HostName elsewhere.example\nHost work\n  HostName github.com\n",  # an earlier block sets it
    "HostName elsewhere.example\nHost work\n  HostName github.com\n",  # for every host
    "Match host work\n  HostName github.com\n",
    "Include other\nHost work\n  HostName github.com\n",
    "Host work\n  HostName %h.example.com\n",  # a token ssh expands
    "Host work\n  User git\n",  # no HostName
    "Host !work other\n  HostName github.com\n",
])
def test_an_ssh_config_past_the_plain_form_leaves_the_url_as_it_is(tmp_path, isolated_home, ssh):
    home_file(isolated_home, ".ssh/config", ssh)
    assert identity.origin(repo_with_origin(tmp_path, "work:owner/repo"), paths.remote_lookup_files) == \
        "work/owner/repo"


def test_an_https_url_does_not_go_through_ssh_aliases(tmp_path, isolated_home):
    home_file(isolated_home, ".ssh/config", SSH)
    assert identity.origin(repo_with_origin(tmp_path, "https://work/owner/repo"), paths.remote_lookup_files) == \
        "work/owner/repo"


# --- untrusted input ---------------------------------------------------------------------------------

ODD = [
    "\x00\xff[url \"\n\tinsteadOf = gh:",
    '[url "git@github.com:\\"]\n\tinsteadOf = "gh:\\\n',
    "[url]\ninsteadOf = gh:\n[url \"\"]\n\tinsteadOf = gh:\n",
    '[url "x"\n\tinsteadOf = gh:\n' * 5000,
    "[url \"\x00\"]\n\tinsteadOf\n\tinsteadOf =\n",
    "Host\nHost work\nHostName\nHostName =\n" + "Host " + "w" * 100000,
]


@pytest.mark.parametrize("text", ODD)
def test_odd_config_files_change_nothing_and_raise_nothing(tmp_path, isolated_home, text):
    root = repo_with_origin(tmp_path, "work:owner/repo")  # first: git refuses a config it cannot parse
    home_file(isolated_home, ".gitconfig", text)
    home_file(isolated_home, ".ssh/config", text)
    with open(os.path.join(root, ".git", "config"), "a", encoding="utf-8", errors="surrogateescape") as fh:
        fh.write(text)
    got = identity.origin(root, paths.remote_lookup_files)
    assert got is None or isinstance(got, str)
    assert paths.memory_key(root)


def test_a_fifo_or_a_folder_in_place_of_a_config_is_not_read(tmp_path, isolated_home):
    root = repo_with_origin(tmp_path, "work:owner/repo")  # first: git itself would wait on the FIFO
    os.mkfifo(os.path.join(str(isolated_home), ".gitconfig"))  # opening it to read would wait for a writer
    os.makedirs(os.path.join(str(isolated_home), ".ssh", "config"))
    assert identity.origin(root, paths.remote_lookup_files) == "work/owner/repo"


def test_an_insteadof_to_a_local_path_names_no_project(tmp_path, isolated_home):
    home_file(isolated_home, ".gitconfig", '[url "/srv/git/"]\n\tinsteadOf = local:\n')
    root = repo_with_origin(tmp_path, "local:app.git")
    assert identity.origin(root, paths.remote_lookup_files) is None
    assert paths.memory_key(root) == paths.project_key(root)


def test_the_config_files_git_is_told_to_read_are_read_for_a_shorthand(tmp_path, isolated_home, monkeypatch):
    """``GIT_CONFIG_GLOBAL`` stands for the person's files (~/.gitconfig is then not git's); the system's
    file (``GIT_CONFIG_SYSTEM``, else /etc/gitconfig) is read too, unless ``GIT_CONFIG_NOSYSTEM``."""
    home_file(isolated_home, ".gitconfig", '[url "https://gitlab.com/"]\n\tinsteadOf = gh:\n')
    chosen = home_file(tmp_path, "chosen.gitconfig", GH)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(chosen))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    assert paths.memory_key(repo_with_origin(tmp_path / "a", "gh:owner/repo")) == paths.remote_key(GITHUB)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "empty.gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_SYSTEM", str(chosen))
    root = repo_with_origin(tmp_path / "b", "gh:owner/repo")
    assert paths.memory_key(root) != paths.remote_key(GITHUB)  # told not to read the system's file
    monkeypatch.delenv("GIT_CONFIG_NOSYSTEM")
    assert paths.memory_key(root) == paths.remote_key(GITHUB)
