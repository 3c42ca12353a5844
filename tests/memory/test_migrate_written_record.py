"""The record of the decisions and failures the store wrote (``written.jsonl``, ADR 0076) follows its
project when its key changes, as the entries do: a decision the person deleted by hand in the earlier
folder is not written again in the new one when a session gives it back. Before, the record stayed
behind, and the deleted line came back after the repository gained an origin."""

import os

from lazy_harness import paths
from lazy_harness.memory import files, migrate, written
from tests.memory.test_follows_project import NOW, add_origin, project_with_three, write_as_session

DECISION = {"summary": "Deploy the api with the blue green script"}


def _summaries(mdir: str) -> list[str]:
    return [r["summary"] for r in files.read_entries(os.path.join(mdir, files.DECISIONS))]


def test_a_decision_deleted_before_the_key_changed_stays_deleted(tmp_path):
    root = project_with_three(tmp_path)
    old = paths.memory_dir(root)
    ids = written.ids_of(old)
    assert len(ids) == 1
    with open(os.path.join(old, files.DECISIONS), "w", encoding="utf-8"):
        pass  # the person deletes the decision's line
    add_origin(root)
    new = paths.memory_dir(root)
    assert written.path_of(old) in migrate.pending(paths.project_key(root), root, None, new)
    migrate.migrate(new, paths.project_key(root), root, None, NOW)
    assert written.ids_of(new) == ids and not os.path.exists(written.path_of(old))
    write_as_session(root, {"decisions": [DECISION]}, session="sess-b")
    assert DECISION["summary"] not in _summaries(new), _summaries(new)
    migrate.migrate(new, paths.project_key(root), root, None, NOW)  # a rerun adds no line twice
    with open(written.path_of(new), encoding="utf-8") as fh:
        assert len([ln for ln in fh if ln.strip()]) == 1
