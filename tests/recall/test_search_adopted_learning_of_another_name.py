"""A learning from before keys were recorded (``origin: api``) that a project adopted stays that
project's when the project's name changes (a renamed folder adopted with ``lh memory adopt``, a
repository whose origin names it otherwise): ``lh memory search`` finds it there, as ``lh memory show``
and the session start list it. Before, the search's scope kept a keyless learning only by its origin's
name, so the adopted one was found only with ``--all-projects``."""

import os

from lazy_harness import config, paths
from lazy_harness.worker import housekeeping
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import start
from tests.memory.test_owners import OLD, legacy_learning
from tests.memory.test_owners_adopted_counted import ran_here
from tests.support import memory_samples as ms


def test_search_in_a_renamed_project_finds_the_learning_it_adopted(tmp_path):
    root = ms.make_project(tmp_path / "work", "api")
    ran_here(root)
    legacy_learning()
    housekeeping.adopt_orphans(config.load(os.environ), os.environ)
    assert "stage-7" in invoke("memory", "search", "staging", "--project", root).out
    old_key = os.path.basename(paths.memory_dir(root))
    renamed = str(tmp_path / "work" / "api-v2")
    os.rename(root, renamed)
    assert invoke("memory", "adopt", "--project", renamed, "--", old_key).code == 0
    shown = invoke("memory", "show", "--section", "learnings", "--project", renamed).out
    found = invoke("memory", "search", "staging", "--project", renamed)
    text = start(renamed)
    assert OLD in shown, shown
    assert "stage-7" in found.out and "[project-only" not in found.out, found.out + found.err
    assert OLD in text, text


def test_prompt_recall_in_a_renamed_project_gives_the_learning_it_adopted(tmp_path):
    """The prompt hook's scope (``lookup.scope_sql``) kept a keyless learning by its origin's name only:
    in the renamed folder the adopted learning was no candidate at all (hooks.log: candidates=0)."""
    from lazy_harness.recall.prompt import recall as recall_prompt

    root = ms.make_project(tmp_path / "work", "api")
    ran_here(root)
    legacy_learning()
    housekeeping.adopt_orphans(config.load(os.environ), os.environ)
    old_key = os.path.basename(paths.memory_dir(root))
    renamed = str(tmp_path / "work" / "api-v2")
    os.rename(root, renamed)
    assert invoke("memory", "adopt", "--project", renamed, "--", old_key).code == 0
    cfg = config.load(os.environ)
    cfg["recall"]["semantic"] = False
    ms.index_now()

    text, info = recall_prompt.context_for("where does the staging deploy of the api go", renamed, cfg, os.environ)

    assert text is not None and "stage-7.internal" in text, info
