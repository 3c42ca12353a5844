"""``lh memory usage``'s "most characters for the least use" leaves out what readers leave out: a
learning forgotten (its frontmatter says so) or deprecated by consolidation, a handoff item forgotten
or closed (docs/how/usage.md)."""

import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import handoff, learnings, usage_log
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
COSTLY = "most characters for the least use:"


class Here:
    """The ids of the project's entries, each shown in two sessions and never used."""

    def __init__(self, project: str):
        self.mdir, self.ldir = paths.memory_dir(project), paths.learnings_dir()
        live = ms.write_learning(self.ldir, "Regenerate protobuf stubs after a schema change", "app", NOW - 60,
                                 learning="Run `./tools/regen_stubs.sh` after editing a .proto file.", scope="project")
        dropped = ms.write_learning(self.ldir, "Vendored stubs need regen_stubs.sh", "app", NOW - 60,
                                    learning="Run `./tools/regen_stubs.sh`.", scope="project", status="deprecated",
                                    deprecated_by=learnings.id_of(live))
        forgotten = ms.write_learning(self.ldir, "Billing queue state lives in billing/queue_store.py", "app",
                                      NOW - 60, learning="See `billing/queue_store.py`.", scope="project")
        self.live_l, self.dropped_l, self.forgotten_l = (learnings.id_of(p) for p in (live, dropped, forgotten))
        texts = ["Finish porting `scripts/migrate_ledger.py` to the v2 schema",
                 "Close out `docs/release.md` before the tag", "Wire `make stop-dev` into the migrations"]
        handoff.append(self.mdir, [handoff.record("open", t, "s0", "t0", NOW - 120) for t in texts]
                       + [handoff.record("close", texts[1], "s1", "t1", NOW - 90, "done")])
        self.forgotten_h, self.closed_h, self.live_h = (handoff.record("open", t, "", "", 0)["id"] for t in texts)
        shown = [self.live_l, self.dropped_l, self.forgotten_l, self.forgotten_h, self.closed_h, self.live_h]
        # why the live ones cost most: the list names five, so the six must not cut either of them
        usage_log.append(self.mdir, [usage_log.line("shown", NOW - 100 + k, session=f"s{k}", id=eid,
                                                    chars=400 if eid in (self.live_l, self.live_h) else 300)
                                     for k in range(2) for eid in shown])


@pytest.fixture
def here(tmp_path, monkeypatch, isolated_home):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    h = Here(project)
    for eid in (h.forgotten_l, h.forgotten_h):
        r = invoke("memory", "forget", eid, "--reason", "not needed")
        assert r.code == 0, r.err
    return h


def test_forgotten_deprecated_and_closed_entries_are_not_among_the_costly(here):
    r = invoke("memory", "usage")
    assert r.code == 0, r.err
    costly = r.out.split(COSTLY, 1)[1]
    assert here.live_l in costly and here.live_h in costly
    for eid in (here.forgotten_l, here.dropped_l, here.forgotten_h, here.closed_h):
        assert eid not in costly, eid
    table = r.out.split(COSTLY, 1)[0]  # the table still counts every entry shown
    assert all(eid in table for eid in (here.forgotten_l, here.forgotten_h, here.closed_h))


def test_a_learning_deprecated_in_one_file_and_live_in_another_stays_among_the_costly(here):
    ms.write_learning(here.ldir, "Vendored stubs need regen_stubs.sh", "app", NOW - 30 * ms.DAY,
                      learning="Run `./tools/regen_stubs.sh`.", scope="project", slug="older-copy")
    assert here.dropped_l in invoke("memory", "usage").out.split(COSTLY, 1)[1]
