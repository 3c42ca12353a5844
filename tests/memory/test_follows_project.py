"""Memory follows its project (docs/how/project-key.md, ADR 0035): when a repository gains an origin,
its project-scoped learnings stay its own (an alias of its earlier key in ``aliases.jsonl``), and
every reader agrees: SessionStart, prompt recall, ``lh memory search`` and ``lh memory show``."""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.memory import aliases, last_key, migrate, migrate_merge, store
from lazy_harness.project_identity import project_name, project_root
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import SID, run_hook, spawned_workers_gone
from tests.support import memory_samples as ms

NOW = time.time()
TITLES = ("Staging host is stage-7.internal", "Deploy windows are on Tuesdays", "The api pins psycopg 3.1")


def write_as_session(root: str, distilled: dict, session: str = "sess-a") -> None:
    """What the worker writes for a session of the project at ``root`` (memory.store, same meta)."""
    mdir = paths.memory_dir(root)
    meta = {"project": project_name(root), "project_folder": os.path.basename(mdir), "session_id": session,
            "task_id": "t-1", "cwd": root}
    store.persist(distilled, mdir, paths.learnings_dir(), meta, NOW - 60)


def learning(title: str) -> dict:
    return {"title": title, "learning": f"{title}: noted while deploying the api.", "context": "A deploy.",
            "scope": "project", "tags": ["deploy", "staging"]}


def add_origin(root: str, url: str = "git@github.com:team/api.git") -> None:
    with open(os.path.join(root, ".git", "config"), "a", encoding="utf-8") as fh:
        fh.write(f'[remote "origin"]\n\turl = {url}\n')


def start(root: str, sid: str = SID) -> str:
    r = run_hook("SessionStart", {"session_id": sid, "cwd": root, "hook_event_name": "SessionStart",
                                  "source": "startup"})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    spawned_workers_gone(timeout=120)  # the worker a start asks for the index (ADR 0042) is done before going on
    out = json.loads(r.stdout) if r.stdout else {}
    return (out.get("hookSpecificOutput") or {}).get("additionalContext", "")


def shown(text: str) -> int:
    return sum(1 for t in TITLES if t in text)


def project_with_three(tmp_path) -> str:
    root = ms.make_project(tmp_path / "work", "api")
    write_as_session(root, {"learnings": [learning(t) for t in TITLES],
                            "decisions": [{"summary": "Deploy the api with the blue green script"}]})
    return root


def test_an_origin_gained_keeps_the_projects_learnings_everywhere(tmp_path):
    root = project_with_three(tmp_path)
    before = paths.memory_dir(root)
    assert shown(start(root)) == 3
    add_origin(root)
    after = paths.memory_dir(root)
    assert after != before and os.path.basename(after).startswith("git-")
    assert shown(start(root, sid="second")) == 3
    assert "blue green" in start(root, sid="third")
    assert aliases.owned(after).keys == {os.path.basename(after), os.path.basename(before)}
    found = invoke("memory", "search", "staging", "deploy", "--project", root)
    assert found.code == 0 and "stage-7" in found.out and "[project-only" not in found.out, found.out
    listed = invoke("memory", "show", "--project", root).out
    assert all(listed.count(t) >= 2 for t in TITLES), listed  # in what the session gets, and in the list
    r = run_hook("UserPromptSubmit", {"session_id": "p-1", "cwd": root, "hook_event_name": "UserPromptSubmit",
                                      "prompt": "where does the api staging deploy go, which stage host"})
    assert r.returncode == 0 and b"stage-7" in r.stdout


def test_another_project_with_the_same_folder_name_does_not_get_them(tmp_path):
    root = project_with_three(tmp_path)
    add_origin(root)
    other = ms.make_project(tmp_path / "clients", "api")
    write_as_session(other, {"decisions": [{"summary": "Deploy the client api by hand"}]}, session="sess-o")
    start(root)
    assert shown(start(other)) == 0
    assert "stage-7" not in invoke("memory", "search", "staging", "deploy", "--project", other).out


def test_the_alias_is_written_once_and_a_cut_run_is_completed(tmp_path, monkeypatch):
    root = project_with_three(tmp_path)
    old = paths.memory_dir(root)
    add_origin(root)
    new = paths.memory_dir(root)
    real_merge = migrate_merge.merge_jsonl

    def cut(*a, **k):
        raise KeyboardInterrupt  # a kill after the alias, before any file moved

    monkeypatch.setattr(migrate_merge, "merge_jsonl", cut)
    try:
        migrate.migrate(new, paths.project_key(root), root, None, NOW)
    except KeyboardInterrupt:
        pass
    assert os.path.basename(old) in aliases.owned(new).keys
    assert os.path.exists(os.path.join(old, "decisions.jsonl"))
    monkeypatch.setattr(migrate_merge, "merge_jsonl", real_merge)
    for _ in range(2):
        migrate.migrate(new, paths.project_key(root), root, None, NOW)
    with open(os.path.join(new, aliases.FILE)) as fh:
        assert len(fh.read().splitlines()) == 1
    with open(os.path.join(new, "decisions.jsonl")) as fh:
        assert len(fh.read().splitlines()) == 1
    assert shown(start(root)) == 3


def test_a_symlinked_project_folder_has_the_key_and_memory_of_its_real_folder(tmp_path):
    root = project_with_three(tmp_path)
    link = tmp_path / "shortcut"
    link.symlink_to(root, target_is_directory=True)
    assert paths.memory_key(project_root(str(link))) == paths.memory_key(project_root(root))
    assert paths.memory_dir(str(link)) == paths.memory_dir(root)
    assert paths.memory_dir(str(link / "src")) == paths.memory_dir(root)  # a subfolder through the link too
    text = start(str(link))
    assert shown(text) == 3 and "blue green" in text


def set_origin(root: str, url: str) -> None:
    path = os.path.join(root, ".git", "config")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text.split('[remote "origin"]')[0] + f'[remote "origin"]\n\turl = {url}\n')


def test_a_changed_origin_takes_the_earlier_memory_along_once(tmp_path, monkeypatch):
    root = ms.make_project(tmp_path / "work", "api")
    add_origin(root, "git@gitlab.com:team/api.git")
    write_as_session(root, {"learnings": [learning(t) for t in TITLES],
                            "decisions": [{"summary": "Deploy the api with the blue green script"}]})
    first = paths.memory_dir(root)
    last_key.remember_key(root, first)  # what the worker keeps after each task
    set_origin(root, "git@github.com:team/api.git")
    now = paths.memory_dir(root)
    assert now != first

    def cut(*a, **k):
        raise KeyboardInterrupt  # killed after the files moved, before the alias

    with monkeypatch.context() as m:
        m.setattr(aliases, "record", cut)
        try:
            migrate.migrate(now, paths.project_key(root), root, None, NOW)
        except KeyboardInterrupt:
            pass
    assert os.path.exists(os.path.join(now, "decisions.jsonl"))
    text = start(root)
    assert shown(text) == 3 and "blue green" in text
    assert aliases.owned(now).keys == {os.path.basename(now), os.path.basename(first)}
    with open(os.path.join(now, "decisions.jsonl")) as fh:
        assert len(fh.read().splitlines()) == 1
    # a remote key's folder is every synced machine's: copied, never emptied (ADR 0035, amended)
    assert os.path.exists(os.path.join(first, "decisions.jsonl"))
    found = invoke("memory", "search", "staging", "deploy", "--project", root)
    assert "stage-7" in found.out and "[project-only" not in found.out, found.out


def test_a_folder_name_no_system_call_takes_still_names_a_project():
    assert project_root("/no/such\x00folder") == "/no/such\x00folder"


def test_an_origin_changed_before_any_write_under_the_first_one_keeps_every_entry(tmp_path):
    """A typo in the remote fixed (or the remote removed) before the worker wrote under it: the start
    that moved the memory to the first remote's key must say so, or the next move looks for it in the
    emptied path-keyed folder and the decisions, failures and open items stay behind unseen."""
    root = ms.make_project(tmp_path / "work", "api")
    write_as_session(root, {"learnings": [learning(t) for t in TITLES],
                            "decisions": [{"summary": "Deploy the api with the blue green script"}],
                            "failures": [{"summary": "The smoke test timed out against stage-7"}],
                            "handoff": ["Finish the rollback script for stage-7"]})
    last_key.remember_key(root, paths.memory_dir(root))  # the worker's record after that session
    add_origin(root, "git@github.com:team/apj.git")
    start(root, sid="second")  # moves the memory under the first remote's key
    for url in ("git@github.com:team/api.git", None):  # fixed, then removed
        if url:
            set_origin(root, url)
        else:
            with open(os.path.join(root, ".git", "config"), encoding="utf-8") as fh:
                text = fh.read()
            with open(os.path.join(root, ".git", "config"), "w", encoding="utf-8") as fh:
                fh.write(text.split('[remote "origin"]')[0])
        text = start(root, sid=f"after-{url}")
        assert shown(text) == 3 and "blue green" in text and "smoke test" in text and "rollback" in text, text
        listed = invoke("memory", "show", "--project", root).out
        assert "blue green" in listed and "smoke test" in listed and "rollback" in listed, listed


def test_memory_kept_under_a_relative_origins_key_follows_the_project_after_the_upgrade(tmp_path, monkeypatch):
    """An earlier version keyed a repository whose origin is ``../api.git`` by that path, as if it were
    a host's (two such repositories shared one folder). Now such an origin names no project: the key
    is the path key, and what the old key held comes along (the same repository, ADR 0035)."""
    root = ms.make_project(tmp_path / "work", "api")
    add_origin(root, "../api.git")
    with monkeypatch.context() as m:
        m.setattr(paths, "memory_key", lambda r: paths.remote_key("../api.git"))  # the earlier version's key
        write_as_session(root, {"learnings": [learning(t) for t in TITLES],
                                "decisions": [{"summary": "Deploy the api with the blue green script"}]})
        first = paths.memory_dir(root)
        last_key.remember_key(root, first)
    assert paths.memory_dir(root) != first and paths.memory_key(root) == paths.project_key(root)
    text = start(root)
    assert shown(text) == 3 and "blue green" in text
