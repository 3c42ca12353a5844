"""The problem line of an answer far past a section's cap counts every item it did not keep: those
that came past the held ones and those past what it reads, never a phrase taken for a title."""

from lazy_harness.worker import answer


def test_the_dropped_count_adds_the_items_not_read():
    past = answer.MAX_OVER * 4  # what the cap's check reads past the first kept
    n = answer.LIMITS["learnings"] + past + 20
    out, problems = answer.validate({"learnings": [{"title": f"learning {i}", "learning": "x"} for i in range(n)]})
    assert len(out[answer.OVER_CAP]) == answer.MAX_OVER
    [line] = problems
    dropped = n - answer.LIMITS["learnings"] - answer.MAX_OVER  # 140: 120 read and dropped, 20 not read
    assert f"{dropped} more dropped: 'learning 60'" in line, line
    assert "20 of them not read" in line and "'20 more not read'" not in line, line
