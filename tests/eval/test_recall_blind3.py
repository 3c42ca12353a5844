"""The shape of the third blind precision set (``recall_blind3``): enough prompts and no-memory
prompts, labels that name entries the prompt's project sees, and a memory mostly made of entries no
prompt is about; and the recall it got when measured once, held as floors."""

from collections import Counter

from tests.eval import prompt_files, recall_blind3, recall_blind3_cued


def _identity(e: dict) -> tuple:
    """What an entry's id is made of: two entries with the same one would be one entry in memory."""
    if e["kind"] == "learning":
        return ("learning", e["origin"], e["title"])
    return (e["kind"], e["summary"])


def test_blind3_set_has_its_shape():
    prompts, cued, entries = recall_blind3.PROMPTS, recall_blind3.CUED, recall_blind3.ENTRIES
    assert len(prompts) >= 96
    per_project = Counter(project for project, _, _ in prompts)
    assert len(per_project) == 3 and min(per_project.values()) >= 32, per_project
    empty = [p for p in prompts if not p[2]]
    assert len(empty) / len(prompts) >= 0.25, f"{len(empty)} of {len(prompts)} need no memory"
    keys = [e["key"] for e in cued]
    assert len(keys) == len(set(keys)), [k for k, n in Counter(keys).items() if n > 1]
    identities = Counter(_identity(e) for e in cued)
    assert max(identities.values()) == 1, [i for i, n in identities.items() if n > 1]
    by_key = {e["key"]: e for e in cued}
    for project, prompt, expected in prompts:
        assert project in recall_blind3.PROJECTS, prompt
        for key in expected:
            assert key in by_key, (prompt, key)
            assert prompt_files.visible(by_key[key], project), (prompt, key)
    assert [e["key"] for e in entries] == keys
    assert all(e["cues"] == [] for e in entries)
    assert any(e["cues"] for e in cued)
    assert recall_blind3_cued.ENTRIES is cued and recall_blind3_cued.PROMPTS is prompts
    assert len(recall_blind3.PROJECTS) >= 4
    assert {e.get("project", e.get("origin")) for e in cued} <= set(recall_blind3.PROJECTS)
    expected = {k for _, _, ks in prompts for k in ks}
    assert len(set(keys) - expected) >= 200
    assert not hasattr(recall_blind3, "HELDOUT")  # held out whole: one part


# (recall@5 at least, no-memory prompts that got anything at most): measured once through the hook with
# the default install (ADR 0041's bar), nothing chosen on the set (docs/how/recall.md)
BLIND3_HOLDS = {"tests.eval.recall_blind3": (49 / 68, 9), "tests.eval.recall_blind3_cued": (47 / 68, 9)}


def test_precision_and_recall_on_the_third_blind_set_through_the_hook():
    """Far from the goal (recall@5 >= 0.85, at most 1 in 6 no-memory prompts getting anything): the
    floors keep a change from making it worse."""
    from tests.eval import recall_eval

    for set_module, (floor, most) in BLIND3_HOLDS.items():
        hook = recall_eval.evaluate(set_module, semantic=True)["parts"]["dev"]["hook"]
        assert hook["recall_at_5"] >= floor - 1e-9, (set_module, hook)
        assert hook["noise"] <= most, (set_module, hook)
