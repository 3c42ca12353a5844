"""recall/readback/learnings.py: learning heads kept while their files are unchanged, brief ones for ranking's first
pass and whole ones for the learnings that can reach the section; and ranking the contenders alone
gives what ranking every head gives."""

import json
import os
import random
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.recall.readback import digest as recall
from lazy_harness.recall.readback import learnings as heads
from tests.support import memory_samples as ms

NOW = time.time()


@pytest.fixture
def learnings(tmp_path):
    ldir = str(tmp_path / "learnings")
    rng = random.Random(3)
    for i in range(60):
        ms.write_learning(ldir, f"learning {i} about {rng.choice(['hooks', 'queue', 'sync'])}",
                          rng.choice(["proj", "other", "third"]), NOW - rng.randint(0, 40) * ms.DAY,
                          learning=f"What learning {i} says.", slug=f"l-{i}", tags=[rng.choice(["read", "back"])],
                          scope=rng.choice(["general", "project"]),
                          project_folder=rng.choice([None, "proj-key", "other-key"]),
                          status=rng.choice(["active"] * 5 + ["deprecated"]))
    return ldir


def candidates(ldir: str) -> list[str]:
    return files.recent_learning_files(ldir, recall.CANDIDATES)


@pytest.mark.parametrize("n", [0, 1, 3, 6, 14, 100])
@pytest.mark.parametrize("branch", [None, "feature/hooks-queue"])
def test_ranking_the_contenders_gives_what_ranking_every_head_gives(learnings, n, branch):
    every = [heads.read_head(p) for p in candidates(learnings)]
    brief = [heads.brief(h) for h in every]
    whole = {h["path"]: h for h in every}
    chosen = [whole[h["path"]] for h in heads.contenders(brief, "proj", n, "proj-key")]
    assert ([h["path"] for h in heads.rank_learnings(chosen, "proj", branch, n, "proj-key")]
            == [h["path"] for h in heads.rank_learnings(every, "proj", branch, n, "proj-key")])
    assert len(chosen) < len(every) or n >= 14


def test_kept_heads_are_the_heads_read_from_the_files(learnings, tmp_path):
    cache = str(tmp_path / "heads.json")
    first = heads.Heads(candidates(learnings), cache)
    wanted = first.brief[:5]
    read = [first.full(h) for h in wanted]
    assert first.save() is None
    again = heads.Heads(candidates(learnings), cache)
    assert again.brief == first.brief and not again.changed
    assert [again.full(h) for h in wanted] == read == [heads.read_head(h["path"]) for h in wanted]
    assert again.save() is None and not again.changed  # nothing new: not rewritten
    with open(cache, encoding="utf-8") as fh:
        kept = json.load(fh)["heads"]
    assert sum(1 for v in kept.values() if v[4] is not None) == 5 and len(kept) == len(first.brief)


def test_two_projects_started_in_turn_keep_both_sets_of_whole_heads(learnings, tmp_path):
    cache = str(tmp_path / "heads.json")
    for wanted in (slice(0, 6), slice(20, 26), slice(0, 6), slice(20, 26)):
        got = heads.Heads(candidates(learnings), cache)
        [got.full(h) for h in got.brief[wanted]]
        got.save()
    assert not got.changed  # the last two starts found every whole head they needed kept
    with open(cache, encoding="utf-8") as fh:
        assert sum(1 for v in json.load(fh)["heads"].values() if v[4] is not None) == 12


def test_a_changed_file_is_read_again_and_a_removed_one_dropped(learnings, tmp_path):
    cache = str(tmp_path / "heads.json")
    paths_ = candidates(learnings)
    first = heads.Heads(paths_, cache)
    for h in first.brief:
        first.full(h)
    first.save()
    with open(paths_[0], encoding="utf-8") as fh:
        text = fh.read()
    with open(paths_[0], "w", encoding="utf-8") as fh:
        fh.write(text.replace("title: learning", "title: edited learning", 1))
    os.remove(paths_[1])
    again = heads.Heads(candidates(learnings), cache)
    assert again.changed and again.full(again.brief[0])["title"].startswith("edited learning")
    assert paths_[1] not in {h["path"] for h in again.brief}


@pytest.mark.parametrize("content", [b"", b"{", b"[]", b'{"version": 1, "heads": {}}',
                                     b'{"version": 2, "heads": {"x": [1, 2]}}'])
def test_a_damaged_or_older_cache_reads_as_empty(learnings, tmp_path, content):
    cache = tmp_path / "heads.json"
    cache.write_bytes(content)
    got = heads.Heads(candidates(learnings), str(cache))
    assert [h["path"] for h in got.brief] == candidates(learnings) and got.changed


def test_the_digest_keeps_its_heads_beside_the_index(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    ms.write_learning(paths.learnings_dir(), "Tail reads keep hooks flat", "proj", NOW - ms.DAY,
                      learning="Read backwards.")
    from lazy_harness import config

    text, _ = recall.build_context(root, config.defaults(), os.environ, NOW, "startup")
    assert "Tail reads keep hooks flat" in text
    assert os.path.exists(paths.learning_heads_file())


def test_brief_heads_keep_only_the_fields_a_learning_gives(learnings, tmp_path):
    """A brief head holds no field its learning leaves empty: the cache read at every start and written
    after a pull or a hand edit is a quarter smaller (fewer values to decode and to encode), and every
    reader of a brief head asks it with ``get``, so ranking and the counts read it the same."""
    cache = str(tmp_path / "heads.json")
    first = heads.Heads(candidates(learnings), cache)
    assert first.save() is None
    with open(cache, encoding="utf-8") as fh:
        kept = json.load(fh)["heads"]
    assert all(None not in v[3].values() for v in kept.values())
    assert any("project_folder" not in v[3] for v in kept.values())  # some were written without one
    again = heads.Heads(candidates(learnings), cache)
    assert again.brief == first.brief and not again.changed
    full = [heads.read_head(p) for p in candidates(learnings)]
    for h in again.brief:
        whole = next(f for f in full if f["path"] == h["path"])
        assert {k: h.get(k) for k in heads.BRIEF} == {k: whole.get(k) for k in heads.BRIEF}


def test_the_heads_cache_is_written_without_waiting_for_the_disk(learnings, tmp_path, monkeypatch):
    """A cache: a power loss that leaves it old or empty costs the next start a read of the files (the
    stamps tell an old head from a current one; an empty file reads as no cache), never a wrong head. So
    a start that rewrites it (after a pull brought a learning) does not wait for ``fsync``."""
    cache = str(tmp_path / "heads.json")
    heads.Heads(candidates(learnings), cache).save()
    ms.write_learning(learnings, "learning brought by a pull", "proj", NOW, slug="pulled")
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real_fsync(fd))
    after_pull = heads.Heads(candidates(learnings), cache)
    assert after_pull.changed and after_pull.save() is None and synced == []
    with open(cache, "w", encoding="utf-8"):
        pass  # what a power loss may leave
    again = heads.Heads(candidates(learnings), cache)
    assert again.brief == after_pull.brief and again.changed
