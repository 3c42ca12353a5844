"""Of two projects of one name, the one whose Claude Code folder holds a keyless learning's session
transcript owns it: the readers decide so by the folder's name (``provenance.legacy_owner``), and so does
``aliases.keyless_owner`` (the worker's adoption, ``lh memory unassigned``, the labels of ``lh memory
search``) when the transcript's ``cwd`` cannot be read. Before, the start showed the learning in that
project while ``lh memory unassigned`` listed it as in none and search labelled it unassigned."""

import os

from lazy_harness import paths
from lazy_harness.memory import owners
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import write_as_session
from tests.support import memory_samples as ms


def test_an_unreadable_transcript_in_one_projects_folder_gives_it_that_project(tmp_path):
    work = ms.make_project(tmp_path / "work", "api")
    client = ms.make_project(tmp_path / "clients" / "x", "api")
    ms.write_learning(paths.learnings_dir(), "Staging host is stage-7.internal", "api", 0, scope="project")
    sessions = os.path.join(paths.projects_dir(), paths.project_key(work))
    os.makedirs(sessions)
    open(os.path.join(sessions, "s-1.jsonl"), "w").close()  # memory_samples' origin_session, no line yet
    for root in (work, client):
        write_as_session(root, {"decisions": [{"summary": "Deploy the api with the blue green script"}]})
    [head] = owners.orphans(paths.memory_root(), paths.learnings_dir())
    assert head["owner"] == os.path.basename(paths.memory_dir(work)), head
    assert "every project learning has its project" in invoke("memory", "unassigned").out
