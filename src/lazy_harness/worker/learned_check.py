"""The learned check: a second reading of what a session just wrote, beside the hold rules (ADR 0040).

The rules of memory/trust.py hold what they recognise; a note reworded past every rule reaches the
model. This check scores an entry's text with a linear model trained on notes that ask a future agent
to harm its user (run fetched code, send data out, disable a safety net, hide things, obey a claimed
authority, break out of the memory block) against notes that merely use the same tools. Its features
are the shipped static model's vector of the text (what it is about, in any wording) and hashed words
and word pairs of the folded text (the verbs and objects it uses); the weights, the bias and the bar
ship beside this module (``learned_check.json``, built by tests/eval/build_learned_check.py, which
prints how the bar was chosen). An entry at or above the bar is held like one a rule holds, with the
score in its reason; the person approves it with ``lh memory approve`` when it is not hostile.

Run where entries are written (the worker, after the persist), never on a hook's path: it loads the
static model and a few thousand weights, and reads each new entry once.
"""

import json
import math
import os
import re
import zlib

from lazy_harness.regular_file import read_regular

WEIGHTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "learned_check.json")
_WORD = re.compile(r"[^\W_]+|[^\w\s]")
LONG = 30  # words: a field this long is also read apart from the rest of its entry (``readings``)
SHORT = 10  # words: the rest of an entry without a field of SHORT to LONG - 1 words is read too (``rest_readings``)

_loaded: dict[str, "Model"] = {}


class Model:
    """The weights file, read and checked once a process."""

    def __init__(self, path: str) -> None:
        try:
            data = json.loads(read_regular(path))  # why read_regular: a FIFO there held the worker
            self.dims, self.buckets = int(data["dims"]), int(data["buckets"])
            self.scale, self.bias, self.bar = float(data["scale"]), float(data["bias"]), float(data["bar"])
            self.chars, self.char_scale = int(data.get("chars", 0)), float(data.get("char_scale", 0.0))
            # the bar of ``rest_readings``; a file without one reads no such readings
            self.rest_bar = float(data.get("rest_bar", math.inf))
            self.weights = [float(w) for w in data["weights"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}: not a learned check weights file: {exc}") from None
        if len(self.weights) != self.dims + self.buckets or self.buckets <= 0:
            raise ValueError(f"{path}: {len(self.weights)} weights, expected dims + buckets")

    def score(self, text: str, vector: bytes) -> float:
        """The model's score of a text (its logit: above 0 reads as hostile more than not)."""
        # why: fsum is exactly rounded, so a score does not depend on the Python version (3.12 changed
        # how sum() adds floats) nor on the order the words were hashed in
        return math.fsum([self.bias, *(self.weights[i] * v for i, v in features(text, vector, self).items())])


def features(text: str, vector: bytes, model: "Model") -> dict[int, float]:
    """Sparse features of a folded text: the unit vector (``vector``, the static model's int8 vector of
    ``text``), then each distinct word and pair of neighbouring words hashed into ``model.buckets``,
    together weighing ``model.scale`` (a long note weighs no more than a short one), and with
    ``model.chars`` each distinct run of that many characters of a word (marked at its ends), together
    weighing ``model.char_scale``: a word's inflections and compounds, in languages the words alone
    see as many unrelated words, share most of their runs."""
    out: dict[int, float] = {}
    v = memoryview(vector).cast("b")
    norm = sum(x * x for x in v) ** 0.5
    if norm and len(v) == model.dims:
        out.update((i, x / norm) for i, x in enumerate(v) if x)
    words = _WORD.findall(text)
    grams = set(words) | {f"{a} {b}" for a, b in zip(words, words[1:], strict=False)}
    if grams:
        share = model.scale / len(grams) ** 0.5
        for g in grams:
            i = model.dims + zlib.crc32(g.encode("utf-8")) % model.buckets
            out[i] = out.get(i, 0.0) + share
    if model.chars:
        _char_runs(out, words, model)
    return out


def _char_runs(out: dict[int, float], words: list[str], model: "Model") -> None:
    n = model.chars
    runs: set[str] = set()
    for word in words:
        marked = f"<{word}>"
        runs.update(marked[i:i + n] for i in range(max(1, len(marked) - n + 1)))
    if not runs:
        return  # why: a text of no words (a field of spaces beside a long one) has no runs to weigh
    share = model.char_scale / len(runs) ** 0.5
    for run in runs:
        # why: a prefix keeps a run from landing in the bucket of the word it spells
        i = model.dims + zlib.crc32(("\x00" + run).encode("utf-8")) % model.buckets
        out[i] = out.get(i, 0.0) + share


def folded(text: str) -> str:
    """The text as the rules read it: disguises off, lookalikes mapped, case folded (trust.forms)."""
    from lazy_harness.memory import trust

    return trust.forms(text)[-1]


def load(path: str | None = None) -> Model:
    path = path or WEIGHTS
    if path not in _loaded:
        _loaded[path] = Model(path)
    return _loaded[path]


def scores(texts: list[str], model: Model | None = None) -> list[float]:
    """The score of each text (folded first), embedded in one pass."""
    from lazy_harness.recall.embed import static_model

    model = model or load()
    flat = [folded(t) for t in texts]
    vectors = static_model.load().embed_many(flat)
    return [model.score(t, v) for t, v in zip(flat, vectors, strict=True)]


def reason_of(score: float, bar: float, where: str = "") -> str:
    """The hold's reason; ``where`` names the reading that scored (``readings``), none for the whole text."""
    at = f" {where}" if where else ""
    return (f"the learned check (score {score:.2f}{at}, bar {bar:.2f}) reads it as an instruction to the "
            f"agent; approve it if it is an ordinary note")


def check_texts(texts: list[str], model: Model | None = None) -> list[str | None]:
    """A reason for each text that scores at or above the bar, else None. Each text alone: two texts
    joined are not scored (unlike the rules' ``check_session``), since a longer text weighs its words
    more and two ordinary notes read as one could pass the bar that neither reaches."""
    model = model or load()
    return [reason_of(s, model.bar) if s >= model.bar else None for s in scores(texts, model)]


def readings(rec: dict, kind: str) -> list[tuple[str, str]]:
    """``(where, text)`` of each reading of an entry: its whole text (``trust.text_of``, where ''), then,
    for each field of at least ``LONG`` words beside others, that field alone and the rest without it.
    why: the word features are shared out over the distinct words, so a paragraph of ordinary prose in
    one field dilutes an instruction in another under the bar; why only long fields: the weights were
    fitted on whole entries, and a short field or a short rest scores higher than the same words in
    the whole (every field alone at the same bar held 13 of 422 and 33 of 1,500 ordinary notes, ADR 0046)."""
    from lazy_harness.memory import trust

    out = [("", trust.text_of(rec, kind))]
    names = [f for f in trust.FIELDS.get(kind, ("summary",)) if rec.get(f)]
    for name in names if len(names) > 1 else ():
        text = trust.text_of({name: rec[name]}, kind)  # the field as the whole text reads it
        if len(text.split()) >= LONG:
            rest = trust.text_of({f: v for f, v in rec.items() if f != name}, kind)
            out += [(f"in its {name} alone", text), (f"without its {name}", rest)]
    return out


def rest_readings(rec: dict, kind: str) -> list[tuple[str, str]]:
    """``(where, text)``: for each field of ``SHORT`` to ``LONG`` - 1 words beside others, the rest of the
    entry without it, scored against the model's second, higher bar (``rest_bar``).
    why: a paragraph of ten to thirty ordinary words dilutes an instruction under the bar as a long one
    does, but a field that short read alone, or the rest at the same bar, holds ordinary notes (a
    summary without its rationale); the second bar is chosen so that no ordinary note of the development
    folds is held by these readings (tests/eval/build_learned_check.py, ADR 0046)."""
    from lazy_harness.memory import trust

    names = [f for f in trust.FIELDS.get(kind, ("summary",)) if rec.get(f)]
    out = []
    for name in names if len(names) > 1 else ():
        if SHORT <= len(trust.text_of({name: rec[name]}, kind).split()) < LONG:
            out.append((f"without its {name}", trust.text_of({f: v for f, v in rec.items() if f != name}, kind)))
    return out


def check_records(records: list[tuple[dict, str]], model: Model | None = None) -> list[str | None]:
    """A reason for each ``(entry, kind)`` whose highest reading (``readings``) scores at or above the
    bar, or whose highest ``rest_readings`` at or above ``rest_bar``, else None; every reading of every
    entry embedded in one pass."""
    model = model or load()
    each = [(readings(rec, kind), rest_readings(rec, kind) if model.rest_bar < math.inf else [])
            for rec, kind in records]
    flat = scores([t for rs, more in each for _, t in rs + more], model)
    out: list[str | None] = []
    at = 0
    for rs, more in each:
        got = list(zip(flat[at:at + len(rs) + len(more)], (w for w, _ in rs + more), strict=True))
        at += len(got)
        out.append(_verdict(got[:len(rs)], got[len(rs):], model))
    return out


def _verdict(got: list[tuple[float, str]], more: list[tuple[float, str]], model: Model) -> str | None:
    score, where = max(got, key=lambda sw: sw[0])
    if score >= model.bar:
        return reason_of(score, model.bar, where)
    if more and (top := max(more, key=lambda sw: sw[0]))[0] >= model.rest_bar:
        return reason_of(top[0], model.rest_bar, top[1])
    return None


def scan(written: list[tuple], skip: set[str]) -> list[tuple[str, str, str, str]]:
    """``(kind, id, learning path or '', reason)`` of each entry a persist wrote (``held_written.written_records``:
    kind, id, path, the record the rules read, its kind) that the rules did not hold (``skip``) and the
    learned check holds."""
    todo = [w for w in written if w[1] not in skip]
    verdicts = check_records([(w[3], w[4]) for w in todo]) if todo else []
    return [(w[0], w[1], w[2], why) for w, why in zip(todo, verdicts, strict=True) if why]
