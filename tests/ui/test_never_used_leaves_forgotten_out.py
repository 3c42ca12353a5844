"""The page's "Never used" leaves out what readers leave out: a learning forgotten (its frontmatter
says so) or deprecated by consolidation, a handoff item forgotten or closed (docs/how/usage.md); none
of them is offered Forget again or said to be no longer in memory."""

import time

from lazy_harness.memory import by_hand, handoff, ids, learnings, usage_log
from tests.support import memory_samples as ms
from tests.ui.test_server import cookie, page, request


def _never_used(server) -> str:
    body = request(server, "GET", page(server), cookie(server))[2]
    section = body.split('id="usage"', 1)[1].split("</section>", 1)[0]
    return section.split('class="entries never-used"', 1)[1]


def test_forgotten_deprecated_and_closed_entries_are_not_listed_never_used(server, seeded):
    now = time.time()
    own = learnings.id_of(ms.write_learning(seeded.ldir, "Regenerate stubs with `./tools/regen_stubs.sh`", "proj",
                                            now - 60, scope="project", slug="stubs"))
    dropped = learnings.id_of(ms.write_learning(seeded.ldir, "Vendored stubs need `regen_stubs.sh`", "proj",
                                                now - 60, scope="project", slug="dropped", status="deprecated",
                                                deprecated_by=own))
    forgotten_l = learnings.id_of(ms.write_learning(seeded.ldir, "Queue state lives in `billing/queue_store.py`",
                                                    "proj", now - 60, scope="project", slug="billing"))
    open_h = handoff.record("open", "document the cache layout", "", "", 0)["id"]
    forgotten_h = handoff.record("open", "wire the release workflow", "", "", 0)["id"]
    closed_h = handoff.record("open", "port `scripts/migrate_ledger.py` to v2", "", "", 0)["id"]
    handoff.append(seeded.mdir, [handoff.record("open", "port `scripts/migrate_ledger.py` to v2", "s", "t", now - 90),
                                 handoff.record("close", "port `scripts/migrate_ledger.py` to v2", "s2", "t2",
                                                now - 80, "done")])
    for eid in (forgotten_l, forgotten_h):
        assert by_hand.forget(seeded.mdir, seeded.ldir, "proj", eid, "not needed", now)
    fts = ids.entry_id("decision", "Keep the recall index in SQLite FTS5")
    shown = (own, dropped, forgotten_l, open_h, forgotten_h, closed_h, fts)
    usage_log.append(seeded.mdir, [usage_log.line("shown", now - 60 + k, session=f"s{k}", id=eid, chars=300)
                                   for k in range(3) for eid in shown])
    never_used = _never_used(server)
    for eid in (own, open_h, fts):
        assert eid in never_used, eid
    for eid in (dropped, forgotten_l, forgotten_h, closed_h):
        assert eid not in never_used, eid
    assert "no longer in memory" not in never_used
