"""``lh memory forget`` and ``approve`` refuse a learning whose frontmatter no writer can read with
what ``lh memory check`` says of it: its file, the line and the reason."""

import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import ids, learning_damage
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time() - 3600
BREAKS = {"tab": ("tags:\n- retry", "tags:\n\t- retry", "found character '\\t'"),
          "quote": ("title: ", 'title: "unclosed ', "title: its quote does not close")}


def _learning(tmp_path, how: str) -> tuple[str, str, str]:
    """(the project that did not write it, the file, its id)."""
    ms.make_project(tmp_path, "proj")
    other = ms.make_project(tmp_path, "other")
    lid = ids.learning_id("proj", "Backoff on retries")
    path = ms.write_learning(paths.learnings_dir(), "Backoff on retries", "proj", NOW, tags=["retry"])
    was, now, _ = BREAKS[how]
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    assert was in text
    with open(path, "w", encoding="utf-8") as fh:  # its id first, as the store writes it: no quote swallows it
        fh.write(f"---\nid: {lid}\n" + text.removeprefix("---\n").replace(was, now, 1))
    return other, path, lid


@pytest.mark.parametrize("how", sorted(BREAKS))
def test_the_refusal_is_what_check_says_with_its_line(tmp_path, how):
    _, path, _ = _learning(tmp_path, how)
    said = learning_damage.refusal(path)
    assert said is not None and said.startswith(f"{path}: ") and "line " in said and BREAKS[how][2] in said, said
    assert said.removeprefix(f"{path}: ") in (learning_damage.learning_damage(path) or ""), said


@pytest.mark.parametrize("how", sorted(BREAKS))
def test_approve_names_the_file_and_line(tmp_path, how):
    other, path, lid = _learning(tmp_path, how)
    assert lid in invoke("memory", "held", "--project", other).out  # it waits: the person may try
    before = open(path, "rb").read()
    done = invoke("memory", "approve", lid, "--project", other)
    assert done.code == 1 and f"lh: {path}: " in done.err and "line " in done.err and BREAKS[how][2] in done.err, \
        done.err
    assert open(path, "rb").read() == before


def test_forget_names_the_file_and_line(tmp_path):
    other, path, lid = _learning(tmp_path, "tab")
    done = invoke("memory", "forget", lid, "--project", other)
    assert done.code == 1 and "line " in done.err and BREAKS["tab"][2] in done.err, done.err
