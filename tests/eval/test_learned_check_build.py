"""The learned check's weights (src/lazy_harness/worker/learned_check.json) are what
tests/eval/build_learned_check.py makes from the development sets: the file shipped can be rebuilt
and checked, and a change to the sets or the method without rebuilding it fails here.

Exactly where Python's Unicode tables are those the file was built with (it names them): the folding
of disguised text (NFKC, case folding, what counts as a letter) follows them, so another version reads
some non-ASCII notes differently and trains slightly different weights. There the rebuild must still
choose a bar within 0.2 of the shipped one, from the same sets."""

import json
import unicodedata

from lazy_harness.worker import learned_check
from tests.eval import build_learned_check


def test_the_shipped_weights_are_rebuilt_exactly(tmp_path):
    out = tmp_path / "weights.json"
    lines = build_learned_check.build(str(out))
    with open(learned_check.WEIGHTS, encoding="utf-8") as fh:
        shipped = json.load(fh)
    rebuilt = json.loads(out.read_text(encoding="utf-8"))
    if shipped["unicode"] == unicodedata.unidata_version:
        assert rebuilt == shipped
    else:
        assert abs(rebuilt["bar"] - shipped["bar"]) <= 0.2 + 1e-9, (rebuilt["bar"], shipped["bar"])
        assert rebuilt["trained_on"] == shipped["trained_on"]
    assert any(line.endswith("<- chosen") for line in lines)

