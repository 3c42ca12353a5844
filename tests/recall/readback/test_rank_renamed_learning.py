"""A learning file renamed by hand without the date its name began with is ranked by the day it is dated
by (``learnings.day_of``: its frontmatter's ``created``), not as newer than every dated one."""

import json
import os
import time

import pytest

from lazy_harness.memory import files
from lazy_harness.recall.readback import digest
from lazy_harness.recall.readback import learnings as heads
from tests.support import memory_samples as ms

NOW = time.time()


def _renamed(path: str, name: str = "zebra-notes.md") -> str:
    new = os.path.join(os.path.dirname(path), name)
    os.rename(path, new)
    return new


def _ranked(ldir: str, n: int) -> list[str]:
    """The paths ``n`` places give, as SessionStart ranks them: the contenders of the brief heads, read whole."""
    every = [heads.read_head(p) for p in files.recent_learning_files(ldir, digest.CANDIDATES)]
    whole = {h["path"]: h for h in every}
    chosen = [whole[h["path"]] for h in heads.contenders([heads.brief(h) for h in every], "proj", n, "proj")]
    got = [h["path"] for h in heads.rank_learnings(chosen, "proj", None, n, "proj")]
    assert got == [h["path"] for h in heads.rank_learnings(every, "proj", None, n, "proj")]
    return got


def test_an_old_learning_renamed_without_a_date_is_not_ranked_newest(tmp_path):
    ldir = str(tmp_path / "learnings")
    old = _renamed(ms.write_learning(ldir, "Old notes on queues", "proj", NOW - 30 * ms.DAY, slug="old"))
    new = ms.write_learning(ldir, "New notes on queues", "proj", NOW - 29 * ms.DAY, slug="new")
    assert _ranked(ldir, 2) == [new, old]
    assert _ranked(ldir, 1) == [new]


def test_the_newest_learning_renamed_without_a_date_stays_first(tmp_path):
    ldir = str(tmp_path / "learnings")
    for k in range(6):
        ms.write_learning(ldir, f"Older notes {k} on queues", "proj", NOW - (10 + k) * ms.DAY, slug=f"older-{k}")
    newest = _renamed(ms.write_learning(ldir, "Newest notes on queues", "proj", NOW - ms.DAY, slug="newest"))
    assert _ranked(ldir, 1) == [newest]


def test_heads_kept_before_they_carried_created_are_read_again(tmp_path):
    ldir = str(tmp_path / "learnings")
    ms.write_learning(ldir, "Notes on queues", "proj", NOW - ms.DAY, slug="notes")
    cache = str(tmp_path / "heads.json")
    paths_ = files.recent_learning_files(ldir, digest.CANDIDATES)
    first = heads.Heads(paths_, cache)
    assert first.save() is None
    with open(cache, encoding="utf-8") as fh:
        kept = json.load(fh)
    for entry in kept["heads"].values():
        entry[3].pop("created", None)  # a cache of the version before: brief heads without it
    kept["version"] = heads.VERSION - 1
    with open(cache, "w", encoding="utf-8") as fh:
        json.dump(kept, fh)
    again = heads.Heads(paths_, cache)
    assert again.changed and all(h.get("created") for h in again.brief)


@pytest.mark.parametrize("created", [None, "not a date"])
def test_a_renamed_learning_with_no_day_ranks_after_the_dated_ones(tmp_path, created):
    ldir = str(tmp_path / "learnings")
    path = ms.write_learning(ldir, "Undated notes on queues", "proj", NOW - ms.DAY, slug="undated")
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines(keepends=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("".join(ln if not ln.startswith("created:") else (f"created: {created}\n" if created else "")
                         for ln in lines))
    undated = _renamed(path)
    dated = ms.write_learning(ldir, "Dated notes on queues", "proj", NOW - 40 * ms.DAY, slug="dated")
    assert _ranked(ldir, 2) == [dated, undated]
