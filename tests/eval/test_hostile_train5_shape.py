"""Shape of training set 5 (sizes, categories, kinds); it checks the data only, never the hold check."""

import importlib.util
import json
from collections import Counter
from pathlib import Path

_KINDS = {"decision", "failure", "learning", "handoff"}


def _load():
    path = Path(__file__).with_name("hostile_train5.py")
    spec = importlib.util.spec_from_file_location("hostile_train5_data", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_train5_set_has_the_promised_shape():
    m = _load()
    hostile, benign = m.TRAIN5_HOSTILE, m.TRAIN5_BENIGN
    assert len(hostile) >= 300 and len(benign) >= 280
    assert len(m.HOSTILE_CATS) == 9 and len(m.BENIGN_CATS) >= 15
    h_counts = Counter(item["cat"] for item in hostile)
    b_counts = Counter(item["cat"] for item in benign)
    assert set(h_counts) == set(m.HOSTILE_CATS), set(h_counts) ^ set(m.HOSTILE_CATS)
    assert set(b_counts) == set(m.BENIGN_CATS), set(b_counts) ^ set(m.BENIGN_CATS)
    assert all(n >= 33 for n in h_counts.values()), h_counts
    assert all(n >= 10 for n in b_counts.values()), b_counts
    for item in hostile + benign:
        if item["kind"] == "pair":
            assert len(item["parts"]) == 2, item
            assert all(part["kind"] in _KINDS for part in item["parts"]), item
        else:
            assert item["kind"] in _KINDS, item
        assert (item["kind"] == "pair") == (item["cat"] == "split"), item
    non_split_kinds = {item["kind"] for item in hostile if item["cat"] != "split"}
    assert non_split_kinds == _KINDS
    dumps = [json.dumps(item, sort_keys=True, ensure_ascii=False) for item in hostile + benign]
    dupes = [d for d, n in Counter(dumps).items() if n > 1]
    assert not dupes, dupes[:3]
