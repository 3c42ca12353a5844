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
    # why: with main on the remote already, the files are back to what it holds: nothing to push
    assert a.sync()["pushed"] is first_sync
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
    from lazy_harness import settings_write

    project = a.home / "proj" / ".claude"
    project.mkdir(parents=True)
    (project / "settings.json").write_text('{"hooks": {}}\n')
    backup = settings_write.backup_file(str(project / "settings.json"), a.env)
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


# --- journals: the undo copies (memory/journal.py) are scanned as what they hold --------------------
# A journal keeps each file a run changes as it was before, base64 (``before``), and the lines a run
# appended or took out as JSON strings: a secret typed into a learning by hand, then a forget, went out
# inside the forget's journal after the person edited the learning as the refusal said.

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
CUSTOM = "ACME-" + "73914285"  # a shape only a configured pattern (compound_loop.redact_patterns) knows


def _learning(m: Machine, title: str = "Deploy with the staging token") -> tuple[Path, str]:
    from lazy_harness.memory import learnings

    path, written = learnings.write_learning(
        paths.learnings_dir(None, m.env), {"title": title, "learning": "Deploy via the staging API.",
                                           "context": "deploys", "scope": "project"},
        {"project": "demo", "session_id": "s1", "task_id": "t1", "project_folder": "-work-demo"}, 1_770_000_000.0)
    assert written
    lid = next(ln.split(": ", 1)[1] for ln in Path(path).read_text().splitlines() if ln.startswith("id: "))
    return Path(path), lid


def _forget(m: Machine, lid: str) -> str:
    from lazy_harness.memory import by_hand

    run = by_hand.forget(str(m.mdir), paths.learnings_dir(None, m.env), "demo", lid, "has a token", 1_770_000_100.0)
    assert run
    return run


def _journal_copies(git_dir: Path) -> str:
    """Every journal of every commit the repository holds, its ``before`` copies base64-decoded."""
    import base64

    out = []
    for commit in _git("--git-dir", str(git_dir), "rev-list", "--all").split():
        for name in _git("--git-dir", str(git_dir), "ls-tree", "-r", "--name-only", commit).splitlines():
            if "/journal/" in name and name.endswith(".json"):
                data = json.loads(_git("--git-dir", str(git_dir), "show", f"{commit}:{name}"))
                out += [base64.b64decode(f["before"]).decode("utf-8", "replace") for f in data["files"]
                        if f.get("before")]
                out.append(json.dumps(data))
    return "\n".join(out)


def test_a_secret_in_a_forgotten_learning_never_reaches_the_remote_inside_the_journal(a, b, remote):
    """The reviewer's steps: hand edit, forget, refused on the .md line, the line removed, sync."""
    from lazy_harness.memory import by_hand

    a.add("decision", "Use SQLite for the index")
    path, lid = _learning(a)
    a.sync()
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(f"\nUse GITHUB_TOKEN={TOKEN} for the staging deploy.\n")
    _forget(a, lid)
    with pytest.raises(sync.SyncError, match=r"push refused.*\.md:\d+"):
        a.sync()
    path.write_text(path.read_text().replace(f"\nUse GITHUB_TOKEN={TOKEN} for the staging deploy.\n", "\n"))
    assert a.sync()["pushed"]
    assert TOKEN not in _history(remote) and TOKEN not in _journal_copies(remote)
    # nothing the person wants is lost: the forget is still undone, here and after a sync elsewhere
    by_hand.undo(str(a.mdir), paths.learnings_dir(None, a.env), None, 30.0, 1_770_000_200.0)
    assert "status: forgotten" not in path.read_text() and TOKEN not in path.read_text()


def test_the_journal_keeps_a_redacted_copy_and_undo_puts_the_marker_where_the_secret_was(tmp_path):
    from lazy_harness.memory import journal

    mdir = tmp_path / "mem"
    mdir.mkdir()
    notes, plain = mdir / "notes.md", mdir / "plain.md"
    notes.write_text(f"deploy with GITHUB_TOKEN={TOKEN}\n")
    plain.write_bytes(b"no secret here \xff\n")
    j = journal.Journal(str(mdir), "test", "demo", 1_770_000_000.0)
    j.track(str(notes))
    j.track(str(plain))
    notes.write_text("changed\n")
    j.record(str(notes))
    j.save()
    assert TOKEN not in Path(j.path).read_text() and TOKEN not in _journal_text(Path(j.path))
    _, restored, problems = journal.undo(str(mdir), (str(mdir),), j.run)
    assert problems == [] and str(notes) in restored
    back = notes.read_text()
    assert TOKEN not in back and back.startswith("deploy with GITHUB_TOKEN=[REDACTED")
    assert plain.read_bytes() == b"no secret here \xff\n"  # a file without one is kept byte for byte


def test_a_run_killed_before_it_changed_a_file_holding_a_secret_is_undone_without_touching_it(tmp_path):
    from lazy_harness.memory import journal

    mdir = tmp_path / "mem"
    mdir.mkdir()
    notes = mdir / "notes.md"
    notes.write_text(f"deploy with GITHUB_TOKEN={TOKEN}\n")
    j = journal.Journal(str(mdir), "test", "demo", 1_770_000_000.0)
    j.track(str(notes))
    j.intend_fields(str(notes), {"before": {}, "after": {"status": "forgotten"}}, b"would be\n")
    # killed here: nothing written
    _, restored, problems = journal.undo(str(mdir), (str(mdir),), j.run)
    assert problems == [] and restored == [str(notes)]
    assert notes.read_text() == f"deploy with GITHUB_TOKEN={TOKEN}\n"


def _journal_text(path: Path) -> str:
    import base64

    data = json.loads(path.read_text())
    return "\n".join(base64.b64decode(f["before"]).decode("utf-8", "replace") for f in data["files"] if f["before"])


def _journal_diff(rel: str, data: dict) -> str:
    """A ``--unified=0`` diff adding the journal ``data`` as memory/journal.py saves it."""
    from lazy_harness.memory import journal_format

    lines = journal_format.text(data).splitlines()
    return (f"diff --git a/{rel} b/{rel}\nnew file mode 100644\n--- /dev/null\n+++ b/{rel}\n"
            f"@@ -0,0 +1,{len(lines)} @@\n" + "".join(f"+{ln}\n" for ln in lines))


def _line_of(rel: str, data: dict, needle: str) -> str:
    from lazy_harness.memory import journal_format

    return f"{rel}:{next(n for n, ln in enumerate(journal_format.text(data).splitlines(), 1) if needle in ln)}"


def test_the_scan_reads_a_journals_base64_copies_and_its_escaped_lines():
    """What an older version wrote (the copy not redacted), a configured pattern the journal does not
    know, a mark taken out that a person edited by hand: each is named by the journal's line."""
    import base64

    from lazy_harness.sync import scan

    rel = "projects/-work-demo/journal/20260301-101010000001-ab12.json"
    bearer = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcDEF123456789xyz"  # after a tab: seen only unescaped
    mark = json.dumps({"op": "forget", "id": "d-12345678", "reason": f"Authorization: Bearer\t{bearer}"})
    old = f"---\nid: l-1\n---\n# Deploy\n\nUse GITHUB_TOKEN={TOKEN} for the staging deploy.\n"
    data = {"run": "20260301-101010000001-ab12", "kind": "forget", "project": "demo", "started": "x",
            "changes": ["forget l-1"], "undone": None,
            "files": [{"path": "../../knowledge/learnings/2026-03/deploy.md",
                       "before": base64.b64encode(old.encode()).decode(), "before_size": len(old),
                       "after_sha": "0" * 64, "appended": []},
                      {"path": "marks.jsonl", "before": base64.b64encode(b"plain\n").decode(), "before_size": 6,
                       "after_sha": "1" * 64, "appended": [], "removed": [mark]},
                      {"path": "notes.md", "before": base64.b64encode(f"ref {CUSTOM}\n".encode()).decode(),
                       "before_size": 14, "after_sha": "2" * 64, "appended": []}]}
    diff = _journal_diff(rel, data)
    copy = data["files"][0]["before"]
    assert scan._added_secrets(diff) == [_line_of(rel, data, copy), _line_of(rel, data, bearer)]
    custom = data["files"][2]["before"]
    assert scan._added_secrets(diff, (r"ACME-\d{8}",))[-1] == _line_of(rel, data, custom)
    # the same bytes in a file that is not a journal stay one opaque string, as before
    assert scan._added_secrets(diff.replace("/journal/", "/notes/")) == []


def _configure(m: Machine) -> None:
    m.cfg["compound_loop"]["redact_patterns"] = [r"ACME-\d{8}"]


def test_a_journal_copy_the_scan_refuses_names_the_journal_and_run_and_the_way_out(a, b, remote):
    """A secret of a configured shape (the journal redacts with the built-in rules only): the refusal
    names the journal and its run, says to remove it and what that costs; done, nothing of it goes out."""
    _configure(a)
    a.add("decision", "Use SQLite for the index")
    path, lid = _learning(a)
    a.sync()
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(f"\nThe staging deploy id is {CUSTOM}.\n")
    run = _forget(a, lid)
    path.write_text(path.read_text().replace(f"\nThe staging deploy id is {CUSTOM}.\n", "\n"))
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    jrel = f"projects/{a.mdir.name}/journal/{run}.json"
    assert f"{jrel}:" in exc.value.message and run in exc.value.message
    hint = exc.value.hint
    assert f"remove {a.data / jrel}" in hint and f"lh memory undo {run}" in hint and "lh sync" in hint
    assert CUSTOM not in _history(remote) + _journal_copies(remote)
    os.remove(a.data / jrel)  # what the hint says
    assert a.sync()["pushed"]
    assert CUSTOM not in _history(remote) + _journal_copies(remote)
    b.sync()
    assert "Deploy via the staging API." in (b.data / path.relative_to(a.data)).read_text()


@pytest.mark.parametrize("first_sync", [False, True], ids=["remote-has-main", "empty-remote"])
def test_an_older_versions_commit_of_a_journal_holding_a_secret_is_never_pushed(a, remote, first_sync):
    """Commits made before the scan read journals (offline, or by an older version): refused while the
    journal is there; once it is removed, the unpushed commits are rewritten and the copy never goes out."""
    import base64

    a.add("decision", "one")
    if first_sync:
        sync.ensure_repo(str(a.data), str(remote), a.env)
    else:
        a.sync()
    (a.mdir / "journal").mkdir(parents=True, exist_ok=True)
    run = "20260301-101010000001-ab12"
    old = f"Use GITHUB_TOKEN={TOKEN} for the staging deploy.\n".encode()
    (a.mdir / "journal" / f"{run}.json").write_text(json.dumps(
        {"run": run, "kind": "forget", "project": "demo", "started": "x", "changes": [], "undone": None,
         "files": [{"path": "notes.md", "before": base64.b64encode(old).decode(), "before_size": len(old),
                    "after_sha": "0" * 64, "appended": []}]}, indent=1) + "\n")
    _old_version_commits(a)
    with pytest.raises(sync.SyncError, match=f"push refused.*journal/{run}.json"):
        a.sync()
    assert TOKEN not in _journal_copies(remote)
    os.remove(a.mdir / "journal" / f"{run}.json")
    res = a.sync()
    assert res["pushed"] and res.get("rewritten")
    assert TOKEN not in _journal_copies(remote)
