"""A secret the sync scan refuses never reaches the remote, in any commit (docs/how/sync.md).

How it used to leak: the refused round had already committed the secret; after the user removed
the line as the hint said, the next push sent the whole history, secret included.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

from lazy_harness import paths, sync
from tests.cli.lhrun import invoke
from tests.test_sync import Machine, _git

SECRET = "ZZTOPSECRET998877"
LINE = json.dumps({"ts": "2026-03-06T00:00:00+00:00", "summary": f"ci deploy key: token={SECRET} rotate soon",
                   "rationale": "r"})


@pytest.fixture
def remote(tmp_path) -> Path:
    path = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(path))
    return path


@pytest.fixture
def a(tmp_path, remote) -> Machine:
    return Machine(tmp_path, remote, "a")


@pytest.fixture
def b(tmp_path, remote) -> Machine:
    return Machine(tmp_path, remote, "b")


def _history(git_dir: Path) -> str:
    """Every line of every commit the repository holds (``git log -p --all``, merges included)."""
    return _git("--git-dir", str(git_dir), "log", "-p", "-m", "--all", "--format=%H %s")


def _append_secret(m: Machine) -> None:
    with open(m.mdir / "decisions.jsonl", "a", encoding="utf-8") as fh:
        fh.write(LINE + "\n")


def _remove_secret(m: Machine) -> None:
    """What the hint says: edit the file (here ``sed -i '$d'``)."""
    path = m.mdir / "decisions.jsonl"
    path.write_text("".join(ln + "\n" for ln in path.read_text().splitlines() if SECRET not in ln))


def _old_version_commits(m: Machine, message: str = "lh sync: old version") -> None:
    """What lazy-harness before the fix did in a refused round: commit everything, scan later."""
    _git("add", "-A", cwd=m.data)
    _git("commit", "-q", "--no-verify", "-m", message, cwd=m.data)


@pytest.mark.parametrize("first_sync", [False, True], ids=["remote-has-main", "empty-remote"])
def test_refuse_edit_sync_never_puts_the_secret_on_the_remote(a, b, remote, first_sync):
    a.add("decision", "Use SQLite for the index")
    if not first_sync:
        a.sync()
    _append_secret(a)
    with pytest.raises(sync.SyncError, match="push refused"):
        a.sync()
    assert SECRET not in _history(a.data / ".git")  # the refused state was never committed
    _remove_secret(a)
    assert a.sync()["pushed"]
    assert SECRET not in _history(remote)
    b.sync()
    assert [json.loads(ln)["summary"] for ln in (b.mdir / "decisions.jsonl").read_text().splitlines()] == [
        "Use SQLite for the index"]


def test_the_hint_says_to_edit_the_file_not_to_forget_the_entry(a):
    a.add("decision", "kept")
    _append_secret(a)
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    assert "decisions.jsonl" in exc.value.message
    assert "forget" not in exc.value.hint and "edit" in exc.value.hint


@pytest.mark.parametrize("remote_moved", [False, True], ids=["alone", "after-a-merge"])
def test_commits_an_older_version_left_with_a_secret_are_rewritten_before_the_push(a, b, remote, remote_moved):
    a.add("decision", "one")
    a.sync()
    on_remote = _git("--git-dir", str(remote), "rev-parse", "main").strip()
    _append_secret(a)
    _old_version_commits(a)
    if remote_moved:  # another machine pushed: a's round merges, the secret sits behind a merge commit
        b.add("decision", "from b")
        b.sync()
        pushed_by_b = _git("--git-dir", str(remote), "rev-parse", "main").strip()
        with pytest.raises(sync.SyncError, match="push refused"):
            a.sync()  # still in the file: refused, and nothing of it went out
        assert SECRET not in _history(remote)
    _remove_secret(a)
    two = a.add("decision", "two")
    assert a.sync()["pushed"]
    assert SECRET not in _history(remote)
    # the remote's own commits are untouched: what was pushed before is still in main's history
    for commit in [on_remote] + ([pushed_by_b] if remote_moved else []):
        _git("--git-dir", str(remote), "merge-base", "--is-ancestor", commit, "main")
    b.sync()
    assert two in b.ids("decision") and len(b.ids("decision")) == (3 if remote_moved else 2)


def test_an_older_version_commit_on_a_first_sync_is_rewritten_into_one_root_commit(a, remote):
    a.add("decision", "one")
    sync.ensure_repo(str(a.data), str(remote), a.env)  # the old version's refused round made the repo
    _append_secret(a)
    _old_version_commits(a)
    _remove_secret(a)
    assert a.sync()["pushed"]
    assert SECRET not in _history(remote)
    assert _git("--git-dir", str(remote), "rev-list", "--count", "main").strip() == "1"


def test_a_secret_already_on_the_remote_does_not_block_other_machines(a, b, remote):
    """Pushed by an older version (or by hand) from another machine: it is there already, so a merge
    that brings it here is not refused; a's own commit with the same line is still rewritten."""
    a.add("decision", "one")
    a.sync()
    b.sync()
    _append_secret(b)
    _old_version_commits(b)
    _git("push", "-q", "origin", "HEAD:refs/heads/main", cwd=b.data)
    _append_secret(a)
    _old_version_commits(a)  # the same line, committed by an old version on a too
    mine = _git("rev-parse", "HEAD", cwd=a.data).strip()
    a.add("decision", "two")
    assert a.sync()["pushed"]
    assert subprocess.run(["git", "--git-dir", str(remote), "cat-file", "-e", mine]).returncode != 0
    shown = _git("--git-dir", str(remote), "show", f"main:projects/{a.mdir.name}/decisions.jsonl")
    assert "two" in shown and shown.count(SECRET) == 1


def test_lh_sync_refuse_edit_sync_from_the_command_line(tmp_path, isolated_home, remote, project):
    cfg_file = isolated_home / ".config" / "lazy-harness" / "config.toml"
    cfg_file.parent.mkdir(parents=True)
    cfg_file.write_text(f'[sync]\nremote = "{remote}"\n')
    mdir = Path(paths.memory_dir(str(project)))
    mdir.mkdir(parents=True, exist_ok=True)
    decisions = mdir / "decisions.jsonl"
    decisions.write_text(json.dumps({"ts": "2026-03-05T00:00:00+00:00", "summary": "s", "rationale": "r"}) + "\n")
    assert invoke("sync").code == 0
    with open(decisions, "a", encoding="utf-8") as fh:
        fh.write(LINE + "\n")
    refused = invoke("sync")
    assert refused.code == 1 and "push refused" in refused.err and "decisions.jsonl:2" in refused.err
    assert "forget" not in refused.err
    decisions.write_text(decisions.read_text().splitlines(keepends=True)[0])  # sed -i '$d'
    done = invoke("sync")
    assert done.code == 0 and "pushed" in done.out
    assert SECRET not in _history(remote)
    assert SECRET not in _history(Path(paths.data_dir()) / ".git")
    assert os.path.exists(decisions)


def test_backups_of_settings_files_stay_on_this_machine(a, remote):
    """lh hooks install --project backs a project's settings up in the data folder: they name this
    machine's interpreter, and are never pushed."""
    from lazy_harness import settings

    project = a.home / "proj" / ".claude"
    project.mkdir(parents=True)
    (project / "settings.json").write_text('{"hooks": {}}\n')
    backup = settings.backup_file(str(project / "settings.json"), a.env)
    os.makedirs(os.path.dirname(backup), exist_ok=True)
    Path(backup).write_text('{"python": "/home/a/.venv/bin/python"}\n')
    assert backup.startswith(str(a.data))
    a.add("decision", "Use SQLite")
    a.sync()
    assert "/home/a/.venv/bin/python" not in _history(remote)
    assert "Use SQLite" in _history(remote)


def test_a_quoted_secret_escaped_inside_a_jsonl_line_is_refused(a, remote):
    a.mdir.mkdir(parents=True, exist_ok=True)
    with open(a.mdir / "decisions.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"summary": 'db password="Qx7hunter2Zq" set by hand'}) + "\n")
    with pytest.raises(sync.SyncError, match="push refused"):
        a.sync()
    assert "Qx7hunter2Zq" not in _history(remote)


def test_a_remote_whose_tree_holds_a_symbolic_link_is_refused_and_nothing_is_checked_out(tmp_path, a, remote):
    """Whoever can push to the remote must not choose where this machine writes: a `projects` link
    pointing out of the data folder would take every later write of the worker with it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    src = tmp_path / "evil"
    (src / "knowledge").mkdir(parents=True)
    os.symlink(outside, src / "projects")
    _git("init", "-q", "-b", "main", cwd=src)
    _git("add", "-A", cwd=src)
    _git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-qm", "links", cwd=src)
    _git("push", "-q", str(remote), "main", cwd=src)
    with pytest.raises(sync.SyncError, match="symbolic link at 'projects'"):
        a.sync()
    assert not os.path.islink(a.data / "projects")
    a.add("decision", "Use SQLite")  # the worker's next write stays in the data folder
    assert (a.data / "projects").is_dir() and list(outside.iterdir()) == []


def test_a_secret_over_several_added_lines_refuses_the_push_too():
    """A learning edited by hand with a YAML block value (``password: |`` and the secret on the next
    line) holds a secret in no line alone: each run of added lines is read together as well."""
    from lazy_harness.sync import scan

    diff = ("diff --git a/knowledge/l.md b/knowledge/l.md\n--- /dev/null\n+++ b/knowledge/l.md\n"
            "@@ -0,0 +1,6 @@\n+# Deploy notes\n+```yaml\n+password: |\n+    S3cretPw99xQ\n+```\n+end\n"
            "diff --git a/knowledge/m.md b/knowledge/m.md\n--- a/knowledge/m.md\n+++ b/knowledge/m.md\n"
            "@@ -3,0 +4,2 @@\n+plain words only\n+and more plain words\n")
    assert scan._added_secrets(diff) == ["knowledge/l.md:1"]


@pytest.mark.parametrize("breaker", ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\r"])
def test_a_secret_after_a_character_python_reads_as_a_line_end_is_still_scanned(breaker):
    """Git ends a diff's lines with ``\\n`` only: a hand edit holding U+2028 (text pasted from a chat or
    a web page) or a form feed before a token is one added line, and all of it is scanned."""
    from lazy_harness.sync import scan

    token = "ghp_" + "Byp4ssByp4ssByp4ssByp4ssByp4ssByp4ss12"
    diff = ("diff --git a/knowledge/l.md b/knowledge/l.md\n--- a/knowledge/l.md\n+++ b/knowledge/l.md\n"
            f"@@ -3,0 +4,2 @@\n+plain words\n+bot notes{breaker}token {token}\n")
    assert scan._added_secrets(diff) == ["knowledge/l.md:5"]
