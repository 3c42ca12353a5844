"""An item the store would drop as empty once sanitized (a summary or handoff item of emoji, symbols or
punctuation only: ``normalise`` leaves nothing of it) is dropped by the answer's check, with the same
note as any other dropped item, naming its field and index; the log shows it as ``answer: ...``."""

from lazy_harness.worker import answer


def _dropped(problems: list[str], where: str) -> list[str]:
    return [p for p in problems if p.startswith(f"{where}: ") and p.endswith(", dropped")]


def test_an_emoji_only_summary_is_dropped_with_a_note_naming_the_field_and_index():
    obj = {"decisions": [{"summary": "Keep the queue in Postgres"}, {"summary": "🎉🚀"}, {"summary": "✅ Ship it"}],
           "failures": [{"summary": " → ← ", "root_cause": "the cache was stale"}],
           "learnings": [{"title": "🚀🔥", "learning": "a title of symbols only is a learning (ids.title_key)"}]}

    distilled, problems = answer.validate(obj)

    assert [d["summary"] for d in distilled["decisions"]] == ["Keep the queue in Postgres", "✅ Ship it"]
    assert distilled["failures"] == []
    assert [learning["title"] for learning in distilled["learnings"]] == ["🚀🔥"]  # unchanged: kept
    assert _dropped(problems, "decisions[1]") and "summary" in _dropped(problems, "decisions[1]")[0]
    assert _dropped(problems, "failures[0]") and "summary" in _dropped(problems, "failures[0]")[0]
    assert not [p for p in problems if p.startswith(("decisions[0]", "decisions[2]", "learnings[0]"))]


def test_an_emoji_only_handoff_item_is_dropped_with_a_note_naming_its_index():
    obj = {"handoff": ["Run the e2e tests", "🎉", "[ ] ✨✨", "...", "[h-1a2b3c4d] 🎉", "✅ review the PR"]}

    distilled, problems = answer.validate(obj)

    # an item naming an id is the store's to judge (an open item restated): kept as it was
    assert distilled["handoff"] == ["Run the e2e tests", "[h-1a2b3c4d] 🎉", "✅ review the PR"]
    for index in (1, 2, 3):
        assert _dropped(problems, f"handoff[{index}]"), (index, problems)
    assert not [p for p in problems if p.startswith(("handoff[0]", "handoff[4]", "handoff[5]"))]


def test_a_ticked_handoff_item_is_dropped_with_a_note_not_silently():
    """The store never opens a ticked item (``[x] ...``: done); the answer's check says which one went."""
    distilled, problems = answer.validate({"handoff": ["Run the e2e tests", "[x] Ship the login fix",
                                                       "[X] bump the version"]})
    assert distilled["handoff"] == ["Run the e2e tests"]
    for index in (1, 2):
        assert [p for p in problems if p.startswith(f"handoff[{index}]") and "ticked as done" in p], problems


def test_an_unknown_id_with_no_words_is_noted_by_the_store():
    """``[h-...] 🎉`` names no item the project has and has no words to open one by: nothing is opened and
    the store's notes say so (the worker logs them)."""
    from lazy_harness.memory import handoff_log

    recs, notes, problems = handoff_log.changes({}, ["[h-1a2b3c4d] 🎉", "Write the release notes"], [],
                                                {"session_id": "s", "task_id": "t"}, 1_700_000_000.0)
    assert [r["text"] for r in recs] == ["Write the release notes"] and not problems
    assert [n for n in notes if "h-1a2b3c4d" in n and "no words" in n], notes
