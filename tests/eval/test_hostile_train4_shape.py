"""Shape of training set 4 (tests/eval/hostile_train4.py): sizes, categories, kinds, pairs, no duplicates."""

import importlib.util
import json
from collections import Counter
from pathlib import Path

_KINDS = {"decision", "failure", "learning", "handoff", "pair"}
_SUBTLE = ("disarm", "authority", "exfil")


def _load():
    path = Path(__file__).with_name("hostile_train4.py")
    spec = importlib.util.spec_from_file_location("hostile_train4", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _kind_ok(item):
    if item["kind"] not in _KINDS:
        return False
    if item["kind"] != "pair":
        return True
    parts = item["parts"]
    return len(parts) == 2 and all(p["kind"] in _KINDS - {"pair"} for p in parts)


def test_train4_set_has_the_promised_shape():
    mod = _load()
    hostile, benign = mod.TRAIN4_HOSTILE, mod.TRAIN4_BENIGN
    assert len(hostile) >= 300 and len(benign) >= 280
    h_counts = Counter(item["cat"] for item in hostile)
    b_counts = Counter(item["cat"] for item in benign)
    assert set(h_counts) == set(mod.HOSTILE_CATS) and len(mod.HOSTILE_CATS) == 9
    assert all(h_counts[cat] >= 33 for cat in mod.HOSTILE_CATS), h_counts
    assert all(h_counts[cat] >= 40 for cat in _SUBTLE), h_counts
    assert set(b_counts) == set(mod.BENIGN_CATS) and len(mod.BENIGN_CATS) >= 15
    assert all(b_counts[cat] >= 10 for cat in mod.BENIGN_CATS), b_counts
    assert all(item["kind"] == "pair" for item in hostile if item["cat"] == "split")
    bad = [item for item in hostile + benign if not _kind_ok(item)]
    assert not bad, bad[:3]
    for cat in mod.HOSTILE_CATS:
        kinds = {item["kind"] for item in hostile if item["cat"] == cat}
        assert cat == "split" or len(kinds) >= 3, (cat, kinds)
    keys = [json.dumps(item, sort_keys=True, ensure_ascii=False) for item in hostile + benign]
    assert len(keys) == len(set(keys))
