"""An old session read again from its start (``lh knowledge handoff-now``, or a resume that rewrote its
transcript so its cursor no longer holds) gives back what its first part decided. A newer session
replaced one of those decisions since (``replaces``, ADR 0060): the re-read is no news, and must not
bring the replaced decision back beside the one that replaced it (as a closed handoff item is not
reopened by it: memory/handoff_log.py ``closed_since_raised``). Another session making it again does.
"""

import os

from lazy_harness import paths, queue
from lazy_harness.memory import ids, marks
from lazy_harness.worker import pipeline
from tests.support import fake_claude
from tests.support.sessions import place
from tests.worker.spendrig import configure, run_worker

OLD_SID = "44444444-4444-4444-8444-444444444444"
NEW_SID = "55555555-5555-4555-8555-555555555555"
THIRD_SID = "66666666-6666-4666-8666-666666666666"
OLD = "Keep the billing jobs in Postgres"
NEW = "Move the billing jobs to SQLite"


def _enqueue(payload: dict, event: str = "SessionEnd") -> None:
    again = {queue.AGAIN: "1"} if event == "handoff-now" else {}  # read whole again, as --again asks
    queue.enqueue(paths.queue_dir(), {**queue.task_fields(payload, event, True), **again})


def _distill(bin_dir, payload: dict, answer: dict, event: str = "SessionEnd") -> None:
    fake_claude.control(bin_dir, mode="ok", answer=answer)
    _enqueue(payload, event)
    run_worker()


def test_an_old_session_read_again_does_not_bring_back_a_decision_replaced_since(isolated_home, tmp_path,
                                                                                  monkeypatch):
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home)
    project = tmp_path / "proj"
    project.mkdir()
    memory = paths.memory_dir(str(project))
    old_session = place(project, session_id=OLD_SID)
    _distill(bin_dir, old_session, {"decisions": [{"summary": OLD, "rationale": "one database"}]})
    old_id = ids.entry_id("decision", OLD)
    _distill(bin_dir, place(project, session_id=NEW_SID),
             {"decisions": [{"summary": NEW, "rationale": "no server", "replaces": [old_id]}]})
    assert old_id in marks.hidden(memory)

    # the old session read whole again: its answer states its old decision again
    _distill(bin_dir, old_session, {"decisions": [{"summary": OLD, "rationale": "one database"}]},
             pipeline.WHOLE_SESSION_EVENT)
    assert old_id in marks.hidden(memory), "the re-read brought back a decision a newer session replaced"
    with open(os.path.join(paths.logs_dir(), "worker.log"), encoding="utf-8") as fh:
        assert f"kept hidden: {old_id}" in fh.read()

    # another session deciding it again is news: it comes back
    _distill(bin_dir, place(project, session_id=THIRD_SID), {"decisions": [{"summary": OLD, "rationale": "x"}]})
    assert old_id not in marks.hidden(memory)


def test_a_learning_deprecated_since_its_session_wrote_it_stays_deprecated_when_that_session_is_read_again(
        tmp_path):
    from lazy_harness.memory import frontmatter, store
    from lazy_harness.worker import consolidate as job
    from tests.memory.test_store_scenarios import NOW, consolidate, meta

    project = tmp_path / "proj"
    project.mkdir()
    mdir, ldir = paths.memory_dir(str(project)), paths.learnings_dir()
    old, new = "Retry the upload twice", "Retry the upload with backoff"
    [made] = store.persist({"learnings": [{"title": old, "learning": "x"}]}, mdir, ldir, meta("s1"), NOW).created
    store.persist({"learnings": [{"title": new, "learning": "y"}]}, mdir, ldir, meta("s2"), NOW + 10)
    lid = ids.learning_id("proj", old)
    consolidate(mdir, ldir, job.Change("deprecate_learnings", lid, ids.learning_id("proj", new), "superseded"))

    def status() -> str | None:
        return frontmatter.read_frontmatter_values(made, ("status",)).get("status")

    assert status() == "deprecated"
    report = store.persist({"learnings": [{"title": old, "learning": "x"}]}, mdir, ldir, meta("s1"), NOW + 99)
    assert report.restored == [] and status() == "deprecated"
    assert [why for _, why in report.skipped if f"kept hidden: {lid}" in why]
    report = store.persist({"learnings": [{"title": old, "learning": "x"}]}, mdir, ldir, meta("s3"), NOW + 199)
    assert report.restored == [lid] and status() == "active"  # another session learning it again is news
