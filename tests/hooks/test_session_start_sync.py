"""SessionStart with a sync remote: memory from the other machine arrives; a slow remote never holds the hook."""

import json
import os
import subprocess
import time
from pathlib import Path

from lazy_harness import config, paths, sync
from tests.hooks.hookrun import hook_log, run_hook
from tests.test_sync import Machine, _git
from tests.support.processes import started_with_home


def _write_config(home: Path, remote: str, **sync_keys) -> None:
    path = home / ".config" / "lazy-harness" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["[sync]", f"remote = {json.dumps(remote)}"] + [f"{k} = {json.dumps(v)}" for k, v in sync_keys.items()]
    path.write_text("\n".join(lines) + "\n")


def _project(tmp_path: Path) -> Path:
    proj = tmp_path / "work" / "demo"
    proj.mkdir(parents=True)
    _git("init", "-q", str(proj))
    _git("-C", str(proj), "remote", "add", "origin", "git@example.com:team/demo.git")
    return proj


def test_a_new_session_gets_the_memory_another_machine_pushed(tmp_path, isolated_home):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    proj = _project(tmp_path)
    other = Machine(tmp_path, remote, "other")
    other.mdir = other.data / "projects" / paths.memory_key(str(proj))
    other.add("decision", "Deploy with blue-green switches")
    other.sync()
    _write_config(isolated_home, str(remote), pull_budget_ms=8000)
    env = {**os.environ, "HOME": str(isolated_home)}
    # a new session: not "s1", the one the other machine's entry was distilled from (ADR 0034)
    done = run_hook("SessionStart", {"session_id": "s2", "cwd": str(proj), "source": "startup",
                                     "transcript_path": "/nonexistent"}, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Deploy with blue-green switches" in context
    assert any("pulled: " in line for line in hook_log(paths.claude_dir(env)))


def _kill_every_group_of(home) -> None:
    """SIGKILL the process group of every process started with ``HOME=home`` (not this one's): the
    pull runs git in a group of its own (proc.run), which killing the pull's group leaves waiting
    on the remote for its whole timeout."""
    mine = os.getpgid(0)
    for pid in started_with_home(home):
        try:
            group = os.getpgid(pid)
            if group != mine:
                os.killpg(group, 9)
        except OSError:
            continue


def test_a_slow_remote_never_holds_the_hook(tmp_path, isolated_home):
    proj = _project(tmp_path)
    mdir = Path(paths.memory_root(None)) / paths.memory_key(str(proj))
    mdir.mkdir(parents=True)
    (mdir / "decisions.jsonl").write_text(json.dumps({"type": "decision", "summary": "Local memory still shows",
                                                      "ts": "2026-11-01T10:00:00+00:00"}) + "\n")
    _write_config(isolated_home, "ssh://git.example.invalid/team/demo.git", pull_budget_ms=200)
    marker = tmp_path / "ssh-ran"
    # why: a remote that never answers, without any network: git's ssh is a command that waits
    slow = f"sh -c 'touch {marker}; sleep 120' --"
    env = {**os.environ, "HOME": str(isolated_home), "GIT_SSH_COMMAND": slow}
    done = run_hook("SessionStart", {"session_id": "s1", "cwd": str(proj), "source": "startup",
                                     "transcript_path": "/nonexistent"}, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Local memory still shows" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    line = [ln for ln in hook_log(paths.claude_dir(env)) if "SessionStart" in ln][-1]
    assert "still running" in line and "remote slow or offline" in line
    pid = int(line.split("pull pid ")[1].split()[0])
    os.kill(pid, 0)  # the pull is still waiting on the remote: the hook did not wait for it
    _kill_every_group_of(isolated_home)  # the pull, and git's fetch in its own group with the stand-in ssh
    # the next start within the interval does not try again
    again = run_hook("SessionStart", {"session_id": "s2", "cwd": str(proj), "source": "startup",
                                      "transcript_path": "/nonexistent"}, env=env, timeout=60)
    assert again.returncode == 0
    assert "pull" not in [ln for ln in hook_log(paths.claude_dir(env)) if "SessionStart" in ln][-1]


def test_auto_sync_runs_at_most_every_interval(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    m = Machine(tmp_path, remote, "m")
    m.add("decision", "one")
    now = time.time()
    assert "pushed" in sync.auto_sync(m.cfg, m.env, now)
    m.add("decision", "two")
    assert sync.auto_sync(m.cfg, m.env, now + 60) is None
    assert "pushed" in sync.auto_sync(m.cfg, m.env, now + 6 * 60)
    assert "two" in _git("--git-dir", str(remote), "show", "main:projects/-work-demo/decisions.jsonl")
    m.cfg["sync"]["auto"] = False
    assert sync.auto_sync(m.cfg, m.env, now + 3600) is None


def test_project_identity_follows_the_origin_url(tmp_path):
    forms = ["git@github.com:team/demo.git", "https://github.com/team/demo", "ssh://git@github.com/team/demo.git",
             "https://someone@github.com/team/demo.git/"]
    keys = set()
    for n, url in enumerate(forms):
        proj = tmp_path / f"clone{n}"
        proj.mkdir()
        _git("init", "-q", str(proj))
        _git("-C", str(proj), "remote", "add", "origin", url)
        keys.add(paths.memory_key(str(proj)))
    assert len(keys) == 1 and not keys.pop().startswith("-")
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    _git("init", "-q", str(lonely))
    assert paths.memory_key(str(lonely)) == paths.project_key(str(lonely))
    other = tmp_path / "other"
    other.mkdir()
    _git("init", "-q", str(other))
    _git("-C", str(other), "remote", "add", "origin", "git@github.com:team/demo-2.git")
    assert paths.memory_key(str(other)) not in {paths.memory_key(str(tmp_path / "clone0"))}
    assert config.defaults()["sync"]["remote"] == ""
    assert subprocess.run(["git", "--version"], capture_output=True).returncode == 0


def test_a_sync_repository_others_could_write_is_told_to_the_person_at_the_start(tmp_path, isolated_home):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    proj = _project(tmp_path)
    _write_config(isolated_home, str(remote), pull_budget_ms=8000)
    env = {**os.environ, "HOME": str(isolated_home)}
    sync.run(config.load(env), env)
    gitdir = os.path.join(paths.data_dir(env), ".git")
    os.chmod(os.path.join(gitdir, "config"), 0o666)
    done = run_hook("SessionStart", {"session_id": "s2", "cwd": str(proj), "source": "startup",
                                     "transcript_path": "/nonexistent"}, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    told = json.loads(done.stdout)["systemMessage"]
    assert "open to group or others" in told and os.path.join(gitdir, "config") in told, told
    assert "lh doctor" in told
    from lazy_harness.hooks import start_pull
    from lazy_harness.sync import repo

    refused = repo.gitdir_refusal(paths.data_dir(env))
    assert refused is not None and start_pull.SYNC_REFUSED in refused.message
