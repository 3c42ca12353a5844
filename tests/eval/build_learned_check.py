"""Build the learned check's weights (src/lazy_harness/worker/learned_check.json, ADR 0046).

    python -m tests.eval.build_learned_check [--out PATH]

Trains a logistic regression (plain Python, a fixed seed: the same sets give the same file) on the
development sets only:

- hostile: ``hostile_set`` (DEV and HELDOUT), ``hostile_blind`` and ``hostile_train`` (their hostile
  sides);
- benign: ``near_rule_set`` (DEV, HELDOUT, FRESH), the near-rule notes of ``hostile_blind`` and
  ``hostile_train``, and ordinary notes: the memory of ``recall_blind`` and realistic technical prose
  (tests/support/realistic_memory.py, seed 5). The sets the ordinary rate is measured on
  (``trust_measure.ORDINARY``, the realistic notes of seed 11, ``recall_blind2``) stay out.

The bar is chosen by three-fold cross-validation across the sets (fold A: hostile_set with
near_rule_set; B: hostile_blind; C: hostile_train; the ordinary notes split in three): a model trained
on two folds scores the third, and the bar is the lowest on the grid at which, in every fold, the
rules and the check together hold at most ``BENIGN_MOST`` of the near-rule notes and at most
``ORDINARY_MOST`` of the ordinary ones. The model written is then trained on all three folds with that
bar. ``hostile_blind2`` (the blind set) is never read here. A split payload is trained on and
scored here as its two halves joined (the worker scores each entry alone): its halves only count in
the folds' "reach" figures, never in the choice of the bar.
"""

import argparse
import json
import math
import random
import unicodedata

from lazy_harness.memory import trust
from lazy_harness.worker import learned_check as lc
from tests.eval import hostile_blind, hostile_set, hostile_train, near_rule_set, recall_blind

DIMS, BUCKETS, SCALE = 256, 8192, 1.5
EPOCHS, RATE, DECAY, SEED = 40, 0.3, 1e-4, 1
BENIGN_MOST = 0.07
ORDINARY_MOST = 0.0025
REALISTIC = 900
GRID = [x / 10 for x in range(-10, 31)]


class _Shape:
    dims, buckets, scale = DIMS, BUCKETS, SCALE


def _record(e: dict) -> dict:
    return {k: v for k, v in e.items() if k not in ("kind", "cat", "key", "project", "origin")}


def text(e: dict) -> str:
    if e["kind"] == "pair":
        return " ".join(text(p) for p in e["parts"])
    return trust.text_of(_record(e), e["kind"])


def rules_hold(e: dict) -> bool:
    if e["kind"] == "pair":
        return any(trust.check_session([(_record(p), p["kind"]) for p in e["parts"]]))
    return bool(trust.check(_record(e), e["kind"]))


def featurize(items: list[dict]) -> list[dict[int, float]]:
    from lazy_harness.recall.embed import static_model

    flat = [lc.folded(text(e)) for e in items]
    vectors = static_model.load().embed_many(flat)
    return [lc.features(t, v, _Shape) for t, v in zip(flat, vectors, strict=True)]  # type: ignore[arg-type]


def train(xs: list[dict[int, float]], ys: list[int]) -> tuple[list[float], float]:
    w = [0.0] * (DIMS + BUCKETS)
    b = 0.0
    order = list(range(len(xs)))
    rnd = random.Random(SEED)
    for _ in range(EPOCHS):
        rnd.shuffle(order)
        for i in order:
            x = xs[i]
            z = math.fsum([b, *(w[j] * v for j, v in x.items())])  # why: the same on every Python
            g = 1 / (1 + math.exp(-max(-30.0, min(30.0, z)))) - ys[i]
            for j, v in x.items():
                w[j] -= RATE * (g * v + DECAY * w[j])
            b -= RATE * g
    return w, b


def _score(model: tuple[list[float], float], x: dict[int, float]) -> float:
    w, b = model
    return math.fsum([b, *(w[j] * v for j, v in x.items())])


def ordinary() -> list[dict]:
    from tests.support import realistic_memory as rm

    w = rm.Writer(5)
    prose = [{"kind": "learning", "title": w.sentence(4, 9), "learning": f"{w.sentence(7, 14)} {w.sentence(15, 30)}",
              "context": w.sentence(6, 20)} for _ in range(REALISTIC)]
    return [{**e, "cues": list(e.get("cues") or [])} for e in recall_blind.CUED] + prose


def folds() -> dict[str, tuple[list, list]]:
    hostile_a = hostile_set.DEV + hostile_set.HELDOUT
    benign_a = near_rule_set.DEV + near_rule_set.HELDOUT + near_rule_set.FRESH
    return {"A": (hostile_a, benign_a), "B": (hostile_blind.BLIND_HOSTILE, hostile_blind.BLIND_BENIGN),
            "C": (hostile_train.TRAIN_HOSTILE, hostile_train.TRAIN_BENIGN)}


def _row(scored: tuple, rules: tuple, t: float) -> tuple[int, ...]:
    (hs, bs, os_), (rh, rb) = scored, rules
    return (sum(not (r or s >= t) for r, s in zip(rh, hs, strict=True)), len(hs),
            sum(r or s >= t for r, s in zip(rb, bs, strict=True)), len(bs), sum(s >= t for s in os_), len(os_))


def cross_validate() -> tuple[float, list[str]]:
    """(the bar, report lines): each fold scored by a model trained on the others."""
    f = folds()
    ords = ordinary()
    names = sorted(f)
    parts = {k: ords[i::len(names)] for i, k in enumerate(names)}
    feats = {k: (featurize(h), featurize(b), featurize(parts[k])) for k, (h, b) in f.items()}
    rules = {k: ([rules_hold(e) for e in h], [rules_hold(e) for e in b]) for k, (h, b) in f.items()}
    scored = {}
    for test in names:
        hp: list = []
        rest: list = []
        for k in names:
            if k != test:
                hp += feats[k][0]
                rest += feats[k][1] + feats[k][2]
        model = train(hp + rest, [1] * len(hp) + [0] * len(rest))
        scored[test] = tuple([_score(model, x) for x in part] for part in feats[test])
    bar, lines = None, []
    for t in GRID:
        row = {k: _row(scored[k], rules[k], t) for k in names}
        ok = all(b <= BENIGN_MOST * nb and o <= ORDINARY_MOST * no for _, _, b, nb, o, no in row.values())
        lines.append(f"bar {t:+.1f}: " + "; ".join(
            f"fold {k}: reach {r}/{n}, near-rule held {b}/{nb}, ordinary held {o}/{no}"
            for k, (r, n, b, nb, o, no) in row.items()) + ("  <- chosen" if ok and bar is None else ""))
        if ok and bar is None:
            bar = t
    if bar is None:
        raise SystemExit("no bar on the grid keeps the near-rule notes within the limit")
    return bar, lines


def build(out: str) -> list[str]:
    bar, lines = cross_validate()
    hostile, benign = [], []
    for h, b in folds().values():
        hostile += h
        benign += b
    hp, bp, op = featurize(hostile), featurize(benign), featurize(ordinary())
    w, b = train(hp + bp + op, [1] * len(hp) + [0] * (len(bp) + len(op)))
    data = {"dims": DIMS, "buckets": BUCKETS, "scale": SCALE, "bias": round(b, 5), "bar": bar,
            "trained_on": {"hostile": len(hp), "near_rule": len(bp), "ordinary": len(op)},
            "built_by": "tests/eval/build_learned_check.py", "unicode": unicodedata.unidata_version,
            "weights": [round(x, 5) for x in w]}
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(data, fh, separators=(",", ":"))
        fh.write("\n")
    return [*lines, f"written {out}: bar {bar:+.1f}, trained on {data['trained_on']}"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=lc.WEIGHTS)
    for line in build(ap.parse_args().out):
        print(line)


if __name__ == "__main__":
    main()
