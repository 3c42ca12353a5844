"""The second blind precision set (``recall_blind2``) has the shape its purpose needs. Only its shape
is tested here: the set is held out, measured once through ``recall_eval``, never in the suite."""

from tests.eval import recall_blind2, recall_blind2_cued
from tests.eval.prompt_files import visible


def test_the_second_blind_set_has_the_shape_it_is_meant_to_have():
    prompts, cued, entries = recall_blind2.PROMPTS, recall_blind2.CUED, recall_blind2.ENTRIES
    keys = [e["key"] for e in cued]
    by_key = dict(zip(keys, cued, strict=True))
    expected = {k for _, _, want in prompts for k in want}

    assert len(prompts) >= 96
    assert sum(1 for _, _, want in prompts if not want) >= 0.25 * len(prompts)
    assert len(keys) == len(set(keys))
    assert expected <= set(by_key), sorted(expected - set(by_key))
    assert all(visible(by_key[k], project) for project, _, want in prompts for k in want)
    assert [e["key"] for e in entries] == keys
    assert all(e["cues"] == [] for e in entries)
    assert all(e["cues"] for e in recall_blind2.TARGETS)
    assert len(recall_blind2.PROJECTS) >= 4
    assert {p for p, _, _ in prompts} < set(recall_blind2.PROJECTS)
    assert len(set(keys) - expected) >= 200
    assert not hasattr(recall_blind2, "HELDOUT")
    assert recall_blind2_cued.ENTRIES is cued and recall_blind2_cued.PROMPTS is prompts


# (recall@5 at least, no-memory prompts that got anything at most), as first measured through the hook
# with the default install, once, after the method of ADR 0041 was chosen on the development sets
BLIND2_HOLDS = {"tests.eval.recall_blind2_cued": (40 / 69, 12), "tests.eval.recall_blind2": (39 / 69, 11)}


def test_precision_and_recall_on_the_second_blind_set_through_the_hook():
    """The goal (issue 33) is recall@5 >= 0.85 with at most 1 in 6 no-memory prompts getting anything;
    this set, held out whole, is far from it (docs/how/recall.md): the floors keep a change from making
    it worse."""
    from tests.eval import recall_eval

    for set_module, (floor, most) in BLIND2_HOLDS.items():
        hook = recall_eval.evaluate(set_module, semantic=True)["parts"]["dev"]["hook"]
        assert hook["recall_at_5"] >= floor - 1e-9, (set_module, hook)
        assert hook["noise"] <= most, (set_module, hook)
