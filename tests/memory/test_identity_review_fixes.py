"""Review r10 of ADR 0035 (memory follows its project), each defect as the person meets it, with real git
repositories: a clone's origin change leaves the other clone's memory alone, what an old folder owned
follows its memory, a renamed and adopted project keeps its memory when it gains an origin, worktrees
of a bare repository share the origin's key, a keyless learning is listed only where it belongs, and
a project whose folder exists is live without its transcripts (docs/how/project-key.md)."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import aliases, last_key, migrate
from lazy_harness.project_identity import project_root
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import learning, start, write_as_session
from tests.support import memory_samples as ms
from tests.support.git_repos import git

NOW = time.time()
DECIDED, FAILED, LEARNT = ("Deploy the api with the blue green script", "Migrations failed on the replica",
                           "Staging host is stage-7.internal")
OLD = "Legacy staging host is stage-9.internal"


def repo(path: str, origin: str | None = None) -> str:
    """A real repository at ``path`` with one commit (and an origin)."""
    os.makedirs(path)
    git("init", "-q", cwd=path)
    with open(os.path.join(path, "README"), "w", encoding="utf-8") as fh:
        fh.write("x")
    git("add", ".", cwd=path)
    git("commit", "-q", "-m", "init", cwd=path)
    if origin:
        git("remote", "add", "origin", origin, cwd=path)
    return path


def worked_in(root: str, session: str = "sess-a", full: bool = True) -> str:
    """What the worker does after a session of ``root``: the migration, the entries, the key kept."""
    mdir = paths.memory_dir(root)
    migrate.migrate(mdir, paths.project_key(root), root, None, NOW)
    distilled: dict = {"decisions": [{"summary": DECIDED if full else f"Use uv in {session}"}]}
    if full:
        distilled["failures"] = [{"summary": FAILED, "root_cause": "lag", "prevention": "wait"}]
        distilled["learnings"] = [learning(LEARNT)]
    write_as_session(root, distilled, session=session)
    last_key.remember_key(root, mdir)
    return mdir


def sees(text: str) -> tuple[bool, bool, bool]:
    return DECIDED in text, FAILED in text, LEARNT in text


# --- 1. two clones sharing a memory: one changes its origin ---------------------------------------

@pytest.mark.parametrize("change", ["fork", "removed"])
def test_one_clone_changing_its_origin_leaves_the_other_clones_memory_where_it_is(tmp_path, change):
    a = repo(str(tmp_path / "work" / "api"), origin="https://github.com/team/api.git")
    b = str(tmp_path / "scratch" / "api-fork")
    os.makedirs(os.path.dirname(b))
    git("clone", "-q", a, b, cwd=str(tmp_path))
    git("remote", "set-url", "origin", "https://github.com/team/api.git", cwd=b)
    shared = worked_in(a)
    assert worked_in(b, session="sess-b", full=False) == shared  # one memory, as documented
    if change == "fork":
        git("remote", "set-url", "origin", "git@github.com:me/api.git", cwd=b)
    else:
        git("remote", "remove", "origin", cwd=b)
    mine = paths.memory_dir(b)
    assert mine != shared
    lines = migrate.migrate(mine, paths.project_key(b), b, None, NOW)
    assert any("lh memory adopt --force" in ln and os.path.basename(shared) in ln for ln in lines), lines
    assert sees(start(a)) == (True, True, True)  # clone A still has its memory
    assert os.path.exists(os.path.join(shared, "decisions.jsonl"))
    assert os.path.basename(shared) not in aliases.owned(mine).keys


def test_a_clone_whose_folder_is_gone_no_longer_holds_the_memory_back(tmp_path):
    a = repo(str(tmp_path / "work" / "api"), origin="https://github.com/team/api.git")
    b = str(tmp_path / "scratch" / "api")
    os.makedirs(os.path.dirname(b))
    git("clone", "-q", a, b, cwd=str(tmp_path))
    git("remote", "set-url", "origin", "https://github.com/team/api.git", cwd=b)
    shared = worked_in(a)
    worked_in(b, session="sess-b", full=False)
    git("remote", "set-url", "origin", "git@github.com:me/api.git", cwd=b)
    os.rename(a, a + "-deleted")  # clone A is gone: its memory is B's to take
    assert sees(start(b)) == (True, True, True)
    assert os.path.basename(shared) in aliases.owned(paths.memory_dir(b)).keys


# --- 2. what the old folder adopted follows an origin change ----------------------------------------

def test_an_origin_change_carries_the_learnings_the_old_folder_adopted(tmp_path):
    root = repo(str(tmp_path / "work" / "api"), origin="https://github.com/team/api.git")
    first = worked_in(root)
    ms.write_learning(paths.learnings_dir(), OLD, "api", NOW - 86400 * 60, scope="project",
                      learning="The api staging deploy goes to stage-9.internal", tags=["staging", "deploy"])
    assert invoke("memory", "unassigned").code == 0
    assert len(aliases.owned(first).adopted) == 1 and OLD in start(root)
    git("remote", "set-url", "origin", "git@gitlab.com:team/api.git", cwd=root)
    now = paths.memory_dir(root)
    assert now != first
    text = start(root, sid="after")
    assert OLD in text and DECIDED in text
    assert aliases.owned(now).adopted == aliases.owned(first).adopted
    found = invoke("memory", "search", "staging", "deploy", "--project", root)
    assert "stage-9" in found.out and "[project-only" not in found.out, found.out


# --- 3. renamed, adopted, then an origin ------------------------------------------------------------

def test_a_renamed_and_adopted_project_that_gains_an_origin_keeps_all_its_memory(tmp_path):
    old = repo(str(tmp_path / "work" / "api-old"))
    worked_in(old)
    new = str(tmp_path / "work" / "api")
    os.rename(old, new)
    done = invoke("memory", "adopt", "--project", new, "--", paths.project_key(old))
    assert done.code == 0, done.out + done.err
    assert sees(start(new)) == (True, True, True)
    git("remote", "add", "origin", "git@github.com:team/api.git", cwd=new)
    assert os.path.basename(paths.memory_dir(new)).startswith("git-")
    assert sees(start(new, sid="after")) == (True, True, True)
    assert {paths.project_key(old), paths.project_key(new)} <= aliases.owned(paths.memory_dir(new)).keys


# --- 4. worktrees of a bare repository, and of a separate git folder ----------------------------------

def test_worktrees_of_a_bare_repository_share_the_origins_key_and_memory(tmp_path):
    src = repo(str(tmp_path / "src"))
    bare = str(tmp_path / "api.git")
    git("clone", "-q", "--bare", src, bare, cwd=str(tmp_path))
    git("remote", "set-url", "origin", "git@github.com:team/api.git", cwd=bare)
    main, feature = str(tmp_path / "api-main"), str(tmp_path / "api-feature")
    git("worktree", "add", "-q", main, "main", cwd=bare)
    git("worktree", "add", "-q", feature, "-b", "feature", cwd=bare)
    key = paths.memory_key(project_root(main))
    assert key.startswith("git-github.com-team-api") and paths.memory_key(project_root(feature)) == key
    assert paths.memory_dir(os.path.join(feature, "sub")) == paths.memory_dir(main)
    worked_in(main)
    assert sees(start(feature)) == (True, True, True)


def test_a_worktree_of_a_separate_git_folder_shares_the_origins_key(tmp_path):
    sep = str(tmp_path / "sep")
    os.makedirs(sep)
    git("init", "-q", "--separate-git-dir", str(tmp_path / "sep.git"), cwd=sep)
    with open(os.path.join(sep, "f"), "w", encoding="utf-8") as fh:
        fh.write("x")
    git("add", ".", cwd=sep)
    git("commit", "-q", "-m", "i", cwd=sep)
    git("remote", "add", "origin", "git@github.com:team/sep.git", cwd=sep)
    git("worktree", "add", "-q", str(tmp_path / "sep-wt"), "-b", "f2", cwd=sep)
    assert paths.memory_dir(sep) == paths.memory_dir(str(tmp_path / "sep-wt"))
    assert os.path.basename(paths.memory_dir(sep)).startswith("git-github.com-team-sep")


# --- 5. a keyless learning is listed only where it belongs --------------------------------------------

def legacy() -> str:
    return ms.write_learning(paths.learnings_dir(), OLD, "api", NOW - 86400 * 60, scope="project",
                             learning="The api staging deploy goes to stage-9.internal", tags=["staging"])


def listed_in(root: str) -> bool:
    from lazy_harness.worker import consolidate_prompt

    shown = invoke("memory", "show", "--project", root)
    assert shown.code == 0, shown.err
    own = shown.out.partition("in no project until assigned")[0]  # not what waits to be assigned, listed after
    heads = consolidate_prompt._learning_heads(paths.learnings_dir(), "api", paths.memory_dir(root))
    assert (OLD in own) == any(h.get("title") == OLD for _, h in heads), shown.out
    return OLD in own


def test_a_keyless_learning_of_two_projects_name_is_listed_in_neither_until_assigned_then_in_one(tmp_path):
    from lazy_harness import config
    from lazy_harness.ui import memory_lists, reading

    a = repo(str(tmp_path / "work" / "api"), origin="git@github.com:team/api.git")
    b = repo(str(tmp_path / "clients" / "x" / "api"))
    worked_in(a)
    worked_in(b, session="sess-b", full=False)
    legacy()
    assert not listed_in(a) and not listed_in(b)  # "shown in no project until assigned"
    lid = invoke("memory", "unassigned").out.split("lh memory assign ", 1)[1].split()[0]
    assert invoke("memory", "assign", lid, "--project", a).code == 0
    assert listed_in(a) and not listed_in(b)
    here = reading.projects(b, config.load_fast(os.environ), os.environ)[0]
    assert all(m["title"] != OLD for m in memory_lists.learnings(here)[0])


def test_a_keyless_learning_of_the_one_project_of_its_name_is_listed_there(tmp_path):
    a = repo(str(tmp_path / "work" / "api"))
    worked_in(a)
    legacy()
    assert listed_in(a)  # before the worker adopts it: the one project of its name
    other = repo(str(tmp_path / "work" / "web"))
    worked_in(other, session="sess-w", full=False)
    assert OLD not in invoke("memory", "show", "--project", other).out


# --- 6. a live project whose transcripts are gone --------------------------------------------------

def test_adopt_refuses_the_memory_of_a_project_whose_folder_exists_without_its_transcripts(tmp_path):
    x = repo(str(tmp_path / "work" / "billing"))
    y = repo(str(tmp_path / "work" / "api"))
    worked_in(x)  # the worker ran there once; Claude Code's transcripts of it are cleaned up (none here)
    key = paths.project_key(x)
    listed = invoke("memory", "path", "--old", "--project", y)
    assert listed.code == 0 and key not in listed.out, listed.out
    refused = invoke("memory", "adopt", "--project", y, "--", key)
    assert refused.code == 1 and "still exists" in refused.err + refused.out
    assert sees(start(x)) == (True, True, True)
    assert DECIDED not in start(y, sid="y")
    forced = invoke("memory", "adopt", "--force", "--project", y, "--", key)
    assert forced.code == 0, forced.err
