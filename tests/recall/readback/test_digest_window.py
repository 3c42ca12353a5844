"""recall/readback/digest.py ``window``: the span of time over which the start's text reads the same, which
a kept read-back (recall/readback/prepared.py) is used within and never outside. Checked against the text
itself: the same just inside both ends, different just past them, where an open item turns stale or a
stale one a day older."""

import os
import time

from lazy_harness import config, paths
from lazy_harness.memory import handoff
from lazy_harness.recall.readback import digest
from tests.support import memory_samples as ms

T0 = time.time() - 90 * ms.DAY  # the items' opening, well before the times asked about
STALE = 14


def items(project: str) -> None:
    """Two open items of different sessions, opened a third of a day apart."""
    mdir = paths.memory_dir(project)
    recs = [handoff.record(handoff.OPEN, f"open item {i} about the retry budget", f"sess-{i}", f"task-{i}",
                           T0 + i * ms.DAY / 3) for i in range(2)]
    handoff.append(mdir, recs)
    handoff.write_markdown(mdir, {"session_id": "sess-1", "task_id": "task-1", "project": "demo"}, T0 + ms.DAY)


def text_at(project: str, now: float) -> tuple[str | None, dict]:
    return digest.build_context(project, config.load_fast(os.environ), os.environ, now, "startup")


def test_the_text_holds_inside_its_window_and_changes_just_past_it(isolated_home, tmp_path):
    project = ms.make_project(tmp_path, "demo")
    items(project)
    for now in (T0 + 13.2 * ms.DAY, T0 + 14.1 * ms.DAY, T0 + 20.5 * ms.DAY):
        text, stats = text_at(project, now)
        since, until = stats["since"], stats["until"]
        assert since < now < until
        inside = [max(since, now - 30 * ms.DAY) + 1, until - 1]
        assert all(text_at(project, t)[0] == text for t in inside), now
        # just past an end: an item turned stale, or a stale one a day older (or younger)
        assert text_at(project, until + 1)[0] != text, now
        if since > 0:
            assert text_at(project, since - 1)[0] != text, now


def test_without_open_items_the_text_holds_for_good(isolated_home, tmp_path):
    project = ms.make_project(tmp_path, "demo")
    mdir = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mdir, "decisions.jsonl"),
                   [ms.decision(T0, "ledger export is idempotent", project="demo")])
    text, stats = text_at(project, time.time())
    assert text is not None and "ledger export is idempotent" in text
    assert (stats["since"], stats["until"]) == (-digest.FOREVER, digest.FOREVER)
