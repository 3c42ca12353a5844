"""``lookup.own_learnings`` given the titles wanted (``lh memory search``'s title rule, ADR 0071, each as
``own_title.title_of`` spells it) finds in the index only the learnings of those titles: what the rule
finds is the same as from every one of the project's learnings, for titles spelt otherwise, titles
outside ASCII, a learning without a title (its file's name) and a word inside another. The rows come
from the index's entry that holds them, not from the table (a project's 5,500 learnings: 44 ms to 1)."""

import os
import time

from lazy_harness import paths
from lazy_harness.memory import own_title
from lazy_harness.recall.index import lookup, store, writer
from tests.support import memory_samples as ms

NOW = time.time()
OWN = ["Retries on the nightly wombat export", "Кэш сборки чистится по пятницам", "café menu prices",
       "Redeploy windows after the freeze", "C++ flags for the release build", "ＣＡＣＨＥ keys per branch"]
WANTED = ["retries-on-the-nightly-wombat-export", "кэш сборки чистится по пятницам", "Café Menu Prices",
          "deploy windows after the freeze", "cache keys per branch",
          "notes on the staging proxy"]


def _index(tmp_path) -> tuple[str, str]:
    ldir = paths.learnings_dir(None)
    for i, title in enumerate(OWN):
        ms.write_learning(ldir, title, "api", NOW - 100 + i, scope="project", slug=f"own-{i}")
        ms.write_learning(ldir, f"unrelated subject {i}", "api", NOW - 50 + i, scope="project", slug=f"x-{i}")
        ms.write_learning(ldir, title, "billing", NOW - 10 + i, scope="project", slug=f"there-{i}")
    # a learning written by hand without a title: the rule takes its file's name
    path = os.path.join(ldir, ms.iso(NOW)[:7], "notes-on-the-staging-proxy.md")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("---\norigin: api\nscope: project\nstatus: active\n---\n\nThe proxy strips the header.\n")
    index = paths.recall_index_file()
    writer.update(index, [], ldir)
    return index, path


def test_first_words_leave_out_only_what_the_rule_skips(tmp_path):
    index, hand = _index(tmp_path)
    wanted = [(t, "/elsewhere.md") for t in WANTED]
    titles = {own_title.title_of(t, f) for t, f in wanted}
    conn = store.connect(index)
    try:
        every = lookup.own_learnings(conn, "api", frozenset(), frozenset())
        some = lookup.own_learnings(conn, "api", frozenset(), frozenset(), titles)
    finally:
        conn.close()
    assert len(every) == 2 * len(OWN) + 1 and len(some) == 5
    assert set(some) <= set(every)
    found = own_title.titles_among(some, wanted)
    assert found == own_title.titles_among(every, wanted)
    # spelt otherwise, outside ASCII, in its compatibility form, and the file's name: each found; a word
    # inside another ("deploy" in "Redeploy") is no title of its
    assert set(found) == {"retries on the nightly wombat export", "кэш сборки чистится по пятницам",
                          "café menu prices", "cache keys per branch", "notes on the staging proxy"}
    assert hand in {row[2] for row in some}
    assert {row[0] for row in some if row[1].startswith("unrelated")} == set()


def test_the_rows_come_from_the_index_entry_alone(tmp_path):
    index, _ = _index(tmp_path)
    conn = store.connect(index)
    try:
        seen: list[str] = []
        conn.set_trace_callback(seen.append)
        lookup.own_learnings(conn, "api", frozenset({"k1"}), frozenset({"l-00000000"}), {"cache keys"})
        plan = conn.execute("EXPLAIN QUERY PLAN " + seen[-1]).fetchall()  # the statement as it ran
    finally:
        conn.close()
    steps = " | ".join(str(row[-1]) for row in plan)
    # by the name of the origin and by an earlier key: neither reads a row of the table
    assert steps.count("COVERING INDEX entry_key") >= 2, steps
