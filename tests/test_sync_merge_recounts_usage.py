"""``lh sync`` after a merge brought in only marks.jsonl (consolidation on another machine merged two
failures): the counts the budget cuts read are worked out again, as ``lh memory usage`` counts them."""

import json
import os

from lazy_harness import paths
from lazy_harness.memory import marks, usage, usage_log
from lazy_harness.sync.rounds import recount_usage

KEPT, DROPPED = "f-0000000b", "f-0000000a"


def _counts(mdir: str) -> dict[str, list[str]]:
    with open(usage.ranks_file(None, mdir), encoding="utf-8") as fh:
        return {ln.split()[0]: ln.split()[1:] for ln in fh if ln.strip()}


def test_a_merge_mark_brought_in_by_sync_recounts_the_usage_counts(isolated_home):
    data = paths.data_dir()
    mdir = os.path.join(paths.memory_root(None), "some-key")
    os.makedirs(mdir)
    usage_log.append(mdir, [usage_log.line("shown", 1.0, session="a", id=DROPPED, chars=10),
                            usage_log.line("shown", 2.0, session="b", id=KEPT, chars=10),
                            usage_log.line("used", 3.0, session="b", id=KEPT, evidence="make stop-dev")])
    usage_log.refresh_ranks(None, mdir)
    assert _counts(mdir)[KEPT] == ["1", "1"]
    # the merge arrives from the other machine: marks.jsonl changes, usage.jsonl does not
    with open(marks.path_of(mdir), "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"op": "merge", "id": DROPPED, "by": KEPT, "reason": "same lock", "ts": "x"}) + "\n")
    recount_usage(data, [os.path.relpath(marks.path_of(mdir), data)], None)
    got = _counts(mdir)
    assert got[KEPT] == ["2", "1"] and DROPPED not in got


def test_a_folder_whose_two_files_changed_is_recounted_once_and_others_left_alone(isolated_home, monkeypatch):
    data = paths.data_dir()
    mdir = os.path.join(paths.memory_root(None), "some-key")
    os.makedirs(mdir)
    usage_log.append(mdir, [usage_log.line("shown", 1.0, session="a", id=KEPT, chars=10)])
    seen: list[str] = []
    monkeypatch.setattr(usage_log, "refresh_ranks", lambda env, folder: seen.append(folder))
    changed = [os.path.relpath(p, data) for p in (marks.path_of(mdir), usage_log.path_of(mdir),
                                                   os.path.join(mdir, "decisions.jsonl"))]
    recount_usage(data, changed, None)
    assert [os.path.normpath(f) for f in seen] == [os.path.normpath(mdir)]
