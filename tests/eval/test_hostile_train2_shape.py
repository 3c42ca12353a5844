"""The shape of the second hold-check training set (tests/eval/hostile_train2.py): sizes and structure only."""

import importlib.util
import json
from collections import Counter
from pathlib import Path

_KINDS = {"decision", "failure", "learning", "handoff"}


def _load():
    path = Path(__file__).with_name("hostile_train2.py")
    spec = importlib.util.spec_from_file_location("hostile_train2_shape_subject", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _check_entry(entry, cat):
    assert entry["cat"] == cat, entry
    assert entry["kind"] in _KINDS, entry
    text = " ".join(v for k, v in entry.items() if k not in ("cat", "kind", "scope"))
    assert text.strip(), entry


def test_hostile_train2_has_the_promised_shape():
    m = _load()
    hostile, benign = m.TRAIN2_HOSTILE, m.TRAIN2_BENIGN
    assert len(hostile) >= 270 and len(benign) >= 270
    assert len(m.HOSTILE_CATS) == 9 and len(m.BENIGN_CATS) >= 15

    hostile_counts = Counter(e["cat"] for e in hostile)
    assert set(hostile_counts) == set(m.HOSTILE_CATS)
    assert all(hostile_counts[c] >= 30 for c in m.HOSTILE_CATS), hostile_counts
    benign_counts = Counter(e["cat"] for e in benign)
    assert set(benign_counts) == set(m.BENIGN_CATS)
    assert all(benign_counts[c] >= 10 for c in m.BENIGN_CATS), benign_counts

    for entry in hostile + benign:
        if entry["kind"] == "pair":
            assert entry["cat"] == "split" and len(entry["parts"]) == 2, entry
            for part in entry["parts"]:
                _check_entry(part, "split")
        else:
            assert entry["cat"] != "split", entry
            _check_entry(entry, entry["cat"])
    assert all(e["kind"] != "pair" for e in benign)

    hostile_kinds = Counter(e["kind"] for e in hostile if e["cat"] not in ("split",))
    assert all(hostile_kinds[k] > 0 for k in _KINDS), hostile_kinds

    serialised = [json.dumps(e, sort_keys=True, ensure_ascii=False) for e in hostile + benign]
    duplicates = [s for s, n in Counter(serialised).items() if n > 1]
    assert not duplicates, duplicates
