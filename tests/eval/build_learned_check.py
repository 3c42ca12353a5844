"""Build the learned check's weights (src/lazy_harness/worker/learned_check.json, ADR 0046).

    python -m tests.eval.build_learned_check [--out PATH]

Trains a logistic regression (plain Python, a fixed seed: the same sets give the same file) on the
development sets only:

- hostile: ``hostile_set`` (DEV and HELDOUT), ``hostile_blind``, ``hostile_blind2`` and
  ``hostile_blind3`` (blind sets once, each measured and then used: development sets since) and the
  training sets ``hostile_train`` to ``hostile_train5`` (their hostile sides), each written by another
  hand from the category descriptions alone;
- benign: ``near_rule_set`` (DEV, HELDOUT, FRESH), the near-rule notes of the other eight sets, and
  ordinary notes: the memory of ``recall_blind``, ``recall_blind2`` and ``recall_set_cued``, the open
  items of ``todo_train``, the notes of ``attributed_train`` (ordinary notes that put their choice on a
  person: "the user asked for this", "per the reviewer") and realistic technical prose
  (tests/support/realistic_memory.py, seed 5). The learned check's ordinary rate is measured on notes
  kept out: the memory of ``recall_blind3``, the realistic notes of seed 11, the open items of
  ``todo_blind`` and the notes of ``attributed_blind`` (tests/eval/test_trust_blind_rates.py,
  tests/eval/test_todo_blind.py, tests/eval/test_attributed_blind.py).

The bar is chosen by cross-validation across the sets, one fold per set (A: hostile_set with
near_rule_set; B: hostile_blind; C to E: hostile_train to hostile_train3; F: hostile_blind2; G, H:
hostile_train4, hostile_train5; I: hostile_blind3; the ordinary notes split as many ways): a model
trained on the other folds scores each, and the bar is the lowest on the grid at which, in every
fold, the rules and the check together hold at most ``BENIGN_FOLD_MOST`` of the near-rule notes, and
of all folds together at most ``BENIGN_MOST`` of the near-rule notes, ``ORDINARY_MOST`` of the
ordinary ones and ``ATTRIBUTED_MOST`` of the ordinary notes of ``attributed_train`` (counted apart: a
fold's model holds about 2% of them at any bar, and at 1 in 400 they would set the bar alone). The
model written is then trained on all the folds with that bar. The second bar (``rest_bar``, for
``learned_check.rest_readings``: an entry without a field of 10 to 29 words) is then the lowest on the
grid, from the bar up, at which those readings of the same cross-validated scores hold no ordinary note
the whole does not and the near-rule limits above still hold. ``hostile_blind4``
(the blind set) is never read here. A split payload is trained on and scored here as its two halves
joined (the worker scores each entry alone): its halves only count in the folds' "reach" figures,
never in the choice of the bar.
"""

import argparse
import json
import math
import random
import unicodedata

from lazy_harness.memory import trust
from lazy_harness.worker import learned_check as lc
from tests.eval import (attributed_train, hostile_blind, hostile_blind2, hostile_blind3, hostile_set, hostile_train,
                        hostile_train2, hostile_train3, hostile_train4, hostile_train5, near_rule_set, recall_blind,
                        recall_blind2, recall_set_cued, todo_train)

DIMS, BUCKETS, SCALE = 256, 8192, 1.5
CHARS, CHAR_SCALE = 5, 1.0  # runs of 5 characters (chosen by the folds: 3, 4 and 5 tried)
EPOCHS, RATE, DECAY, SEED = 40, 0.3, 1e-4, 1
BENIGN_MOST = 0.07  # of the near-rule notes of all folds together (so is ORDINARY_MOST)
BENIGN_FOLD_MOST = 0.10  # of any one fold's (the goal for a set)
ORDINARY_MOST = 0.0025
# why apart: an ordinary note that puts its choice on a person shares its words with the hostile notes that
# claim an authority, and a fold's model holds a few of them whatever the bar (13 of 616 at 0.1, 9 at 1.0);
# counted at 1 in 400 with the rest (a first 405 of them) they raised the bar from 0.1 to 1.0 and let 177
# of 2,352 hostile notes through the folds, not 109; at 1 in 50 (all 616) the bar was 0.2, 134 through;
# at 1 in 40 it is -0.2, 114 through (ADR 0046)
ATTRIBUTED_MOST = 0.025  # of the attributed ordinary notes (attributed_train) of all folds together
REALISTIC = 900
GRID = [x / 10 for x in range(-10, 31)]


class _Shape:
    dims, buckets, scale, chars, char_scale = DIMS, BUCKETS, SCALE, CHARS, CHAR_SCALE


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
    return featurize_texts([text(e) for e in items])


def featurize_texts(texts: list[str]) -> list[dict[int, float]]:
    from lazy_harness.recall.embed import static_model

    flat = [lc.folded(t) for t in texts]
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
    # why the to-dos: an open item is imperative by nature, and without them the check learned the
    # imperative of a handoff as a hostile sign (it held "add rate limiting to the public API")
    # why the attributed notes: the others almost never put a choice on a person, while hostile notes claim
    # one's authority, and the check learned "the user asked", "agreed with the user" as hostile signs
    memory = (list(recall_blind.CUED) + list(recall_blind2.CUED) + list(recall_set_cued.ENTRIES)
              + list(todo_train.TODOS) + list(attributed_train.ENTRIES))
    return [{**e, "cues": list(e.get("cues") or [])} for e in memory] + prose


def folds() -> dict[str, tuple[list, list]]:
    hostile_a = hostile_set.DEV + hostile_set.HELDOUT
    benign_a = near_rule_set.DEV + near_rule_set.HELDOUT + near_rule_set.FRESH
    return {"A": (hostile_a, benign_a), "B": (hostile_blind.BLIND_HOSTILE, hostile_blind.BLIND_BENIGN),
            "C": (hostile_train.TRAIN_HOSTILE, hostile_train.TRAIN_BENIGN),
            "D": (hostile_train2.TRAIN2_HOSTILE, hostile_train2.TRAIN2_BENIGN),
            "E": (hostile_train3.TRAIN3_HOSTILE, hostile_train3.TRAIN3_BENIGN),
            "F": (hostile_blind2.BLIND2_HOSTILE, hostile_blind2.BLIND2_BENIGN),
            "G": (hostile_train4.TRAIN4_HOSTILE, hostile_train4.TRAIN4_BENIGN),
            "H": (hostile_train5.TRAIN5_HOSTILE, hostile_train5.TRAIN5_BENIGN),
            "I": (hostile_blind3.BLIND3_HOSTILE, hostile_blind3.BLIND3_BENIGN)}


def rest_texts(e: dict) -> list[str]:
    """The texts of ``learned_check.rest_readings`` of an entry (of each half of a split payload)."""
    return [t for p in (e["parts"] if e["kind"] == "pair" else [e]) for _, t in lc.rest_readings(_record(p), p["kind"])]


def _rest_scores(model: tuple[list[float], float], items: list[dict]) -> list[float]:
    """Each item's highest score of its ``rest_texts`` (-inf when it has none)."""
    each = [rest_texts(e) for e in items]
    flat = iter([_score(model, x) for x in featurize_texts([t for ts in each for t in ts])])
    return [max([next(flat) for _ in ts], default=-math.inf) for ts in each]


def attributed(items: list[dict]) -> list[bool]:
    """Which ordinary notes are of ``attributed_train`` (held to ``ATTRIBUTED_MOST``, not ``ORDINARY_MOST``)."""
    mine = {text({**e, "cues": []}) for e in attributed_train.ENTRIES}
    return [text(e) in mine for e in items]


def rest_bar(scored: dict, rests: dict, rules: dict, bar: float, flags: dict) -> tuple[float, list[str]]:
    """(the second bar, report lines): the lowest on the grid from ``bar`` up at which the rest readings
    hold no ordinary note the whole does not, and the near-rule notes held stay within the limits."""
    lines = []
    for t in (x for x in GRID if x >= bar):
        both = {k: tuple([s if s >= bar else (r if r >= t else -math.inf) for s, r in zip(a, b, strict=True)]
                         for a, b in zip(scored[k], rests[k], strict=True)) for k in scored}
        row = {k: _row(both[k], rules[k], bar, flags[k]) for k in scored}
        new = sum(r[4] + r[6] for r in row.values()) - sum(s >= bar for k in scored for s in scored[k][2])
        held, notes = sum(r[2] for r in row.values()), sum(r[3] for r in row.values())
        ok = (new == 0 and held <= BENIGN_MOST * notes and all(r[2] <= BENIGN_FOLD_MOST * r[3] for r in row.values()))
        lines.append(f"rest bar {t:+.1f}: reach {sum(r[0] for r in row.values())}, near-rule held {held}/{notes}, "
                     f"ordinary newly held {new}" + ("  <- chosen" if ok else ""))
        if ok:
            return t, lines
    # why not an error: a Python of other Unicode tables (3.13 against the 3.11 the file is built on) reads
    # some notes otherwise, and there no grid value may qualify; then no rest readings, as a file without one
    lines.append("rest bar: none on the grid holds no more ordinary notes; no rest readings")
    return math.inf, lines


def _row(scored: tuple, rules: tuple, t: float, flags: list[bool]) -> tuple[int, ...]:
    """(hostile reaching, of, near-rule held, of, ordinary held, of, attributed held, of): ``flags`` marks the
    attributed ordinary notes, counted apart from the other ordinary ones."""
    (hs, bs, os_), (rh, rb) = scored, rules
    plain = [s for s, f in zip(os_, flags, strict=True) if not f]
    mine = [s for s, f in zip(os_, flags, strict=True) if f]
    return (sum(not (r or s >= t) for r, s in zip(rh, hs, strict=True)), len(hs),
            sum(r or s >= t for r, s in zip(rb, bs, strict=True)), len(bs), sum(s >= t for s in plain), len(plain),
            sum(s >= t for s in mine), len(mine))


def cross_validate() -> tuple[float, float, list[str]]:
    """(the bar, the second bar, report lines): each fold scored by a model trained on the others."""
    f = folds()
    ords = ordinary()
    names = sorted(f)
    parts = {k: ords[i::len(names)] for i, k in enumerate(names)}
    flags = {k: attributed(parts[k]) for k in names}
    feats = {k: (featurize(h), featurize(b), featurize(parts[k])) for k, (h, b) in f.items()}
    rules = {k: ([rules_hold(e) for e in h], [rules_hold(e) for e in b]) for k, (h, b) in f.items()}
    scored, rests = {}, {}
    for test in names:
        hp: list = []
        rest: list = []
        for k in names:
            if k != test:
                hp += feats[k][0]
                rest += feats[k][1] + feats[k][2]
        model = train(hp + rest, [1] * len(hp) + [0] * len(rest))
        scored[test] = tuple([_score(model, x) for x in part] for part in feats[test])
        rests[test] = tuple(_rest_scores(model, items) for items in (*f[test], parts[test]))
    bar, lines = None, []
    for t in GRID:
        row = {k: _row(scored[k], rules[k], t, flags[k]) for k in names}
        # why: the rules alone hold 7.5% of one set's near-rule notes, so a bar per fold at 7% would not
        # exist; 7% of them all together keeps the margin, 10% in each is the goal for any one set
        # (the ordinary notes too: a fold holds under 200 of them, where 1 in 400 would mean none)
        held, notes = sum(r[2] for r in row.values()), sum(r[3] for r in row.values())
        plain, plains = sum(r[4] for r in row.values()), sum(r[5] for r in row.values())
        mine, mines = sum(r[6] for r in row.values()), sum(r[7] for r in row.values())
        ok = (held <= BENIGN_MOST * notes and plain <= ORDINARY_MOST * plains and mine <= ATTRIBUTED_MOST * mines
              and all(r[2] <= BENIGN_FOLD_MOST * r[3] for r in row.values()))
        lines.append(f"bar {t:+.1f}: " + "; ".join(
            f"fold {k}: reach {r}/{n}, near-rule held {b}/{nb}, ordinary held {o}/{no}, attributed held {a}/{na}"
            for k, (r, n, b, nb, o, no, a, na) in row.items()) + ("  <- chosen" if ok and bar is None else ""))
        if ok and bar is None:
            bar = t
    if bar is None:
        raise SystemExit("no bar on the grid keeps the near-rule notes within the limit")
    second, more = rest_bar(scored, rests, rules, bar, flags)
    return bar, second, lines + more


def build(out: str) -> list[str]:
    bar, second, lines = cross_validate()
    hostile, benign = [], []
    for h, b in folds().values():
        hostile += h
        benign += b
    hp, bp, op = featurize(hostile), featurize(benign), featurize(ordinary())
    w, b = train(hp + bp + op, [1] * len(hp) + [0] * (len(bp) + len(op)))
    data = {"dims": DIMS, "buckets": BUCKETS, "scale": SCALE, "chars": CHARS, "char_scale": CHAR_SCALE,
            "bias": round(b, 5), "bar": bar, "rest_bar": second,
            "trained_on": {"hostile": len(hp), "near_rule": len(bp), "ordinary": len(op)},
            "built_by": "tests/eval/build_learned_check.py", "unicode": unicodedata.unidata_version,
            "weights": [round(x, 5) for x in w]}
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(data, fh, separators=(",", ":"))
        fh.write("\n")
    return [*lines, f"written {out}: bar {bar:+.1f}, rest bar {second:+.1f}, trained on {data['trained_on']}"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=lc.WEIGHTS)
    for line in build(ap.parse_args().out):
        print(line)


if __name__ == "__main__":
    main()
