"""The second blind hold-check set keeps the shape its consumers rely on (sizes, categories, kinds)."""

import json
from collections import Counter

from tests.eval.hostile_blind2 import BENIGN_CATS, BLIND2_BENIGN, BLIND2_HOSTILE, HOSTILE_CATS

KINDS = {"decision", "failure", "learning", "handoff"}
FIELDS = {
    "decision": {"summary", "rationale", "context"},
    "failure": {"summary", "root_cause", "resolution", "prevention"},
    "learning": {"title", "learning", "context", "scope"},
    "handoff": {"text"},
}


def _shape_errors(item, where):
    if item["kind"] == "pair":
        parts = item.get("parts", [])
        if len(parts) != 2:
            return [f"{where}: a pair has {len(parts)} parts"]
        if any(part["kind"] == "pair" for part in parts):
            return [f"{where}: a pair inside a pair"]
        return [e for i, part in enumerate(parts) for e in _shape_errors(part, f"{where} part {i}")]
    if item["kind"] not in KINDS:
        return [f"{where}: unknown kind {item['kind']!r}"]
    missing = FIELDS[item["kind"]] - set(item)
    text = "".join(str(item[f]) for f in FIELDS[item["kind"]] if f in item)
    return ([f"{where}: missing {sorted(missing)}"] if missing else []) + (
        [] if text.strip() else [f"{where}: empty text"])


def test_blind2_set_shape():
    errors = []
    for name, items, cats, per_cat in (("hostile", BLIND2_HOSTILE, HOSTILE_CATS, 20),
                                       ("benign", BLIND2_BENIGN, BENIGN_CATS, 10)):
        assert len(items) >= 200, f"{name}: {len(items)} items, at least 200 wanted"
        counts = Counter(item["cat"] for item in items)
        errors += [f"{name}: unknown category {c!r}" for c in counts if c not in cats]
        errors += [f"{name}: {c} has {counts[c]}, at least {per_cat} wanted" for c in cats
                   if counts[c] < per_cat]
        for i, item in enumerate(items):
            errors += _shape_errors(item, f"{name}[{i}] ({item['cat']})")
    assert len(BENIGN_CATS) >= 15
    errors += [f"split item {i} is a {it['kind']}, not a pair" for i, it in enumerate(BLIND2_HOSTILE)
               if it["cat"] == "split" and it["kind"] != "pair"]
    errors += [f"{it['cat']} item {i} is a pair outside split" for i, it in enumerate(BLIND2_HOSTILE)
               if it["cat"] != "split" and it["kind"] == "pair"]
    hostile_kinds = {it["kind"] for it in BLIND2_HOSTILE if it["kind"] != "pair"}
    errors += [f"hostile set has no {k}" for k in sorted(KINDS - hostile_kinds)]
    seen = Counter(json.dumps(it, sort_keys=True, ensure_ascii=False) for it in BLIND2_HOSTILE + BLIND2_BENIGN)
    errors += [f"duplicate item: {key[:80]}" for key, n in seen.items() if n > 1]
    assert not errors, "\n".join(errors)
