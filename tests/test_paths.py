"""paths.py: the one resolver, and proof that hooks, CLI and worker resolve the same folders."""

import json
import os
import subprocess
import sys

import pytest

from lazy_harness import paths, queue

from tests.cli.lhrun import invoke
from tests.support.git_repos import repo_with_worktree
from tests.hooks.hookrun import enable_loop, run_hook, worker_lock_held


# --- environment variables ----------------------------------------------------------------------

def test_defaults_under_home(isolated_home):
    h = str(isolated_home)
    assert paths.claude_dir() == f"{h}/.claude"
    assert paths.queue_dir() == f"{h}/.claude/queue"
    assert paths.logs_dir() == f"{h}/.claude/logs"
    assert paths.user_settings_file() == f"{h}/.claude/settings.json"
    assert paths.config_file() == f"{h}/.config/lazy-harness/config.toml"
    assert paths.knowledge_dir() == f"{h}/.local/share/lazy-harness/knowledge"
    assert paths.learnings_dir() == f"{h}/.local/share/lazy-harness/knowledge/learnings"
    assert paths.data_dir() == f"{h}/.local/share/lazy-harness"
    assert paths.memory_root() == f"{h}/.local/share/lazy-harness/projects"
    assert paths.project_memory_dir("/w/p") == f"{h}/.local/share/lazy-harness/projects/-w-p"


def test_claude_config_dir_moves_every_claude_path(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    assert paths.claude_memory_dir("-w-p") == str(tmp_path / "cc" / "projects" / "-w-p" / "memory")
    assert paths.claude_dir() == str(tmp_path / "cc")
    assert paths.queue_dir() == str(tmp_path / "cc" / "queue")
    assert paths.logs_dir() == str(tmp_path / "cc" / "logs")
    assert paths.user_settings_file() == str(tmp_path / "cc" / "settings.json")
    # our memory is not Claude Code's: CLAUDE_CONFIG_DIR does not move it
    assert not paths.memory_dir(str(tmp_path / "p")).startswith(str(tmp_path / "cc"))


def test_claude_config_dir_relative_becomes_absolute_and_a_tilde_stays_a_folder_name(isolated_home, tmp_path,
                                                                                     monkeypatch):
    """Claude Code (2.1.332, run here with ``CLAUDE_CONFIG_DIR='~/cfg'``) does not expand ``~``: it wrote its
    settings, projects/ and sessions/ into ``<cwd>/~/cfg`` and ran the hooks of ``<cwd>/~/cfg/settings.json``,
    not of ``$HOME/cfg``. lh expanded it and so read and wrote another folder than the one Claude Code uses."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "~/alt")
    assert paths.claude_dir() == str(tmp_path / "~" / "alt")
    assert paths.user_settings_file() == str(tmp_path / "~" / "alt" / "settings.json")
    assert paths.queue_dir() == str(tmp_path / "~" / "alt" / "queue")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "rel")
    assert paths.claude_dir() == str(tmp_path / "rel")


def test_xdg_config_home_and_lh_config(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert paths.config_file() == str(tmp_path / "xdg" / "lazy-harness" / "config.toml")
    monkeypatch.setenv("LH_CONFIG", str(tmp_path / "elsewhere.toml"))
    assert paths.config_file() == str(tmp_path / "elsewhere.toml")  # LH_CONFIG wins


def test_xdg_data_home_and_configured_knowledge_path(isolated_home, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert paths.knowledge_dir() == str(tmp_path / "data" / "lazy-harness" / "knowledge")
    assert paths.knowledge_dir("~/notes") == f"{isolated_home}/notes"  # [knowledge] path wins
    assert paths.learnings_dir(str(tmp_path / "k")) == str(tmp_path / "k" / "learnings")


def test_xdg_data_home_moves_memory_beside_knowledge(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert paths.memory_dir(str(tmp_path / "p")) == str(tmp_path / "data" / "lazy-harness" / "projects"
                                                       / paths.project_key(str(tmp_path / "p")))


def test_configured_paths_resolve_against_the_config_files_folder(isolated_home, tmp_path, monkeypatch):
    monkeypatch.setenv("LH_CONFIG", str(tmp_path / "cfg" / "config.toml"))
    monkeypatch.setenv("NOTES", str(tmp_path / "n"))
    monkeypatch.chdir(tmp_path)  # the current folder plays no part
    assert paths.knowledge_dir("rel/notes") == str(tmp_path / "cfg" / "rel" / "notes")
    assert paths.knowledge_dir("../up") == str(tmp_path / "up")
    assert paths.knowledge_dir("$NOTES/k") == str(tmp_path / "n" / "k")
    assert paths.knowledge_dir("${NOTES}x") == str(tmp_path / "nx")
    assert paths.knowledge_dir("$HOME/notes") == f"{isolated_home}/notes"
    assert paths.memory_root("~/mem") == f"{isolated_home}/mem"
    assert paths.memory_root("mem") == str(tmp_path / "cfg" / "mem")
    assert paths.project_memory_dir("/w/p", configured="mem") == str(tmp_path / "cfg" / "mem" / "-w-p")
    assert paths.memory_root("/abs/$") == "/abs/$"  # a lone $ names nothing


def test_configured_path_with_an_unset_variable_is_refused(tmp_path, monkeypatch):
    from lazy_harness.errors import ConfigError

    monkeypatch.setenv("LH_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("EMPTY", "")
    assert paths.unset_variables("$NOPE/a/${EMPTY}/$HOME") == ["NOPE", "EMPTY"]
    with pytest.raises(ConfigError, match=r"config.toml: path '\$NOPE/x' names \$NOPE, which is not set"):
        paths.memory_root("$NOPE/x")


def test_empty_variables_count_as_unset(isolated_home, monkeypatch):
    for var in ("CLAUDE_CONFIG_DIR", "LH_CONFIG", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(var, "")
    assert paths.claude_dir() == f"{isolated_home}/.claude"
    assert paths.config_file() == f"{isolated_home}/.config/lazy-harness/config.toml"
    assert paths.knowledge_dir() == f"{isolated_home}/.local/share/lazy-harness/knowledge"


def test_env_parameter_is_used_instead_of_os_environ(tmp_path):
    env = {"HOME": str(tmp_path / "other"), "CLAUDE_CONFIG_DIR": str(tmp_path / "x")}
    assert paths.queue_dir(env) == str(tmp_path / "x" / "queue")
    assert paths.config_file(env) == str(tmp_path / "other" / ".config" / "lazy-harness" / "config.toml")


# --- project key and root -----------------------------------------------------------------------

@pytest.mark.parametrize("root,key", [
    ("/home/u/my.repo x", "-home-u-my-repo-x"),
    ("/home/u/my.repo", "-home-u-my-repo"),
    ("/srv/a_b-c/Proj2", "-srv-a-b-c-Proj2"),
    ("/tmp/café", "-tmp-caf-"),
])
def test_project_key_is_claude_codes_folder_name(root, key):
    assert paths.project_key(root) == key


# Folder names the real CLI created (2.1.197, 2.1.328 and 2.1.330 agree) for `claude -p` run in
# each of these folders. tests/e2e/test_project_keys.py checks the same against the installed CLI.
_H = "/tmp/dd_key/h/"
REAL_CLI_KEYS = [
    (_H + "a" * 120 + "/" + "b" * 120,
     "-tmp-dd-key-h-" + "a" * 120 + "-" + "b" * 65 + "-b26wxs"),
    (_H + "Proj é ü ñ/" + "x" * 200, "-tmp-dd-key-h-Proj-------" + "x" * 175 + "-gb9kx9"),
    (_H + "emoji-🚀", "-tmp-dd-key-h-emoji---"),
    (_H + "accented é and spaced", "-tmp-dd-key-h-accented---and-spaced"),
    (_H + "c" * 190 + "🚀ab/" + "d" * 30, "-tmp-dd-key-h-" + "c" * 186 + "-714oys"),  # hash < 0 before abs
    (_H + "x" * 186, "-tmp-dd-key-h-" + "x" * 186),  # exactly 200: no hash
    (_H + "x" * 187, "-tmp-dd-key-h-" + "x" * 186 + "-iqwybt"),
    (_H + "neg0-" + "z" * 200, "-tmp-dd-key-h-neg0-" + "z" * 181 + "-crtf1e"),
]


@pytest.mark.parametrize("root,key", REAL_CLI_KEYS)
def test_project_key_matches_folders_the_real_cli_created(root, key):
    assert paths.project_key(root) == key
    assert len(key.encode()) < 256 and "/" not in key  # always a valid file name


def test_project_key_of_very_long_and_astral_paths_stays_a_file_name():
    for root in ("/" + "🚀" * 5000, "/" + "é/" * 3000, "/x" * 40000):
        key = paths.project_key(root)
        assert len(key) <= 208 and set(key[:200]) <= set("-x")
    assert paths.legacy_project_key("/a/🚀") == "-a--" != paths.project_key("/a/🚀") == "-a---"


@pytest.fixture
def repo(tmp_path):
    return repo_with_worktree(tmp_path)


def test_linked_worktree_and_subfolders_share_the_main_trees_memory(repo, tmp_path):
    expected = paths.project_memory_dir(str(repo))
    assert expected.endswith(f"/lazy-harness/projects/{paths.project_key(str(repo))}")
    for where in (repo, repo / "src" / "deep", tmp_path / "wt.linked", tmp_path / "wt.linked" / "src"):
        assert paths.memory_dir(str(where)) == expected


def test_a_folder_not_in_git_keeps_its_memory_under_its_own_key(tmp_path):
    plain = tmp_path / "plain dir.v2"
    (plain / "sub").mkdir(parents=True)
    assert paths.memory_dir(str(plain)).endswith("/projects/" + paths.project_key(str(plain)))
    assert paths.memory_dir(str(plain / "sub")).endswith("/projects/" + paths.project_key(str(plain / "sub")))


def test_is_within(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert paths.is_within(str(tmp_path / "a" / "b"), str(tmp_path / "a"))
    assert not paths.is_within(str(tmp_path / "ab"), str(tmp_path / "a"))


# --- parity: hook subprocess, CLI and worker side resolve the same folders ----------------------

def test_hook_cli_and_worker_agree_on_memory_and_queue_dirs(repo, tmp_path, isolated_home, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude cfg"))
    enable_loop(isolated_home)
    cwd = tmp_path / "wt.linked" / "src"
    sid = "5f0c6d1e-0000-4000-8000-000000000001"
    # where Claude Code keeps the transcript: projects/<key of the session's cwd>/<session>.jsonl
    transcript = tmp_path / "claude cfg" / "projects" / paths.project_key(str(cwd)) / f"{sid}.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_text('{"type":"user"}\n')
    payload = {"session_id": sid, "transcript_path": str(transcript),
               "cwd": str(cwd), "hook_event_name": "SessionEnd", "reason": "other"}
    with worker_lock_held(paths.claude_dir()) as q:  # the spawned worker leaves; the task stays pending
        p = run_hook("SessionEnd", payload)
        assert p.returncode == 0 and p.stdout == b""
        names = queue.pending(q)
    assert q == paths.queue_dir()
    assert len(names) == 1, (p.stderr, names)
    task = queue.read_task(os.path.join(q, names[0]))
    # hook == worker-side resolver, and the worker trusts the task it was given
    assert task["memory_dir"] == paths.memory_dir(str(cwd)) == paths.project_memory_dir(str(repo))
    from lazy_harness.worker import task_trust

    task_trust.check_trust(task, None)
    # == what the CLI prints for that folder
    monkeypatch.chdir(cwd)
    shown = invoke("config", "show").out
    assert f"# memory dir (this folder): {task['memory_dir']}\n" in shown
    assert f"# queue: {q}\n" in shown
    # == a fresh interpreter importing the worker side
    code = ("import json, sys; from lazy_harness import paths; "
            "print(json.dumps([paths.memory_dir(sys.argv[1]), paths.queue_dir()]))")
    out = subprocess.run([sys.executable, "-c", code, str(cwd)], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [task["memory_dir"], q]


def test_a_configured_memory_path_reaches_the_hook_the_worker_and_the_cli(tmp_path, isolated_home, monkeypatch):
    cfg = enable_loop(isolated_home)
    with open(cfg, "a") as fh:
        fh.write('[memory]\npath = "../../my memory"\n')  # relative to the config file's folder
    root = str(isolated_home / "my memory")
    cwd = tmp_path / "proj"
    cwd.mkdir()
    sid = "5f0c6d1e-0000-4000-8000-000000000002"
    transcript = os.path.join(paths.projects_dir(), paths.project_key(str(cwd)), f"{sid}.jsonl")
    os.makedirs(os.path.dirname(transcript))
    with open(transcript, "w") as fh:
        fh.write('{"type":"user"}\n')
    payload = {"session_id": sid, "transcript_path": transcript, "cwd": str(cwd),
               "hook_event_name": "SessionEnd", "reason": "other"}
    with worker_lock_held(paths.claude_dir()) as q:
        assert run_hook("SessionEnd", payload).returncode == 0
        names = queue.pending(q)
    task = queue.read_task(os.path.join(q, names[0]))
    assert task["memory_dir"] == os.path.join(root, paths.project_key(str(cwd)))
    from lazy_harness import config
    from lazy_harness.worker import task_trust

    task_trust.check_trust(task, None, paths.memory_root(config.load()["memory"]["path"]))
    assert invoke("memory", "path", "--project", str(cwd)).out.strip() == task["memory_dir"]


def test_codex_home_is_codex_home_else_dot_codex_in_home(tmp_path):
    from lazy_harness import paths

    home = str(tmp_path / "h")
    assert paths.codex_home({"HOME": home}) == os.path.join(home, ".codex")
    assert paths.codex_home({"HOME": home, "CODEX_HOME": "rel"}) == os.path.abspath("rel")
    assert paths.codex_hooks_file({"HOME": home}) == os.path.join(home, ".codex", "hooks.json")


@pytest.mark.parametrize("name", ["XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "LH_CONFIG"])
def test_a_relative_xdg_folder_or_lh_config_is_ignored_not_read_in_the_project(isolated_home, tmp_path,
                                                                                monkeypatch, name):
    """The hooks run in the session's project folder: ``XDG_CACHE_HOME=.cache`` read as given made a
    repository's own ``.cache/lazy-harness/hooks/*.bin`` the hooks' code (its files are the user's and
    pass every owner check). A relative value is ignored, as the XDG specification says."""
    project = tmp_path / "cloned-repo"
    project.mkdir()
    monkeypatch.chdir(project)
    defaults = (paths.cache_dir(), paths.data_dir(), paths.config_file())
    monkeypatch.setenv(name, ".cache" if name != "LH_CONFIG" else "config.toml")
    assert (paths.cache_dir(), paths.data_dir(), paths.config_file()) == defaults
    assert not any(str(p).startswith(str(project)) for p in (paths.cache_dir(), paths.data_dir(), paths.config_file()))
    monkeypatch.setenv(name, str(tmp_path / "abs"))  # an absolute one counts, as before
    assert str(tmp_path / "abs") in " ".join((paths.cache_dir(), paths.data_dir(), paths.config_file()))


def test_codex_home_keeps_its_tilde_as_codex_does(isolated_home, tmp_path, monkeypatch):
    """codex-cli 0.171.0, run here with ``CODEX_HOME='~/cx'``, kept its config, state and sessions in
    ``<cwd>/~/cx`` (its own warning named that folder), not ``$HOME/cx``: lh wrote hooks.json where Codex
    never reads it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CODEX_HOME", "~/cx")
    assert paths.codex_home() == str(tmp_path / "~" / "cx")
    assert paths.codex_hooks_file() == str(tmp_path / "~" / "cx" / "hooks.json")
