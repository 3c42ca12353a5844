"""One learning written on two days (two files, one id: two machines' workers, brought together by
``lh sync``) is one hit of ``lh memory search``, the file the SessionStart digest chooses (the newest),
with a note naming the other; the same with and without click."""

import json
import os

from lazy_harness.memory import learnings
from tests.cli.lhrun import invoke
from tests.cli.test_memory_same_id import TITLE, project, shown, written_twice  # noqa: F401
from tests.recall.test_search import quick


def test_search_lists_a_learning_written_on_two_days_once_naming_its_second_file(project):  # noqa: F811
    older, newer = written_twice(project)
    out = invoke("memory", "search", "heartbeat", "--project", project)
    assert out.code == 0, out.err
    [hit] = out.out.splitlines()
    assert TITLE in hit and newer in hit and f"  {os.path.basename(newer)[:10]}  " in hit  # its day, too
    assert "second file" in hit and older in hit
    fast = quick("memory", "search", "heartbeat", "--project", project)
    assert (fast.returncode, fast.stdout, fast.stderr) == (out.code, out.out, out.err)


def test_search_json_names_the_second_file(project):  # noqa: F811
    older, newer = written_twice(project)
    out = invoke("memory", "search", "heartbeat", "--json", "--project", project)
    [hit] = [json.loads(ln) for ln in out.out.splitlines()]
    assert hit["file"] == newer and hit["id"] == learnings.id_of(newer)
    assert hit["also_in"] == [older]


def test_the_newest_file_is_listed_when_only_the_older_one_holds_the_words(project):  # noqa: F811
    older, newer = written_twice(project)
    out = invoke("memory", "search", "dead", "--project", project)  # in the older file's text only
    assert out.code == 0, out.err
    [hit] = out.out.splitlines()
    assert TITLE in hit and newer in hit and hit.endswith(f"  [a second file of it: {older}]")


def test_a_title_edited_by_hand_in_one_file_makes_two_learnings_as_for_show(project):  # noqa: F811
    """The digest's rule (``learnings.once``): one id and one title are one learning. The older file,
    its title edited by hand, is a learning of its own, listed with its own title and file."""
    older, newer = written_twice(project)
    with open(older, encoding="utf-8") as fh:
        text = fh.read()
    with open(older, "w", encoding="utf-8") as fh:
        fh.write(text.replace(f"title: {TITLE}", f"title: {TITLE} always", 1))
    out = invoke("memory", "search", "dead", "--json", "--project", project)  # in the older file's text only
    [hit] = [json.loads(ln) for ln in out.out.splitlines()]
    assert hit["file"] == older and hit["title"] == f"{TITLE} always" and "also_in" not in hit
