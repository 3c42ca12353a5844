"""A decision line the person deleted by hand stays deleted: ``lh knowledge handoff-now --again`` reads
the session again and the model gives the decision back, but the store remembers the ids it wrote
(``written.jsonl``) and does not write one again whose line is gone, as a forgotten entry stays out."""

import json
import os

from lazy_harness import paths
from lazy_harness.memory import files
from tests.cli.lhrun import invoke
from tests.support import fake_claude
from tests.worker.spendrig import configure

SID = "66666666-6666-4666-8666-666666666666"


def _handoff_now(*extra: str):
    return invoke("knowledge", "handoff-now", "--session", SID, *extra)


def _summaries(path: str) -> list[str]:
    return [r["summary"] for r in files.read_entries(path)]


def test_a_decision_deleted_by_hand_is_not_written_again(isolated_home, tmp_path, monkeypatch):
    fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home)
    proj = tmp_path / "proj"
    proj.mkdir()
    monkeypatch.chdir(proj)
    from tests.support.sessions import place

    place(proj, session_id=SID)
    assert _handoff_now("--wait").code == 0
    decisions = os.path.join(paths.memory_dir(str(proj)), files.DECISIONS)
    with open(decisions, encoding="utf-8") as fh:
        lines = fh.read().splitlines(keepends=True)
    assert len(lines) >= 1, lines
    gone = json.loads(lines[0])["summary"]
    with open(decisions, "w", encoding="utf-8") as fh:  # the person deletes the first decision's line
        fh.writelines(lines[1:])
    kept = _summaries(decisions)
    again = _handoff_now("--again", "--wait")
    assert again.code == 0, again.err
    assert gone not in _summaries(decisions), _summaries(decisions)
    assert _summaries(decisions) == kept
