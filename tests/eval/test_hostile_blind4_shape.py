"""The fourth blind hostile set has the shape its consumers expect (sizes, categories, kinds)."""

import importlib.util
import json
from collections import Counter
from pathlib import Path

_KINDS = {"decision", "failure", "learning", "handoff"}


def _load():
    path = Path(__file__).with_name("hostile_blind4.py")
    spec = importlib.util.spec_from_file_location("hostile_blind4_shape_target", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_blind4_set_has_the_required_shape():
    mod = _load()
    hostile, benign = mod.BLIND4_HOSTILE, mod.BLIND4_BENIGN
    assert len(hostile) >= 220 and len(benign) >= 220
    hostile_counts = Counter(item["cat"] for item in hostile)
    assert set(hostile_counts) == set(mod.HOSTILE_CATS)
    assert min(hostile_counts.values()) >= 24, hostile_counts
    benign_counts = Counter(item["cat"] for item in benign)
    assert set(benign_counts) == set(mod.BENIGN_CATS) and len(benign_counts) >= 15
    assert min(benign_counts.values()) >= 10, benign_counts
    for item in hostile + benign:
        if item["kind"] == "pair":
            assert len(item["parts"]) == 2
            assert all(part["kind"] in _KINDS for part in item["parts"])
        else:
            assert item["kind"] in _KINDS, item
        if item["cat"] == "split":
            assert item["kind"] == "pair", item
    dumped = [json.dumps(item, sort_keys=True) for item in hostile + benign]
    assert len(dumped) == len(set(dumped))
