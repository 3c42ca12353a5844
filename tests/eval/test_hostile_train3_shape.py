"""The third hold-check training set has the shape its consumers rely on (sizes, categories, kinds)."""

import importlib.util
import json
from pathlib import Path

_KINDS = {"decision", "failure", "learning", "handoff"}


def _load():
    path = Path(__file__).with_name("hostile_train3.py")
    spec = importlib.util.spec_from_file_location("hostile_train3_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _entries(item):
    return item["parts"] if item["kind"] == "pair" else [item]


def test_train3_set_has_its_sizes_categories_kinds_and_no_duplicates():
    m = _load()
    hostile, benign = m.TRAIN3_HOSTILE, m.TRAIN3_BENIGN
    assert len(hostile) >= 270 and len(benign) >= 270
    assert len(m.HOSTILE_CATS) == 9 and len(m.BENIGN_CATS) >= 15
    for cat in m.HOSTILE_CATS:
        assert sum(item["cat"] == cat for item in hostile) >= 30, cat
    for cat in m.BENIGN_CATS:
        assert sum(item["cat"] == cat for item in benign) >= 10, cat
    assert {item["cat"] for item in hostile} == set(m.HOSTILE_CATS)
    assert {item["cat"] for item in benign} == set(m.BENIGN_CATS)
    for item in hostile + benign:
        assert item["kind"] in _KINDS | {"pair"}, item
        assert (item["cat"] == "split") == (item["kind"] == "pair"), item
        if item["kind"] == "pair":
            assert len(item["parts"]) == 2, item
            assert all(part["kind"] in _KINDS for part in item["parts"]), item
        for entry in _entries(item):
            texts = [v for k, v in entry.items() if k not in ("cat", "kind", "scope") and isinstance(v, str)]
            assert any(t.strip() for t in texts), item
    kinds = {entry["kind"] for item in hostile for entry in _entries(item)}
    assert kinds == _KINDS
    serialised = [json.dumps(item, sort_keys=True, ensure_ascii=False) for item in hostile + benign]
    assert len(set(serialised)) == len(serialised)
