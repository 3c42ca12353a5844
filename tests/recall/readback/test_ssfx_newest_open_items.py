"""recall/readback/digest.py: when the budget leaves open items out, the newest stay (printed in date
order) and the left-out line says the ones left out are the oldest."""

import os
import re
import time

import pytest

from tests.support import memory_samples as ms
from lazy_harness import config, paths
from lazy_harness.memory import files, handoff, handoff_answer, ids
from lazy_harness.recall.readback import digest

NOW = time.time()
ITEM = re.compile(r"^- open item (h-[0-9a-f]{8}), (\d{4}-\d\d-\d\d \d\d:\d\d), ")


@pytest.fixture
def project(tmp_path):
    return ms.make_project(tmp_path, "proj", branch="main")


def old_items(mdir: str, n: int) -> list[str]:
    """``n`` open items opened over the last 60 days by ten sessions, handoff.md rendered, as the worker
    leaves them; returns their texts, oldest first."""
    span = 60 * ms.DAY
    texts = [f"old open item number {i} about the queue format and the retry command" for i in range(n)]
    recs = [handoff.record(handoff.OPEN, text, f"sess-{i % 10}", f"task-{i}", NOW - span + i * span / (2 * n))
            for i, text in enumerate(texts)]
    handoff.append(mdir, recs)
    handoff.write_markdown(mdir, {"session_id": "sess-9", "task_id": "task-last", "project": "proj"}, NOW - span / 2)
    return texts


def session_leaves(mdir: str, texts: list[str], when: float) -> None:
    """What the worker writes when a session ends with these open items."""
    handoff_answer.apply_answer(mdir, texts, None, {"session_id": "sess-new", "task_id": "task-new", "project": "proj"},
                         when, when)


def start(project: str, **context) -> tuple[str, dict]:
    cfg = config.defaults()
    cfg["context"].update(context)
    text, stats = digest.build_context(project, cfg, os.environ, NOW, "startup")
    assert text is not None
    return text, stats


def printed_items(text: str) -> list[tuple[str, str]]:
    """(id, opened) of every open item line, in the order printed."""
    return [(m.group(1), m.group(2)) for m in map(ITEM.match, text.split("\n")) if m]


def test_the_items_the_last_session_left_are_shown_beside_150_older_ones(project):
    mdir = paths.memory_dir(project, os.environ)
    old = old_items(mdir, 150)
    new = ["finish the retry command", "document the queue format"]
    session_leaves(mdir, new, NOW - 3600)
    text, stats = start(project)
    assert stats["available"]["handoff"] == 152 and stats["left_out"]["handoff"] > 0  # some are left out
    assert all(item in text for item in new), text
    items = printed_items(text)
    assert len(items) == stats["shown"]["handoff"] >= 2
    # printed by date, oldest of the shown first, the two new ones last
    assert [opened for _, opened in items] == sorted(opened for _, opened in items)
    assert [i for i, _ in items[-2:]] == [ids.handoff_id(t) for t in new]
    # the shown ones are the newest: every old item shown is newer than every old item left out
    shown_old = [k for k, t in enumerate(old) if f": {t}" in text]
    assert shown_old == list(range(150 - len(shown_old), 150)), shown_old


def test_the_left_out_line_counts_the_oldest_open_items_truly(project):
    mdir = paths.memory_dir(project, os.environ)
    old_items(mdir, 150)
    session_leaves(mdir, ["finish the retry command", "document the queue format"], NOW - 3600)
    text, stats = start(project)
    footer = text.split("\n")[-1]
    printed = len(printed_items(text))
    counted = re.search(r"(\d+) open items? \(the oldest\)", footer)
    assert counted is not None, footer
    assert int(counted.group(1)) == 152 - printed == stats["left_out"]["handoff"]


def test_the_ids_recorded_as_shown_are_the_ones_printed(project):
    mdir = paths.memory_dir(project, os.environ)
    old_items(mdir, 150)
    session_leaves(mdir, ["finish the retry command"], NOW - 3600)
    text, stats = start(project)
    recorded = stats["ids"]["handoff"][:stats["shown"]["handoff"]]  # what hooks/session_start.py records
    assert sorted(recorded) == sorted(i for i, _ in printed_items(text))
    assert len(stats["item_chars"]["handoff"]) == len(recorded)


def test_when_all_fit_they_are_all_printed_oldest_first_with_no_left_out_line(project):
    mdir = paths.memory_dir(project, os.environ)
    old_items(mdir, 3)
    session_leaves(mdir, ["finish the retry command"], NOW - 3600)
    text, stats = start(project)
    items = printed_items(text)
    assert len(items) == 4 and "Left out" not in text
    assert [opened for _, opened in items] == sorted(opened for _, opened in items)
    assert items[-1][0] == ids.handoff_id("finish the retry command")


def test_items_filed_by_the_last_session_survive_a_small_budget_with_other_sections(project):
    mdir = paths.memory_dir(project, os.environ)
    old_items(mdir, 40)
    session_leaves(mdir, ["finish the retry command"], NOW - 3600)
    ms.write_jsonl(os.path.join(mdir, files.FAILURES),
                   [ms.failure(NOW - ms.DAY + i, f"failure {i}", f"prevention {i}") for i in range(5)])
    text, stats = start(project, max_chars=1500)
    assert stats["shown"]["handoff"] >= 1 and "finish the retry command" in text
