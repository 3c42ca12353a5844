"""memory/migrate.py: a key that changed at a project's path is taken over only when the repository
there is the one last written under it (ADR 0035, amended). The last-key file keeps the commit HEAD
pointed at (or, before the first commit, the git folder's device and inode); an unrelated repository
made in a folder where another project used to be starts empty, and the log names ``lh memory adopt``."""

import json
import os
import shutil
import time

import pytest

from lazy_harness import paths, project_identity
from lazy_harness.memory import aliases, last_key, migrate
from tests.hooks.hookrun import hook_log
from tests.memory.test_follows_project import learning, start, write_as_session
from tests.memory.test_identity_review_fixes import worked_in
from tests.support import memory_samples as ms
from tests.support.git_repos import git

NOW = time.time()
PAYMENTS = ("Payments: use idempotency keys", "Payments secret rotation is monthly", "Finish the refund flow")


def repo(path: str, content: str, origin: str | None = None) -> str:
    """A real repository at ``path`` with one commit of its own ``content`` (two repositories made in
    the same second with the same content would share their commit: they would be one history)."""
    os.makedirs(path)
    git("init", "-q", cwd=path)
    with open(os.path.join(path, "README"), "w", encoding="utf-8") as fh:
        fh.write(content)
    git("add", ".", cwd=path)
    git("commit", "-q", "-m", content, cwd=path)
    if origin:
        git("remote", "add", "origin", origin, cwd=path)
    return path


def payments_memory(root: str) -> str:
    """A decision, a learning and an open item written for ``root`` as the worker does, key kept."""
    mdir = paths.memory_dir(root)
    migrate.migrate(mdir, paths.project_key(root), root, None, NOW)
    write_as_session(root, {"decisions": [{"summary": PAYMENTS[0]}], "learnings": [learning(PAYMENTS[1])],
                            "handoff": [PAYMENTS[2]]})
    last_key.remember_key(root, mdir)
    return mdir


def shows_payments(text: str) -> list[str]:
    return [t for t in PAYMENTS if t in text]


def adopt_hinted(old_key: str) -> bool:
    return any("lh memory adopt" in ln and old_key in ln for ln in hook_log(paths.claude_dir()))


def test_an_unrelated_repository_in_a_reused_folder_does_not_take_the_earlier_projects_memory(tmp_path):
    app = str(tmp_path / "src" / "app")
    repo(app, "payments", origin="git@github.com:acme/payments.git")
    payments = payments_memory(app)
    assert shows_payments(start(app)) == list(PAYMENTS)
    shutil.rmtree(app)
    repo(app, "game engine", origin="git@github.com:someone/game-engine.git")
    game = paths.memory_dir(app)
    assert game != payments
    assert shows_payments(start(app, sid="game")) == []
    assert os.path.exists(os.path.join(payments, "decisions.jsonl"))
    assert os.path.basename(payments) not in aliases.owned(game).keys
    assert adopt_hinted(os.path.basename(payments))
    assert shows_payments(start(app, sid="game-again")) == []  # nor at a later start


def test_a_new_repository_where_a_moved_project_was_does_not_take_its_memory(tmp_path):
    old = str(tmp_path / "src" / "api")
    repo(old, "api")
    path_key = worked_in(old, session="a1")
    git("remote", "add", "origin", "git@github.com:team/api.git", cwd=old)
    assert "Deploy the api" in start(old, sid="a2")  # the origin gained: its memory moved along
    a_key = paths.memory_dir(old)
    os.makedirs(str(tmp_path / "work"))
    moved = str(tmp_path / "work" / "api")
    os.rename(old, moved)
    repo(old, "another api")  # project B, no origin: keyed by the path A had
    assert paths.memory_dir(old) == path_key
    worked_in(old, session="b1", full=False)
    assert "Deploy the api" not in start(old, sid="b2")
    assert os.path.basename(a_key) not in aliases.owned(path_key).keys
    assert os.path.exists(os.path.join(a_key, "decisions.jsonl"))
    assert "Deploy the api" in start(moved, sid="a3")


def test_a_path_keyed_memory_is_not_aliased_into_an_unrelated_repository_made_at_its_path(tmp_path):
    app = str(tmp_path / "src" / "app")
    repo(app, "payments")  # no origin: its memory is keyed by the path
    payments = payments_memory(app)
    shutil.rmtree(app)
    repo(app, "game engine", origin="git@github.com:someone/game-engine.git")
    game = paths.memory_dir(app)
    for sid in ("game", "game-again"):
        assert shows_payments(start(app, sid=sid)) == []
        assert os.path.basename(payments) not in aliases.owned(game).keys
        assert os.path.exists(os.path.join(payments, "decisions.jsonl"))


@pytest.mark.parametrize("packed", [False, True])
def test_the_same_repository_with_new_commits_still_takes_its_memory_when_its_origin_changes(tmp_path, packed):
    app = str(tmp_path / "src" / "app")
    repo(app, "payments", origin="git@github.com:acme/payments.git")
    payments = payments_memory(app)
    with open(os.path.join(app, "more"), "w", encoding="utf-8") as fh:
        fh.write("more")
    git("add", ".", cwd=app)
    git("commit", "-q", "-m", "more", cwd=app)  # HEAD is no longer the commit the worker recorded
    if packed:  # the recorded commit now only in a pack, the branch only in packed-refs
        git("gc", "-q", cwd=app)
        assert not os.path.exists(os.path.join(app, ".git", "refs", "heads", "main"))
    git("remote", "set-url", "origin", "git@github.com:acme/payments-core.git", cwd=app)
    assert shows_payments(start(app)) == list(PAYMENTS)
    assert os.path.basename(payments) in aliases.owned(paths.memory_dir(app)).keys


def test_a_repository_without_commits_is_known_by_its_git_folder(tmp_path):
    root = ms.make_project(tmp_path / "work", "api")  # a .git folder, no commit yet
    add = os.path.join(root, ".git", "config")
    with open(add, "a", encoding="utf-8") as fh:
        fh.write('[remote "origin"]\n\turl = git@github.com:team/api.git\n')
    first = payments_memory(root)
    with open(add, "w", encoding="utf-8") as fh:
        fh.write('[remote "origin"]\n\turl = git@github.com:team/api-core.git\n')
    assert shows_payments(start(root)) == list(PAYMENTS)  # the same git folder: taken over
    assert os.path.basename(first) in aliases.owned(paths.memory_dir(root)).keys


def test_a_last_key_file_without_an_identity_is_read_as_before(tmp_path):
    app = str(tmp_path / "src" / "app")
    repo(app, "payments", origin="git@github.com:acme/payments.git")
    payments = payments_memory(app)
    record = paths.last_key_file(app)
    with open(record, encoding="utf-8") as fh:
        key, root = fh.read().split("\n")[:2]
    with open(record, "w", encoding="utf-8") as fh:
        fh.write(f"{key}\n{root}\n")  # as written before identities were kept
    git("remote", "set-url", "origin", "git@github.com:acme/payments-core.git", cwd=app)
    assert shows_payments(start(app)) == list(PAYMENTS)
    assert os.path.basename(payments) in aliases.owned(paths.memory_dir(app)).keys


def test_an_object_is_found_loose_packed_and_borrowed_and_not_found_elsewhere(tmp_path):
    a = repo(str(tmp_path / "a"), "a")
    b = repo(str(tmp_path / "b"), "b")
    first = project_identity.head_commit(a)
    assert first and project_identity.has_object(a, first) and not project_identity.has_object(b, first)
    git("gc", "-q", cwd=a)
    assert project_identity.head_commit(a) == first and project_identity.has_object(a, first)
    borrower = str(tmp_path / "c")
    git("clone", "-q", "--shared", a, borrower, cwd=str(tmp_path))
    assert project_identity.has_object(borrower, first)
    assert not project_identity.has_object(a, "0" * 40) and not project_identity.has_object(a, "../../x")


def test_a_fifo_named_like_a_pack_index_is_no_index_and_holds_nothing_up(tmp_path):
    """A repository's pack folder holding a FIFO named ``*.idx`` (a crafted checkout): the look-up
    answers "not found" at once instead of waiting for a writer that never comes (run in a child
    process, whose time limit fails the test if it waits)."""
    import subprocess
    import sys

    a = repo(str(tmp_path / "a"), "a")
    first = project_identity.head_commit(a)
    packs = os.path.join(a, ".git", "objects", "pack")
    os.makedirs(packs, exist_ok=True)
    os.mkfifo(os.path.join(packs, "pack-" + "f" * 40 + ".idx"))
    code = ("import sys; from lazy_harness import project_identity as p; "
            "print(p.has_object(sys.argv[1], sys.argv[2]), p.has_object(sys.argv[1], '1' * 40))")
    out = subprocess.run([sys.executable, "-c", code, a, first], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["True", "False"], out.stderr  # the loose one still found


def test_a_repository_made_again_before_its_first_commit_in_the_same_folder_is_another_one(tmp_path):
    """No commit yet: the git folder is told by its device, inode and the time ``git init`` wrote it,
    since a folder removed and made again at once often gets its inode back."""
    app = str(tmp_path / "src" / "app")
    os.makedirs(app)
    git("init", "-q", cwd=app)
    git("remote", "add", "origin", "git@github.com:acme/payments.git", cwd=app)
    payments = payments_memory(app)
    assert last_key.same_repository(app)
    made = os.stat(os.path.join(app, ".git", "description")).st_mtime_ns
    shutil.rmtree(app)
    os.makedirs(app)
    git("init", "-q", cwd=app)
    git("remote", "add", "origin", "git@github.com:someone/game-engine.git", cwd=app)
    description = os.path.join(app, ".git", "description")
    if os.stat(description).st_mtime_ns == made:  # why: a coarse clock; the inode is what is reused
        os.utime(description, ns=(made + 1, made + 1))
    assert not last_key.same_repository(app)
    assert shows_payments(start(app, sid="game")) == []
    assert os.path.basename(payments) not in aliases.owned(paths.memory_dir(app)).keys


def test_an_identity_kept_before_the_time_was_kept_still_matches_its_own_git_folder(tmp_path):
    app = str(tmp_path / "app")
    os.makedirs(app)
    git("init", "-q", cwd=app)
    payments_memory(app)
    record = paths.last_key_file(app)
    with open(record, encoding="utf-8") as fh:
        key, root, kept = fh.read().split("\n")[:3]
    with open(record, "w", encoding="utf-8") as fh:  # device and inode alone, as the first version kept
        fh.write(f"{key}\n{root}\n{kept.rpartition(':')[0]}\n")
    assert last_key.same_repository(app)


def rewritten_then_renamed(tmp_path) -> tuple[str, str]:
    """(root, the old key) of a project with memory whose history was then rewritten and pruned (git
    filter-repo, BFG) and pushed to a new origin: no commit left proves it is the same repository."""
    app = str(tmp_path / "src" / "app")
    repo(app, "payments", origin="git@github.com:acme/payments.git")
    payments = os.path.basename(payments_memory(app))
    git("commit", "-q", "--amend", "-m", "payments (secret removed)", cwd=app)
    git("reflog", "expire", "--expire=now", "--all", cwd=app)
    git("gc", "-q", "--prune=now", cwd=app)
    git("remote", "set-url", "origin", "git@github.com:acme/payments-clean.git", cwd=app)
    return app, payments


def test_memory_refused_after_a_rewritten_history_is_told_to_the_person_once(tmp_path):
    """A history rewritten and pruned (git filter-repo, BFG), then a new origin: nothing proves the
    repository is the one the memory was written for, so nothing is taken; the person is told (the
    systemMessage, not only hooks.log) with the command that takes it, once."""
    from tests.hooks.hookrun import run_hook

    app, payments = rewritten_then_renamed(tmp_path)

    def told(sid: str) -> str:
        r = run_hook("SessionStart", {"session_id": sid, "cwd": app, "hook_event_name": "SessionStart",
                                      "source": "startup"})
        assert r.returncode == 0, r.stderr
        return str((json.loads(r.stdout) if r.stdout else {}).get("systemMessage") or "")

    first = told("s1")
    assert f"lh memory adopt -- {payments}" in first and "another repository" in first, first
    assert "lh memory adopt" not in told("s2")


def test_a_start_nobody_sees_does_not_use_up_telling_the_person(tmp_path):
    """The first start after the new origin is a ``claude -p`` run: its message is sent, but the key
    stays unsettled, so the next start a person sees tells them too; that one settles it."""
    from tests.hooks.hookrun import run_hook

    app, payments = rewritten_then_renamed(tmp_path)

    def told(sid: str, entrypoint: str) -> str:
        r = run_hook("SessionStart", {"session_id": sid, "cwd": app, "hook_event_name": "SessionStart",
                                      "source": "startup"}, env=dict(os.environ, CLAUDE_CODE_ENTRYPOINT=entrypoint))
        assert r.returncode == 0, r.stderr
        return str((json.loads(r.stdout) if r.stdout else {}).get("systemMessage") or "")

    assert f"lh memory adopt -- {payments}" in told("s1", "sdk-cli")
    assert f"lh memory adopt -- {payments}" in told("s2", "cli")
    assert "lh memory adopt" not in told("s3", "cli")
