"""The learned check reads a learning the worker just wrote as the fields it was trained and measured on
(title, learning, context, tags, cues, scope: ``trust.text_of``), not as the file's markdown: the
``## Learning`` and ``## Context`` headings and a Python list of the tags moved every score up (by
about 1.2 on the kept-out learnings of the evaluation), so plain facts were held."""

import os

from lazy_harness import paths
from lazy_harness.memory import held_review, store, trust
from lazy_harness.worker import hold_checks, learned_check
from tests.support import memory_samples as ms

NOW = 1_790_000_000.0
FACT = {"title": "Postgres advisory locks are per session",
        "learning": "Advisory locks are released when the session ends.", "scope": "project",
        "tags": ["postgres", "locks"]}


def _owed(tmp_path, learnings: list[dict]) -> dict:
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    meta = {"project": "proj", "project_folder": os.path.basename(mdir), "session_id": "sess-l", "task_id": "t"}
    plan = store.plan({"learnings": learnings}, mdir, paths.learnings_dir(), meta, NOW)
    return hold_checks.owed_checks(plan, store.apply(plan), [], (mdir, paths.learnings_dir()), meta)


def test_the_learned_check_scores_a_written_learning_as_its_fields(isolated_home, tmp_path):
    owed = _owed(tmp_path, [dict(FACT, context="Seen while the deploy lock kept the migration waiting.",
                                 cues=["why does the migration hang"])])
    [(kind, _, path, record, as_kind)] = [tuple(w) for w in owed["written"]]
    assert (kind, as_kind) == ("learning", "learning") and path
    read = trust.text_of(record, "learning")
    assert "##" not in read and "[" not in read
    for part in ("Postgres advisory locks are per session", "Advisory locks are released when the session ends.",
                 "Seen while the deploy lock kept the migration waiting.", "postgres locks",
                 "why does the migration hang"):
        assert part in read


def test_a_plain_fact_is_not_held_by_the_learned_check(isolated_home, tmp_path):
    owed = _owed(tmp_path, [FACT])
    assert learned_check.scores([trust.text_of(FACT, "learning")])[0] < learned_check.load().bar
    logged: list[str] = []
    held = hold_checks._hold(owed, NOW, logged.append)
    assert held == set(), logged
    assert held_review.listing(owed["memory_dir"], owed["learnings_dir"]) == []


def test_the_model_check_still_reads_the_learnings_whole_text(isolated_home, tmp_path):
    owed = _owed(tmp_path, [dict(FACT, context="Seen in the nightly job.")])
    [(_, _, _, text)] = [tuple(t) for t in owed["texts"]]
    for part in ("Postgres advisory locks are per session", "Advisory locks are released", "Seen in the nightly job.",
                 "postgres"):
        assert part in text
