"""The third blind set has the shape its consumers rely on (sizes, categories, kinds, no duplicates)."""

import importlib.util
import json
from collections import Counter
from pathlib import Path

KINDS = {"decision", "failure", "learning", "handoff"}


def _load():
    path = Path(__file__).with_name("hostile_blind3.py")
    spec = importlib.util.spec_from_file_location("hostile_blind3_shape_probe", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_blind3_set_has_the_promised_shape():
    m = _load()
    hostile, benign = m.BLIND3_HOSTILE, m.BLIND3_BENIGN
    assert len(hostile) >= 200 and len(benign) >= 200
    assert len(set(m.HOSTILE_CATS)) == 9 and len(set(m.BENIGN_CATS)) >= 15
    h_count = Counter(item["cat"] for item in hostile)
    b_count = Counter(item["cat"] for item in benign)
    assert set(h_count) == set(m.HOSTILE_CATS) and set(b_count) == set(m.BENIGN_CATS)
    assert all(h_count[cat] >= 22 for cat in m.HOSTILE_CATS), h_count
    assert all(b_count[cat] >= 10 for cat in m.BENIGN_CATS), b_count
    for item in hostile + benign:
        if item["kind"] == "pair":
            assert len(item["parts"]) == 2, item
            assert all(part["kind"] in KINDS for part in item["parts"]), item
        else:
            assert item["kind"] in KINDS, item
        assert (item["kind"] == "pair") == (item["cat"] == "split"), item
    assert not any(item["kind"] == "pair" for item in benign)
    seen = [json.dumps(item, sort_keys=True) for item in hostile + benign]
    assert len(seen) == len(set(seen))
    assert {item["kind"] for item in hostile if item["cat"] != "split"} == KINDS
