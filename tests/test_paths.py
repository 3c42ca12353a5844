"""paths.py: the one resolver, and proof that hooks, CLI and worker resolve the same folders."""

import json
import os
import subprocess
import sys

import pytest

from lazy_harness import paths, queue

from tests.cli.lhrun import invoke
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


def test_claude_config_dir_moves_every_claude_path(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    assert paths.claude_dir() == str(tmp_path / "cc")
    assert paths.queue_dir() == str(tmp_path / "cc" / "queue")
    assert paths.logs_dir() == str(tmp_path / "cc" / "logs")
    assert paths.user_settings_file() == str(tmp_path / "cc" / "settings.json")
    assert paths.memory_dir(str(tmp_path / "p")).startswith(str(tmp_path / "cc" / "projects") + "/")


def test_claude_config_dir_relative_and_tilde_become_absolute(isolated_home, tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "~/alt")
    assert paths.claude_dir() == f"{isolated_home}/alt"
    monkeypatch.chdir(tmp_path)
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


def git(*args, cwd):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main",
                    *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path):
    main = tmp_path / "my.repo x"
    main.mkdir()
    git("init", "-q", cwd=main)
    (main / "src" / "deep").mkdir(parents=True)
    (main / "src" / "deep" / "f.txt").write_text("x")
    git("add", ".", cwd=main)
    git("commit", "-q", "-m", "init", cwd=main)
    git("worktree", "add", "-q", str(tmp_path / "wt.linked"), "-b", "feature", cwd=main)
    return main


def test_linked_worktree_and_subfolders_share_the_main_trees_memory(repo, tmp_path):
    expected = paths.project_memory_dir(str(repo))
    assert expected.endswith(f"/projects/{paths.project_key(str(repo))}/memory")
    assert paths.project_root(str(repo / "src" / "deep")) == str(repo)
    assert paths.project_root(str(tmp_path / "wt.linked")) == str(repo)
    assert paths.project_root(str(tmp_path / "wt.linked" / "src" / "deep")) == str(repo)
    for where in (repo, repo / "src" / "deep", tmp_path / "wt.linked", tmp_path / "wt.linked" / "src"):
        assert paths.memory_dir(str(where)) == expected
    assert paths.project_name(str(tmp_path / "wt.linked")) == "my.repo x"


def test_resolver_agrees_with_git_itself(repo, tmp_path):
    out = subprocess.run(["git", "rev-parse", "--path-format=absolute", "--git-common-dir"],
                         cwd=tmp_path / "wt.linked" / "src", capture_output=True, text=True, check=True)
    assert paths.project_root(str(tmp_path / "wt.linked" / "src")) == os.path.dirname(out.stdout.strip())


def test_folder_not_in_git_is_its_own_root(tmp_path):
    plain = tmp_path / "plain dir.v2"
    (plain / "sub").mkdir(parents=True)
    assert paths.project_root(str(plain)) == str(plain)
    assert paths.project_root(str(plain / "sub")) == str(plain / "sub")  # no repo: the cwd itself
    assert paths.memory_dir(str(plain)).endswith("/projects/" + paths.project_key(str(plain)) + "/memory")


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
    from lazy_harness.worker import pipeline

    pipeline.check_trust(task, None)
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
