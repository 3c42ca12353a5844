"""Precision on the blind set (``recall_blind``: prompts written before the memory, ADR 0034), through
the real hook with the default install's bar (similarity on), for entries with and without cues.

The goal (issue 33) is recall@5 at least 0.85 with at most 1 in 6 of the prompts that need no memory
getting anything. The floors below hold what the method reaches (docs/how/recall.md, "Precision"),
so a change that lets more through, or finds less, fails. Both parts are development prompts since ADR
0041 (the bar was chosen on each and checked on the other): these are fitted figures, not a measure
of new prompts."""

from tests.eval import blind_prompts, recall_blind, recall_eval

# (recall@5 at least, no-memory prompts that got anything at most), per set and part
# (ADR 0041: noise 2 -> 1, 10 -> 9, 2 -> 1 and 8 -> 6; the held-out part's recall 0.89 -> 0.92 and
# 0.81 -> 0.82; the first part's without cues 0.82 -> 0.79, one prompt whose only distinctive word
# now needs the higher similarity)
HOLDS = {
    ("tests.eval.recall_blind_cued", "dev"): (0.92, 1),
    ("tests.eval.recall_blind_cued", "held-out"): (0.91, 9),
    ("tests.eval.recall_blind", "dev"): (0.78, 1),
    ("tests.eval.recall_blind", "held-out"): (0.82, 6),
}


def test_the_set_is_as_the_issue_asks():
    for part in (blind_prompts.DEV, blind_prompts.HELDOUT):
        empty = [p for p in part if not p[2]]
        assert len(empty) / len(part) >= 0.15
    assert len(blind_prompts.HELDOUT) >= 80
    keys = {e["key"] for e in recall_blind.CUED}
    assert all(k in keys for p in blind_prompts.DEV + blind_prompts.HELDOUT for k in p[2])
    assert len({e.get("project") or e.get("origin") for e in recall_blind.CUED}) >= 4
    # the same entries, without and with cues; filler that no prompt expects
    assert [e["key"] for e in recall_blind.ENTRIES] == [e["key"] for e in recall_blind.CUED]
    assert all(not e["cues"] for e in recall_blind.ENTRIES)
    expected = {k for p in blind_prompts.DEV + blind_prompts.HELDOUT for k in p[2]}
    assert len(keys - expected) >= 200


def test_the_blind_judgement_covers_every_no_memory_prompt_within_its_scope():
    """tests/eval/judged_no_memory.py judges each no-memory prompt of the three blind sets once, naming
    only entries its session could be shown (its project's, or a general learning)."""
    import importlib

    from tests.eval.judged_no_memory import JUDGED

    assert sorted(JUDGED) == ["tests.eval.recall_blind", "tests.eval.recall_blind2", "tests.eval.recall_blind3"]
    for set_module, judged in JUDGED.items():
        data = importlib.import_module(set_module)
        empty = [(project, prompt) for _, prompts in recall_eval.parts(set_module)
                 for project, prompt, expected in prompts if not expected]
        assert sorted(judged) == sorted(empty), set_module
        scope = {e["key"]: (e.get("project") or e.get("origin"), e.get("scope")) for e in data.ENTRIES}
        for (project, _), keys in judged.items():
            assert all(scope[k][0] == project or scope[k][1] == "general" for k in keys), (project, keys)


def test_precision_and_recall_through_the_hook():
    for set_module in ("tests.eval.recall_blind_cued", "tests.eval.recall_blind"):
        res = recall_eval.evaluate(set_module, semantic=True)
        for part, r in res["parts"].items():
            floor, most = HOLDS[(set_module, part)]
            hook = r["hook"]
            assert hook["recall_at_5"] >= floor, (set_module, part, hook)
            assert hook["noise"] <= most, (set_module, part, hook)
