"""Prompt recall on the evaluation set, measured through the real hook (issue 11).

The goal is recall@5 at least 0.85 and noise at most 1 in 6. On this set, whose prompts mostly
share at most one content word with the entry they expect, the method reaches less (docs/how/recall.md
gives the numbers); the test holds what it reaches, so a change that loses ground fails, and the
properties that keep the set honest."""

from tests.eval import recall_eval, recall_heldout, recall_set

# what the method reaches on the whole set (dev + held-out) with entries written before tags and
# cues (the strength bar counts such entries UNCUED times); the goal is 0.85 and 1/6
FLOOR_RECALL_AT_5 = 0.55
CEILING_NOISE = 0.15


def test_the_set_is_as_large_as_the_goal_asks():
    assert len(recall_set.ENTRIES) >= 300
    assert len({e.get("project") or e.get("origin") for e in recall_set.ENTRIES}) >= 4
    prompts = recall_set.PROMPTS + recall_heldout.PROMPTS
    labelled = [p for p in prompts if p[2]]
    assert len(labelled) >= 60 and len(prompts) - len(labelled) >= 10
    keys = {e["key"] for e in recall_set.ENTRIES}
    assert all(k in keys for p in labelled for k in p[2])


def test_prompts_ask_in_other_words_than_their_entries():
    for prompts in (recall_set.PROMPTS, recall_heldout.PROMPTS):
        assert recall_eval.overlap_report(recall_set.ENTRIES, prompts)["at_most_1"] >= 0.8


def test_overlap_counts_shared_content_words():
    entry = {"key": "k", "kind": "decision", "summary": "Deploy the scheduler with a lock", "rationale": "runs twice"}
    assert recall_eval.overlap("deploying the scheduler twice", entry) == 3
    assert recall_eval.overlap("the cron ran two times", entry) == 0
    # the words written to find an entry are not its own text: a cue may share the prompt's words
    cued = {**entry, "tags": ["cron"], "cues": ["the cron ran two times"]}
    assert recall_eval.overlap("the cron ran two times", cued) == 0


def test_recall_at_5_and_noise_through_the_hook():
    res = recall_eval.evaluate()
    hook, grep = res["hook"], res["grep"]
    assert set(res["parts"]) == {"dev", "held-out"}
    assert hook["recall_at_5"] >= FLOOR_RECALL_AT_5, hook
    assert hook["noise_rate"] <= CEILING_NOISE, hook
    assert grep["noise_rate"] == 1.0  # the baseline answers everything
    # the bar keeps what it stops: nearly all the expected entries grep finds (grep: 0.577)
    assert hook["recall_at_5"] >= 0.95 * grep["recall_at_5"], (hook, grep)


def test_every_tagged_entry_carries_what_the_validator_keeps():
    from tests.eval import recall_set_tagged

    assert [e["key"] for e in recall_set_tagged.ENTRIES] == [e["key"] for e in recall_set.ENTRIES]
    for e in recall_set_tagged.ENTRIES:
        if e["kind"] == "handoff":
            assert "tags" not in e
        else:  # 3 to 10, as the rule asks; lower-case, no spaces (the validator's form)
            assert 3 <= len(e["tags"]) <= 10, e["key"]
            assert all(t == t.lower() and " " not in t for t in e["tags"]), e["key"]


# what the method reaches with the tags the distill prompt asks for (dev + held-out)
FLOOR_TAGGED_RECALL_AT_5 = 0.72
CEILING_TAGGED_NOISE = 0.15


def test_the_tags_the_product_writes_raise_recall():
    plain = recall_eval.evaluate()["hook"]
    tagged = recall_eval.evaluate("tests.eval.recall_set_tagged")["hook"]
    assert tagged["recall_at_5"] >= FLOOR_TAGGED_RECALL_AT_5, tagged
    assert tagged["noise_rate"] <= CEILING_TAGGED_NOISE, tagged
    assert tagged["recall_at_5"] > plain["recall_at_5"] + 0.05, (plain, tagged)


def test_every_cued_entry_carries_what_the_rule_asks_and_the_validator_keeps():
    from tests.eval import recall_cues, recall_set_cued, recall_set_tagged

    written = [*recall_cues.TARGETS.values(), *recall_cues.DECISION_TEMPLATES, *recall_cues.FAILURE_TEMPLATES,
               *recall_cues.LEARNING_TEMPLATES]
    assert all(len(c.split()) <= 12 for cues in written for c in cues)  # a component's name counts as one word
    tagged = {e["key"]: e for e in recall_set_tagged.ENTRIES}
    assert [e["key"] for e in recall_set_cued.ENTRIES] == list(tagged)
    for e in recall_set_cued.ENTRIES:
        if e["kind"] == "handoff":
            assert "cues" not in e
            continue
        assert e["tags"] == tagged[e["key"]]["tags"]
        assert 2 <= len(e["cues"]) <= 4, e["key"]
        assert all("{" not in c and len(c) <= 120 for c in e["cues"]), e["key"]
        own = (e.get("summary") or e.get("title") or "").lower()
        assert own not in {c.lower() for c in e["cues"]}, e["key"]


# what the method reaches with the tags and the cues the distill prompt asks for (dev + held-out)
FLOOR_CUED_RECALL_AT_5 = 0.79
CEILING_CUED_NOISE = 0.05


def test_the_cues_the_product_writes_raise_recall_over_tags_alone():
    tagged = recall_eval.evaluate("tests.eval.recall_set_tagged")["hook"]
    cued = recall_eval.evaluate("tests.eval.recall_set_cued")["hook"]
    assert cued["recall_at_5"] >= FLOOR_CUED_RECALL_AT_5, cued
    assert cued["noise_rate"] <= CEILING_CUED_NOISE, cued
    assert cued["recall_at_5"] > tagged["recall_at_5"] + 0.05, (tagged, cued)


# what the embedder's bar reaches on the repository's prompts (dev + held-out), through the hook with
# the default min_similarity (ADR 0020; over the outside sets too: 0.85 at 33 of 207)
FLOOR_SEMANTIC_RECALL_AT_5 = 0.78
CEILING_SEMANTIC_NOISE = 0.10


def test_recall_at_5_and_noise_through_the_hook_with_the_embedder():
    words = recall_eval.evaluate("tests.eval.recall_set_cued")["hook"]
    semantic = recall_eval.evaluate("tests.eval.recall_set_cued", semantic=True)
    hook = semantic["hook"]
    assert hook["recall_at_5"] >= FLOOR_SEMANTIC_RECALL_AT_5, hook
    assert hook["noise_rate"] <= CEILING_SEMANTIC_NOISE, hook
    assert hook != words  # the embedder's bar ran, not the word bar it falls back to
