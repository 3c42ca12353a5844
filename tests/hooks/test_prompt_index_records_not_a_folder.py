"""Something not a folder where the index's writer keeps its records of what it read
(``<cache>/recall/seen``: a file, a FIFO): every update of the index fails at its end and every session
start asks for another, while prompts read what the index holds. ``lh doctor`` named it; the prompt
hook said nothing in hooks.log, and ``lh memory reindex`` named only a temporary file inside it. Both
name the real path now."""

import os

import pytest

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import hook_log
from tests.hooks.test_user_prompt import PROMPT, ask, project  # noqa: F401 (the fixture)


def _odd_records(make) -> str:
    seen = paths.recall_seen_dir(paths.recall_index_file())
    os.rename(seen, seen + ".was")
    make(seen)
    return seen


@pytest.mark.parametrize("make", [lambda p: open(p, "w").close(), os.mkfifo], ids=["file", "fifo"])
def test_the_prompt_hook_names_what_stands_in_place_of_the_index_records(project, make):  # noqa: F811
    ask(project, PROMPT)  # the index built, its records kept
    seen = _odd_records(make)
    out = ask(project, PROMPT, sid="a1b2c3d4-0000-4000-8000-000000000001", index_first=False)
    assert out is not None  # the prompt still gets what the index holds
    line = hook_log(paths.claude_dir())[-1]
    assert seen in line and "not a folder" in line, line


def test_reindex_names_the_records_folder_not_a_temporary_file(project):  # noqa: F811
    ask(project, PROMPT)
    seen = _odd_records(lambda p: open(p, "w").close())
    got = invoke("memory", "reindex")
    assert got.code == 1
    [said] = got.err.splitlines()
    assert f"{seen} is a file, not a folder" in said and ".tmp" not in said, said
    assert "mv " in said, said
