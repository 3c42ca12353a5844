"""A learning written before keys were recorded (``origin: api`` only) is listed as a project's own
(``aliases.Owned.lists``: ``lh memory show``, the page, consolidation) exactly when ``lh memory
unassigned`` (``owners.orphans``) gives it to that project: both count the same projects, those
Claude Code recorded sessions of, those the worker wrote for and those with a memory folder."""

import json
import os

from lazy_harness import paths
from lazy_harness.memory import aliases, frontmatter, ids, last_key, owners
from tests.cli.lhrun import invoke
from tests.memory.test_owners import OLD, legacy_learning, project
from tests.support import memory_samples as ms


def _meta(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        meta = frontmatter.parse_frontmatter(fh.read())[0]
    return {**meta, "id": ids.of_learning(meta, path=path)}


def sessions_in(root: str, session: str = "c-sess") -> None:
    """A Claude Code transcript of a session run in ``root`` (no memory written there yet)."""
    folder = os.path.join(paths.projects_dir(), paths.project_key(root))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, session + ".jsonl"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "user", "cwd": root, "sessionId": session}) + "\n")


def _owner_in_orphans(path: str) -> tuple[str | None, list[str]]:
    found = [h for h in owners.orphans(paths.memory_root(), paths.learnings_dir()) if h["path"] == path]
    assert len(found) == 1
    return found[0]["owner"], found[0]["candidates"]


def test_a_project_with_sessions_but_no_memory_yet_makes_it_unassigned_and_listed_nowhere(tmp_path):
    work = project(tmp_path / "work")
    client = ms.make_project(tmp_path / "clients", "api")
    sessions_in(client)
    path = legacy_learning()
    owner, candidates = _owner_in_orphans(path)
    assert owner is None and len(candidates) == 2
    assert not aliases.owned(paths.memory_dir(work)).lists(_meta(path), "api")
    shown = invoke("memory", "show", "--project", work)
    # listed apart, after the project's own: waiting to be assigned (cli/memory_reading.say_waiting_here)
    own, _, waiting = shown.out.partition("in no project until assigned")
    assert shown.code == 0 and OLD not in own and OLD in waiting, shown.out
    assert OLD in invoke("memory", "unassigned").out


def test_a_project_the_worker_wrote_for_counts_too(tmp_path):
    work = project(tmp_path / "work")
    client = ms.make_project(tmp_path / "clients", "api")
    last_key.remember_key(client, paths.memory_dir(client))  # its transcripts are gone, its folder is not
    path = legacy_learning()
    assert _owner_in_orphans(path)[0] is None
    assert not aliases.owned(paths.memory_dir(work)).lists(_meta(path), "api")


def test_the_one_project_of_its_name_lists_it_and_its_session_proves_it_among_two(tmp_path):
    work = project(tmp_path / "work")
    path = legacy_learning()
    assert _owner_in_orphans(path)[0] == os.path.basename(paths.memory_dir(work))
    assert aliases.owned(paths.memory_dir(work)).lists(_meta(path), "api")
    client = ms.make_project(tmp_path / "clients", "api")
    sessions_in(client, session=_meta(path)["origin_session"])  # its session ran in clients/api
    assert _owner_in_orphans(path)[0] == os.path.basename(paths.memory_dir(client))
    assert aliases.owned(paths.memory_dir(client)).lists(_meta(path), "api")
    assert not aliases.owned(paths.memory_dir(work)).lists(_meta(path), "api")
