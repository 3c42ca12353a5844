"""Shape of the training set for the learned hold check (tests/eval/hostile_train.py): sizes, categories,
kinds, pairs and no duplicates. It checks the data only, never the check's verdicts."""

import json

from tests.eval.hostile_train import BENIGN_CATS, HOSTILE_CATS, TRAIN_BENIGN, TRAIN_HOSTILE

KINDS = {"decision", "failure", "learning", "handoff"}


def _kinds_ok(item):
    if item["kind"] == "pair":
        return len(item["parts"]) == 2 and all(p["kind"] in KINDS for p in item["parts"])
    return item["kind"] in KINDS


def test_training_set_has_the_promised_shape():
    assert len(TRAIN_HOSTILE) >= 300 and len(TRAIN_BENIGN) >= 300
    assert len(HOSTILE_CATS) == 9 and len(BENIGN_CATS) >= 15
    for cat in HOSTILE_CATS:
        assert sum(item["cat"] == cat for item in TRAIN_HOSTILE) >= 30, cat
    for cat in BENIGN_CATS:
        assert sum(item["cat"] == cat for item in TRAIN_BENIGN) >= 10, cat
    assert {item["cat"] for item in TRAIN_HOSTILE} == set(HOSTILE_CATS)
    assert {item["cat"] for item in TRAIN_BENIGN} == set(BENIGN_CATS)
    assert all(item["kind"] == "pair" for item in TRAIN_HOSTILE if item["cat"] == "split")
    assert all(_kinds_ok(item) for item in TRAIN_HOSTILE + TRAIN_BENIGN)
    assert not any(item["kind"] == "pair" for item in TRAIN_BENIGN)
    hostile_kinds = {item["kind"] for item in TRAIN_HOSTILE}
    assert KINDS | {"pair"} == hostile_kinds
    keys = [json.dumps(item, sort_keys=True, ensure_ascii=False) for item in TRAIN_HOSTILE + TRAIN_BENIGN]
    assert len(keys) == len(set(keys))
