"""A learning keeps the byte range of its session's transcript it was distilled from (``origin_part``,
ADR 0063): a later answer of the session whose part does not read that range again corrects it. When
the transcript is rewritten (a resume into a new file of the same session, a tool that rewrote it), the
range names bytes of a file that is gone: the next distillation reads the new file from its top, and
that read was taken for the old part read again, so a correction said in the new file was dropped."""

import json

from tests.support import fake_claude
from tests.support.growth import append_turn
from tests.worker.spendrig import configure, queue_session, run_worker
from tests.worker.test_correction_later_in_a_session import NEW, OLD, _active_texts, _answer, _distil_again, _learnings


def _rewrite(path: str) -> None:
    """The transcript rewritten: its records before the first typed prompt dropped, the rest kept (a new
    file of the same session, its bytes at other offsets)."""
    with open(path, encoding="utf-8") as fh:
        lines = fh.readlines()
    first = next(i for i, line in enumerate(lines) if json.loads(line).get("type") == "user")
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(lines[first:])


def test_a_correction_in_a_rewritten_transcript_replaces_the_learning_its_old_file_wrote(isolated_home, fake,
                                                                                          project):
    configure(isolated_home)
    fake_claude.control(fake, mode="ok", answer=_answer(OLD))
    payload = queue_session(project)
    run_worker()
    [first] = [p for p, v in _learnings().items() if v["status"] == "active"]
    assert "origin_part:" in _learnings()[first]["text"]
    _rewrite(payload["transcript_path"])
    append_turn(payload["transcript_path"], payload["session_id"], str(project),
                "The crypto payouts overflowed NUMERIC(14,4); widen the money columns to NUMERIC(19,6).",
                "Widened every money column to NUMERIC(19,6) and backfilled the payouts.")
    _distil_again(fake, payload, NEW)
    assert [t for t in _active_texts() if "NUMERIC(19,6); NUMERIC(14,4) overflowed" in t], \
        "the correction said after the rewrite was dropped"
    files = _learnings()
    assert files[first]["status"] == "deprecated"
