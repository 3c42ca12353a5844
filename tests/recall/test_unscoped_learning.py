"""A learning whose frontmatter names no scope (written by hand, or before the field existed), or
``general`` in any case, is a learning of any scope but ``project`` (an unknown scope reads as
``project``, as the worker stores it: tests/memory/test_unknown_scope_status.py): SessionStart shows
it in every project (``held.belongs``), so ``lh memory search``, prompt recall (``lh memory show
--prompt``) and the page find it there too, not only ``--all-projects``."""

import os
import time

import pytest

from lazy_harness import config, paths
from lazy_harness.ui import memory_lists, reading
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
TEXT = "Zebra rows flicker without a stable sort; sort by the row id as a tie breaker."


def _write(ldir: str, head: str) -> None:
    month = os.path.join(ldir, time.strftime("%Y-%m", time.localtime(NOW)))
    os.makedirs(month, exist_ok=True)
    with open(os.path.join(month, time.strftime("%Y-%m-%d", time.localtime(NOW)) + "-zebra-tables.md"), "w") as fh:
        fh.write(f"{head}## Learning\n\n{TEXT}\n")


@pytest.mark.parametrize("head", ["---\ntitle: Zebra tables need a stable sort\nvia: hand\n---\n\n",
                                  "---\ntitle: Zebra tables need a stable sort\nscope: General\nvia: hand\n---\n\n"],
                         ids=["no-scope", "general-capitalised"])
def test_a_learning_without_project_scope_is_found_where_sessionstart_shows_it(tmp_path, head):
    # why the branch: another project's learning takes a place at the start only when it is about this one
    root = ms.make_project(tmp_path, "proj", branch="zebra-tables")
    ms.write_jsonl(os.path.join(paths.memory_dir(root), "decisions.jsonl"),
                   [ms.decision(NOW - 60, "Use sqlite for the index", "one file")])
    _write(paths.learnings_dir(), head)
    # why: a file's ``via: hand`` proves nothing (ADR 0032's amendment): it crosses once approved
    assert invoke("memory", "approve", "--all", "--project", root).code == 0
    assert invoke("memory", "reindex").code == 0
    shown = invoke("memory", "show", "--project", root)
    assert "Zebra tables" in shown.out.split("==== everything")[0]  # the SessionStart digest has it
    found = invoke("memory", "search", "zebra", "--project", root)
    assert found.code == 0 and "Zebra tables need a stable sort" in found.out, found.out + found.err
    told = invoke("memory", "show", "--prompt", "why do the zebra tables flicker without a stable sort",
                  "--project", root)
    # the prompt's search passes it (a first prompt does not repeat it: SessionStart showed it)
    why = told.out.split("==== why", 1)[1]
    assert any(line.startswith("shown") and "Zebra tables need a stable sort" in line for line in why.splitlines()), why
    project = reading.projects(root, config.load(), os.environ)[0]
    own, general = memory_lists.learnings(project)
    assert [m["title"] for m in own + general] == ["Zebra tables need a stable sort"]
