"""Ranking methods for prompt recall by similarity, compared on every part of the evaluation (ADR 0025).
Not a test and not run by CI; needs what ``cue_similarity`` needs (NumPy; onnxruntime, tokenizers
and the model packages for MiniLM).

    python -m tests.eval.ranking [--prompts FILE ...] [--scorers minilm,static] [--cache FILE]

The candidates are the hook's own (``cue_similarity.candidates``: entries one of the prompt's word
groups reaches, in the hook's lexical order). For each scorer (MiniLM through onnxruntime, the
static table through ``recall/embed/static_model.py``) and each method:

- ``words`` (no scorer): the strength bar of ADR 0019, what the hook does without vectors;
- ``cosine``: a candidate passes when it matches a word group (one more for another project's
  learning) and its similarity reaches the bar; passed candidates are ordered by similarity;
- ``rrf``: the same bar, passed candidates ordered by reciprocal rank fusion (k = 60) of their
  lexical rank and their similarity rank among the candidates that match enough groups;
- ``blend``: the bar and the order on the similarity plus ``W`` times the candidate's lexical
  strength (``rank.rank``: its BM25 for the prompt, normalised), capped at ``CAP``; so an entry
  the prompt's words reach strongly needs less similarity. ``W`` and ``CAP`` are fixed here, not
  fitted (ADR 0025 shows the neighbours);
- ``per-kind``: a bar per kind (decision, failure, learning, open item), each moved from the fitted
  common bar one step at a time while the fit improves; ordered by similarity.

Each bar is fitted at noise <= 1 in 6 (the most recall, then the least noise). Printed per method:
fitted on all prompts (optimistic), and each part scored with the bar fitted on the other parts
(leave one part out; the honest figure), with the parts pooled.
"""

import argparse
import os
import pickle
import sys

from tests.eval import cue_similarity as cs
from tests.eval import prompt_files, recall_eval, recall_set

K = 60
W, CAP = 0.04, 4.0
KINDS = ("decision", "failure", "learning", "handoff")
GRID = [round(0.10 + 0.01 * i, 2) for i in range(91)]
STRENGTHS = [round(0.5 + 0.1 * i, 1) for i in range(60)]


def _eligible(r: dict) -> list[tuple]:
    return [c for c in r["cands"] if c[1] >= 1 + c[2]]


def chosen(r: dict, method: str, bar) -> list[str]:
    """The ids the hook would show (at most 5) for prompt row ``r``."""
    sim = r["sim"]
    eligible = _eligible(r)
    if method == "words":  # the strength bar of ADR 0019, no similarity: the hook without vectors
        return [c[0] for c in eligible if c[4] >= bar][:5]
    if method == "blend":
        sim = {c[0]: sim[c[0]] + W * min(max(c[4], 0.0), CAP) for c in eligible}
    if method == "per-kind":
        passed = [c for c in eligible if sim[c[0]] >= bar[c[3]]]
    else:
        passed = [c for c in eligible if sim[c[0]] >= bar]
    if method == "rrf":
        lex = {c[0]: n for n, c in enumerate(eligible, 1)}
        cos = {c[0]: n for n, c in enumerate(sorted(eligible, key=lambda c: -sim[c[0]]), 1)}
        passed.sort(key=lambda c: -(1.0 / (K + lex[c[0]]) + 1.0 / (K + cos[c[0]])))
    else:
        passed.sort(key=lambda c: -sim[c[0]])
    return [c[0] for c in passed[:5]]


def score(rows: list[dict], method: str, bar) -> tuple[int, int, int, int]:
    """(hits, labelled, noisy, no-memory prompts)."""
    hits = labelled = noisy = empty = 0
    for r in rows:
        top = set(chosen(r, method, bar))
        if r["want"]:
            labelled += 1
            hits += bool(r["want"] & top)
        else:
            empty += 1
            noisy += bool(top)
    return hits, labelled, noisy, empty


def _better(got, best) -> bool:
    return best is None or (got[0], -got[2]) > (best[0], -best[2])


def fit(rows: list[dict], method: str):
    """The bar with the most recall at noise <= 1 in 6 on ``rows`` (then the least noise)."""
    best, bar = None, None
    for t in (STRENGTHS if method == "words" else GRID):
        got = score(rows, "cosine" if method == "per-kind" else method, t)
        if got[2] * 6 <= got[3] and _better(got, best):
            best, bar = got, t
    if method != "per-kind" or bar is None:
        return bar
    bars = dict.fromkeys(KINDS, bar)
    improved = True
    while improved:
        improved = False
        for kind in KINDS:
            for step in (-0.01, 0.01):
                trial = {**bars, kind: round(bars[kind] + step, 2)}
                got = score(rows, method, trial)
                if got[2] * 6 <= got[3] and _better(got, best):
                    best, bars, improved = got, trial, True
    return bars


def _rate(hits, labelled, noisy, empty) -> str:
    return f"{hits / max(1, labelled):.3f} at {noisy}/{empty}"


def _bar(bar) -> str:
    if isinstance(bar, dict):
        return "/".join(f"{bar[k]:.2f}" for k in KINDS)
    return "-" if bar is None else f"{bar:.2f}"


def evaluate(rows: list[dict], method: str) -> dict:
    names = list(dict.fromkeys(r["part"] for r in rows))
    out = {"all": None, "parts": {}, "pooled": [0, 0, 0, 0]}
    bar = fit(rows, method)
    out["all"] = (bar, score(rows, method, bar) if bar is not None else None)
    for p in names:
        mine = [r for r in rows if r["part"] == p]
        bar = fit([r for r in rows if r["part"] != p], method) if len(names) > 1 else None
        if bar is None:
            continue
        got = score(mine, method, bar)
        out["parts"][p] = (bar, got)
        out["pooled"] = [a + b for a, b in zip(out["pooled"], got, strict=True)]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prompts", action="append", default=[], help="an extra PROMPTS file (repeatable)")
    parser.add_argument("--scorers", default="minilm,static")
    parser.add_argument("--cache", default="", help="keep the candidates and similarities in this pickle")
    opts = parser.parse_args()
    try:
        extra = prompt_files.load_all(opts.prompts, recall_set)
    except prompt_files.PromptFileError as exc:
        print(f"ranking: {exc}", file=sys.stderr)
        return 2
    parts = recall_eval.parts("tests.eval.recall_set_cued", extra=extra)
    if opts.cache and os.path.exists(opts.cache):
        with open(opts.cache, "rb") as fh:
            rows = pickle.load(fh)
    else:
        rows = cs.candidates(parts)
    for scorer in opts.scorers.split(","):
        if f"sim_{scorer}" not in rows[0]:
            cs.similarities(rows, cs.embedder() if scorer == "minilm" else cs.static_embedder())
            for r in rows:
                r[f"sim_{scorer}"] = r.pop("sim")
    if opts.cache:
        with open(opts.cache, "wb") as fh:
            pickle.dump(rows, fh)
    names = list(dict.fromkeys(r["part"] for r in rows))
    labelled = sum(bool(r["want"]) for r in rows)
    print(f"{len(rows)} prompts ({labelled} with a relevant entry, {len(rows) - labelled} without) in parts "
          + ", ".join(names) + "; recall@5 at noise (no-memory prompts with any injection)")
    print(f"{'scorer':<8} {'method':<9} {'fitted on all':<28} "
          + " ".join(f"{p + ' (bar from the others)':<36}" for p in names)
          + " pooled")
    for scorer in ["-"] + opts.scorers.split(","):
        for r in rows:
            r["sim"] = r.get(f"sim_{scorer}")
        for method in ("words",) if scorer == "-" else ("cosine", "rrf", "blend", "per-kind"):
            res = evaluate(rows, method)
            bar, got = res["all"]
            cells = [f"{_bar(res['parts'][p][0])}: {_rate(*res['parts'][p][1])}" if p in res["parts"] else "-"
                     for p in names]
            print(f"{scorer:<8} {method:<9} {(_bar(bar) + ': ' + _rate(*got)) if got else '-':<28} "
                  + " ".join(f"{c:<36}" for c in cells) + " " + _rate(*res["pooled"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
