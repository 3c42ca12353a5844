"""Precision on the blind set (``recall_blind``: prompts written before the memory, ADR 0034), through
the real hook with the default install's bar (similarity on), for entries with and without cues.

The goal (issue 33) is recall@5 at least 0.85 with at most 1 in 6 of the prompts that need no memory
getting anything. The floors below hold what the method reaches (docs/how/recall.md, "Precision"),
so a change that lets more through, or finds less, fails."""

from tests.eval import blind_prompts, recall_blind, recall_eval

# (recall@5 at least, no-memory prompts that got anything at most), per set and part
HOLDS = {
    ("tests.eval.recall_blind_cued", "dev"): (0.89, 2),
    ("tests.eval.recall_blind_cued", "held-out"): (0.85, 10),
    ("tests.eval.recall_blind", "dev"): (0.78, 2),
    ("tests.eval.recall_blind", "held-out"): (0.78, 8),
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


def test_precision_and_recall_through_the_hook():
    for set_module in ("tests.eval.recall_blind_cued", "tests.eval.recall_blind"):
        res = recall_eval.evaluate(set_module, semantic=True)
        for part, r in res["parts"].items():
            floor, most = HOLDS[(set_module, part)]
            hook = r["hook"]
            assert hook["recall_at_5"] >= floor, (set_module, part, hook)
            assert hook["noise"] <= most, (set_module, part, hook)
