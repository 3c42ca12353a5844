"""The goal of prompt recall on the evaluation set, measured through the real hook (issue 11):
recall@5 at least 0.85 and noise at most 1 in 6, and better than the grep baseline's noise."""

from tests.eval import recall_eval, recall_set


def test_the_set_is_as_large_as_the_goal_asks():
    assert len(recall_set.ENTRIES) >= 300
    assert len({e.get("project") or e.get("origin") for e in recall_set.ENTRIES}) >= 4
    labelled = [p for p in recall_set.PROMPTS if p[2]]
    assert len(labelled) >= 60 and len(recall_set.PROMPTS) - len(labelled) >= 10
    keys = {e["key"] for e in recall_set.ENTRIES}
    assert all(k in keys for p in labelled for k in p[2])


def test_recall_at_5_and_noise_through_the_hook():
    res = recall_eval.evaluate()
    hook, grep = res["hook"], res["grep"]
    assert hook["recall_at_5"] >= 0.85, hook
    assert hook["noise_rate"] <= 1 / 6, hook
    assert grep["noise_rate"] > hook["noise_rate"]  # the baseline answers everything
