"""The learned check's weights (src/lazy_harness/worker/learned_check.json) are what
tests/eval/build_learned_check.py makes from the development sets: the file shipped can be rebuilt
and checked, and a change to the sets or the method without rebuilding it fails here."""

import json

from lazy_harness.worker import learned_check
from tests.eval import build_learned_check


def test_the_shipped_weights_are_rebuilt_exactly(tmp_path):
    out = tmp_path / "weights.json"
    lines = build_learned_check.build(str(out))
    with open(learned_check.WEIGHTS, encoding="utf-8") as fh:
        shipped = json.load(fh)
    assert json.loads(out.read_text(encoding="utf-8")) == shipped
    assert any(line.endswith("<- chosen") for line in lines)

