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
