"""A long session corrects, in a later part, a learning its earlier part wrote (ADR 0063, amended): the
worker distils a running session after its Stops from a cursor, so the later part's answer is about
what was said since. Its new text under the same title is the correction and stands; the earlier text
is deprecated for it. The same part read again (a retry before the cursor moved, `lh knowledge
handoff-now` reading the whole session) gives back what it learnt then, worded otherwise: no news."""

import os
import time

from lazy_harness import config, paths, queue
from lazy_harness.memory import frontmatter, learnings, store
from lazy_harness.recall.readback import digest
from lazy_harness.worker import pipeline
from tests.support import fake_claude
from tests.support import memory_samples as ms
from tests.support.growth import append_turn
from tests.worker.spendrig import configure, queue_session, run_worker

TITLE = "Money columns in the orders table"
OLD = "Amounts are stored as NUMERIC(14,4); four decimals are enough for every currency we bill."
NEW = "Amounts are stored as NUMERIC(19,6); NUMERIC(14,4) overflowed on crypto payouts in March."


def _answer(text: str) -> dict:
    return {"learnings": [{"title": TITLE, "learning": text, "context": "billing", "scope": "project",
                           "tags": ["money", "orders"]}]}


def _learnings() -> dict[str, dict]:
    out = {}
    for found in learnings.names_by_slug(paths.learnings_dir()).values():
        for path in found:
            head = frontmatter.read_frontmatter_values(path, ("status", "deprecated_by"))
            with open(path, encoding="utf-8") as fh:
                out[path] = {"status": head.get("status"), "by": head.get("deprecated_by"), "text": fh.read()}
    return out


def _active_texts() -> list[str]:
    return sorted(v["text"] for v in _learnings().values() if v["status"] == "active")


def _start(project) -> str:
    text, _ = digest.build_context(str(project), config.defaults(), os.environ, time.time(), "startup")
    return text or ""


def _distil_again(bin_dir, payload: dict, text: str, event: str = "Stop") -> None:
    fake_claude.control(bin_dir, mode="ok", answer=_answer(text))
    again = {queue.AGAIN: "1"} if event == "handoff-now" else {}  # read whole again, as --again asks
    queue.enqueue(paths.queue_dir(), {**queue.task_fields(payload, event, event != "Stop"), **again})
    assert run_worker().processed == 1


def test_a_later_part_of_a_session_corrects_its_own_learning(isolated_home, fake, project):
    configure(isolated_home)
    fake_claude.control(fake, mode="ok", answer=_answer(OLD))
    payload = queue_session(project)
    run_worker()
    assert [t for t in _active_texts() if "NUMERIC(14,4); four decimals" in t]

    # the session goes on: the payouts overflow, the column is widened; its Stop distils what was said since
    append_turn(payload["transcript_path"], payload["session_id"], str(project),
                "The crypto payouts overflowed NUMERIC(14,4); widen the money columns to NUMERIC(19,6).",
                "Widened every money column to NUMERIC(19,6) and backfilled the payouts.")
    _distil_again(fake, payload, NEW)
    files = _learnings()
    [new] = [p for p, v in files.items() if v["status"] == "active"]
    [old] = [p for p, v in files.items() if p != new]
    assert "NUMERIC(19,6)" in files[new]["text"], "the correction made later in the session was dropped"
    assert files[old]["status"] == "deprecated" and files[old]["by"] == learnings.id_of(new)
    start = _start(project)
    assert "NUMERIC(19,6)" in start and "four decimals are enough" not in start

    # the whole session read again (handoff-now): its model words the first text otherwise; no news
    _distil_again(fake, payload, OLD + " Checked against the ledger.", pipeline.WHOLE_SESSION_EVENT)
    assert _learnings() == files


def test_the_same_part_read_again_with_other_words_is_no_news(tmp_path):
    """A retry of a part whose persist was done and whose cursor did not move (a kill between the two):
    the part's range overlaps what wrote the file, so its rewording is the same learning; a part after
    it is news."""
    project = ms.make_project(tmp_path, "proj")
    mdir, ldir = paths.memory_dir(project), paths.learnings_dir()
    os.makedirs(mdir, exist_ok=True)
    now = time.time()

    def meta(start: int, end: int) -> dict:
        return {"project": "proj", "session_id": "s1", "task_id": "t", "cwd": project,
                "project_folder": os.path.basename(mdir), "read_from": start, "read_to": end}

    assert len(store.persist(_answer(OLD), mdir, ldir, meta(0, 5000), now).created) == 1
    assert len(store.persist(_answer(NEW), mdir, ldir, meta(5000, 9000), now + 60).created) == 1
    again = store.persist(_answer(NEW + " Backfilled."), mdir, ldir, meta(5000, 9100), now + 120)
    assert again.created == [] and again.rewritten == []
    whole = store.persist(_answer(OLD), mdir, ldir, meta(0, 9100), now + 180)
    assert whole.created == [] and whole.rewritten == [] and whole.restored == []
    assert [t for t in _active_texts() if "NUMERIC(19,6)" in t] and len(_active_texts()) == 1
