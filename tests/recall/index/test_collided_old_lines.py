"""Two decision lines written before ids were checked for collisions (ADR 0043), whose different summaries
both hash to one 8-hex id: two entries, not one edited. The rule "one text for an id" (ADR 0059, made for
a line copied and reworded by hand, its id kept) set the older aside: gone from the index (search, prompt
recall), from SessionStart's digest and from ``lh memory show``, with nothing to say it was there. Each
now stands, and ``forget`` by the shared id still refuses, naming each with an id of its own."""

import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, standing
from lazy_harness.recall.index import writer
from tests.cli.lhrun import invoke
from tests.memory.test_id_collisions import TWIN_A, TWIN_B
from tests.support import memory_samples as ms

NOW = time.time()


def two_old_twins(tmp_path, with_ids: bool) -> tuple[str, str, list[dict]]:
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    extra = {"id": "d-6e80f7ab"} if with_ids else {}
    recs = [ms.decision(NOW - 100, TWIN_A, "alpha reasons", session_id="o1", **extra),
            ms.decision(NOW - 50, TWIN_B, "beta reasons", session_id="o2", **extra)]
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), recs)
    return root, mem, recs


def test_every_reader_keeps_both_entries_of_a_collided_id(tmp_path):
    for with_ids in (False, True):
        _, _, recs = two_old_twins(tmp_path / str(with_ids), with_ids)
        assert standing.one_each(recs, "decision") == recs


def test_the_index_keeps_both_and_search_finds_each_by_its_own_words(tmp_path):
    root, mem, _ = two_old_twins(tmp_path, with_ids=False)
    writer.update(paths.recall_index_file(), [mem], None)
    alpha = invoke("memory", "search", "alpha", "--project", root)
    assert alpha.code == 0 and TWIN_A in alpha.out and TWIN_B not in alpha.out, alpha.out
    beta = invoke("memory", "search", "beta", "--project", root)
    assert beta.code == 0 and TWIN_B in beta.out and TWIN_A not in beta.out, beta.out
    show = invoke("memory", "show", "--project", root)
    assert TWIN_A in show.out and TWIN_B in show.out, show.out
    refused = invoke("memory", "forget", "d-6e80f7ab", "--project", root)
    assert refused.code == 1 and "d-6e80f7ab2" in refused.err and "d-6e80f7ab9" in refused.err, refused.err
