"""Prompt recall replayed in this process, with a candidate rule added to the similarity bar: a rule
measured on the evaluation sets before anything of it is written into recall/prompt/rank.py.

    python -m tests.eval.rule_replay [--set tests.eval.recall_blind] [--part dev|held-out] [--rule NAME ...]

The set's memory is built and indexed as ``recall_eval`` builds it, with the default install's bar
(similarity on); then each prompt goes to ``recall.context_for`` as the prompt hook sends it (its gate
first, a new session, nothing shown before), and is scored by ``recall_eval``'s own code. Without a rule
the figures are the hook's (``test_rule_replay.py`` compares them), in seconds instead of minutes.
A rule is asked about each candidate that passes the similarity bar's other rules, where the crowd
rule is asked (``rank.stands_out``): before the withheld checks and the trail rule, so a note it
takes out no longer sets the trail for the others. ``--rule`` names one of ``RULES`` (repeatable; the
bar without a rule is always measured first):

  task-0.75      a task prompt (it opens with a task verb, ``TASK``: "add a ...", "please write ...")
                 passes a note only at a score (``blended``) of 0.75 or more; the bar elsewhere
  task-none      a task prompt gets nothing
  object-0.6     a task prompt passes a note only when one of its distinctive words is in the prompt's
                 object (the words after the verb, up to the first preposition), or at similarity 0.6
  object-none    the same, without the similarity that lets a note in anyway
  lead-0.10      a note passes only within 0.10 of the best similarity among the compared candidates
  title          a note passes only when one of its distinctive words is in the entry's title (summary)
  title-sim-0.3  a note passes only when the prompt's similarity with the entry's title alone is 0.3 or more
  df-S-C         a note matches a *rare* word, one at most a share S of the index's entries hold
                 (``lookup``'s document frequencies), and the rare words it matches carry at least a share
                 C of the weight of all the prompt's rare words (``rare_cover``); S 0.01 to 0.1, C 0 to 0.5
  text, text-df-S   a distinctive word of the note (a rare one with ``-df-S``) is in its title or text,
                 not only in its tags and cues
  novel-N        a prompt gets nothing when at least a share N of its distinctive words no entry holds
                 (``novelty``; ``novel-1``: all of them, which the bar already gives nothing)
  agree-K        a prompt gets notes only when its compared candidate most similar to it is among the K
                 best compared candidates by BM25 (``agree``)
  both-top-3     a note is among the 3 best compared candidates by BM25 and by similarity alike
  margin-M, sim-margin-M   a prompt gets notes only when the best compared candidate's score (its
                 similarity) is M above the median one's (``margin``)
  RULE-under-L   RULE asked only of a note whose similarity is under L (0.4, 0.45, 0.5)

What was measured with it, and why none was taken: docs/how/recall.md, "A task prompt's wording" and
"Rare words, novelty, agreement and margins".
"""

import argparse
import contextlib
import importlib
import os
import re
import sys
import tempfile
import time

from lazy_harness import config, paths
from lazy_harness.recall.index import lookup
from lazy_harness.recall.prompt import rank, recall, worth_searching

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.eval import recall_eval  # noqa: E402

# verbs that open a request to make or change something, in their base form
TASK = frozenset("""
add write rename fix bump make update create refactor implement remove delete move change replace convert
generate translate summarize summarise draft set put show hide clean extract split enable disable allow
improve migrate document describe explain build design edit
""".split())
# what may come before the verb: "please", "can you", "let's"
LEAD = re.compile(r"^\s*(?:(?:please|pls|can|could|would|will|you|we|i|let's|lets|let|us|go|ahead|and|now|"
                  r"then|just|quickly)\s+)*([a-z]+)", re.I)
PREPOSITIONS = frozenset("""
for to in on of with from after before when by into at about under over via so that because while if as
than onto inside within across
""".split())


def is_task(prompt: str) -> bool:
    """Whether ``prompt`` opens with a task verb (``TASK``), after "please", "can you" and the like."""
    m = LEAD.match(prompt)
    return bool(m) and m.group(1).lower() in TASK


def object_terms(prompt: str) -> set[str]:
    """The prompt's terms (``rank.groups``) between its first word and its first preposition."""
    m = LEAD.match(prompt)
    span = []
    for word in re.findall(r"[\w'./-]+", prompt[m.end():] if m else prompt):
        if word.lower() in PREPOSITIONS:
            break
        span.append(word)
    return set(rank.groups(" ".join(span)))


class Asked:
    """What a rule may look at beside the candidate: the prompt, every candidate of it, the index, and the
    word search's facts (``N`` entries in the index, ``df`` of each of the prompt's terms)."""

    prompt = ""
    ranked: list = []
    conn = None
    facts: dict = {}


def _cos(a: bytes, b: bytes) -> float:
    x, y = memoryview(a).cast("b"), memoryview(b).cast("b")
    na, nb = sum(p * p for p in x) ** 0.5, sum(q * q for q in y) ** 0.5
    return sum(p * q for p, q in zip(x, y, strict=True)) / (na * nb) if na and nb else 0.0


def in_title(c: dict, columns: int = 1) -> list[str]:
    """The candidate's distinctive words found in its title (the index's first column), or with
    ``columns`` 2 in its title or text (the second: a decision's rationale, a learning's body), not only
    in its tags and cues."""
    from lazy_harness.recall.index import lookup, terms

    row = Asked.conn.execute("SELECT toks FROM lex_doc WHERE rowid=?", (c["rowid"],)).fetchone()
    title = " \n ".join(lookup.spaced(row[0]).split("\n")[:columns]) if row else ""
    found = []
    for term in c["anchors"]:
        alts = [lookup._alternative(a) for a in terms.group_alternatives(term)]
        pats = [" " + ws[0] if kind == "prefix" else " " + " ".join(ws) + " " for kind, _, ws in alts if ws and all(ws)]
        found += [term] if any(p in title for p in pats) else []
    return found


def title_similarity(c: dict) -> float:
    from lazy_harness.recall.embed import static_model

    model = static_model.load()
    return _cos(model.embed(Asked.prompt), model.embed(c["title"] or ""))


def _best_similarity() -> float:
    return max((c["similarity"] for c in Asked.ranked if c.get("similarity") is not None), default=0.0)


def _object_rule(least: float):
    return lambda c: not is_task(Asked.prompt) or c["similarity"] >= least or bool(
        object_terms(Asked.prompt) & set(c["anchors"]))


def _rare(share: float) -> dict[str, float]:
    """The prompt's terms that at most ``share`` of the index's entries hold (none too), by their weight."""
    n, df = Asked.facts.get("N", 0), Asked.facts.get("df", [])
    return {t: rank._weight(max(n, 1), d) for t, d in zip(rank.groups(Asked.prompt), df, strict=False)
            if d <= share * n}


def rare_cover(c: dict, share: float) -> float:
    """The share of the prompt's rare words' weight (:func:`_rare`) that ``c`` matches."""
    rare = _rare(share)
    return sum(rare[t] for t in c["matched"] if t in rare) / (sum(rare.values()) or 1.0)


def _df_rule(share: float, least: float):
    return lambda c: any(t in _rare(share) for t in c["matched"]) and rare_cover(c, share) >= least


def novelty() -> float:
    """The share of the prompt's distinctive terms (not ``terms.GENERIC``) that no entry holds."""
    from lazy_harness.recall.index import terms

    df = dict(zip(rank.groups(Asked.prompt), Asked.facts.get("df", []), strict=False))
    own = [t for t in df if not terms.generic(t)]
    return sum(1 for t in own if not df[t]) / len(own) if own else 0.0


def _compared() -> list[dict]:
    return [c for c in Asked.ranked if c.get("similarity") is not None]


def agree(top: int) -> bool:
    """Whether the compared candidate most similar to the prompt is among the ``top`` best by BM25."""
    compared = _compared()
    if not compared:
        return False
    best = max(compared, key=lambda c: c["similarity"])
    return best in sorted(compared, key=lambda c: c["bm25"])[:top]


def both_top(c: dict, top: int) -> bool:
    """Whether ``c`` is among the ``top`` compared candidates by BM25 and by similarity alike."""
    compared = _compared()
    return (c in sorted(compared, key=lambda x: x["bm25"])[:top]
            and c in sorted(compared, key=lambda x: -x["similarity"])[:top])


def margin(key: str) -> float:
    """The best compared candidate's ``key`` (``blended``, ``similarity``) less the median one's."""
    values = sorted(c[key] for c in _compared() if c.get(key) is not None)
    return values[-1] - values[(len(values) - 1) // 2] if values else 0.0


def _novel_rule(least: float):
    return lambda c: novelty() < least


def _text_df_rule(share: float):
    return lambda c: any(t in _rare(share) for t in in_title(c, 2))


def _margin_rule(key: str, least: float):
    return lambda c: margin(key) >= least


def _only_under(name: str, low: float):
    """The rule ``name`` asked only of a note whose similarity is under ``low`` (the modest matches)."""
    return lambda c: c["similarity"] >= low or RULES[name](c)


RULES = {
    "task-0.75": lambda c: not is_task(Asked.prompt) or c["blended"] >= 0.75,
    "task-none": lambda c: not is_task(Asked.prompt),
    "object-0.6": _object_rule(0.6),
    "object-none": _object_rule(9.0),
    "lead-0.10": lambda c: c["similarity"] >= _best_similarity() - 0.10,
    "title": lambda c: bool(in_title(c)),
    "title-sim-0.3": lambda c: title_similarity(c) >= 0.3,
    **{f"df-{share:g}-{least:g}": _df_rule(share, least) for share in (0.01, 0.02, 0.03, 0.05, 0.1)
       for least in (0, 0.3, 0.5)},
    **{f"novel-{least:g}": _novel_rule(least) for least in (0.34, 0.5, 0.67, 1)},
    "text": lambda c: bool(in_title(c, 2)),
    **{f"text-df-{share:g}": _text_df_rule(share) for share in (0.02, 0.05)},
    "agree-1": lambda c: agree(1),
    "agree-3": lambda c: agree(3),
    "both-top-3": lambda c: both_top(c, 3),
    **{f"margin-{m:g}": _margin_rule("blended", m) for m in (0.1, 0.15, 0.2, 0.25)},
    **{f"sim-margin-{m:g}": _margin_rule("similarity", m) for m in (0.1, 0.15, 0.2)},
    **{f"{name}-under-{low:g}": _only_under(name, low) for low in (0.4, 0.45, 0.5)
       for name in ("df-0.02-0", "df-0.03-0", "df-0.05-0", "df-0.1-0.3", "novel-0.5", "agree-3", "both-top-3",
                    "margin-0.15", "text")},
}


@contextlib.contextmanager
def rule_in_bar(rule):
    """``rule`` asked where the crowd rule is, for the time of the block."""
    # why: the experiment's rule goes where the bar's last rule is asked, without a seam in the product
    # for rules that are not taken
    stands_out, by_similarity, candidates = rank.stands_out, rank.by_similarity, lookup.candidates

    def also(c: dict) -> bool:
        return stands_out(c) and (rule is None or bool(rule(c)))

    def seen(ranked, *args, **kwargs):
        Asked.ranked = ranked
        return by_similarity(ranked, *args, **kwargs)

    def searched(*args, **kwargs):
        rows, Asked.facts = candidates(*args, **kwargs)
        return rows, Asked.facts

    rank.stands_out, rank.by_similarity, lookup.candidates = also, seen, searched
    try:
        yield
    finally:
        rank.stands_out, rank.by_similarity, lookup.candidates = stands_out, by_similarity, candidates


def answer(prompt: str, cwd: str, cfg: dict, env: dict) -> list[str]:
    """The ids the hook would inject for ``prompt`` (a :class:`recall_eval.Injected`)."""
    if worth_searching.skip_reason(prompt, cfg["recall"]):
        return recall_eval.Injected()
    Asked.prompt = prompt
    text, info = recall.context_for(prompt, cwd, cfg, env)
    got = recall_eval.Injected(c["id"] for c in info.get("kept") or ())
    got.chars = len(text or "")
    return got


def _built(root: str, data, now: float) -> tuple[dict, dict]:
    """(the environment, {project: folder}) of the set's memory, built and indexed under ``root``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CLAUDE_CONFIG_DIR", "LH_CONFIG", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
                        "LH_WORKER_CALL", "CLAUDE_PROJECT_DIR")}
    env["HOME"] = os.path.join(root, "home")
    os.makedirs(env["HOME"])
    dirs = recall_eval.build(root, env, data.ENTRIES, data.PROJECTS, now)
    recall_eval.index_all(dirs, env)
    env["LH_CONFIG"] = recall_eval.write_bar(root, recall_eval.SEMANTIC)
    return env, dirs


def measure(set_module: str, rules: list, only: str | None = None) -> dict:
    """{rule name (None: no rule): the result ``recall_eval.measure`` gives for a bar}."""
    from lazy_harness.recall.index import store

    data = importlib.import_module(set_module)
    key_id = {e["key"]: recall_eval.entry_id(e) for e in data.ENTRIES}
    id_key = {v: k for k, v in key_id.items()}
    todo = recall_eval.parts(set_module, only)
    flat = [(part, project, prompt, want) for part, prompts in todo for project, prompt, want in prompts]
    baseline = [recall_eval.grep(prompt, project, data.ENTRIES) for _, project, prompt, _ in flat]
    out = {}
    with tempfile.TemporaryDirectory(prefix="lh-replay-") as root:
        env, dirs = _built(root, data, time.time())
        cfg = config.load(env)
        Asked.conn = store.connect(paths.recall_index_file(env), create=False)
        try:
            for name in rules:
                with rule_in_bar(RULES[name] if name else None):
                    got = [answer(prompt, dirs[project], cfg, env) for _, project, prompt, _ in flat]
                out[name] = recall_eval._judge(flat, todo, data.ENTRIES, key_id, id_key, baseline, got, False, None)
                out[name]["judged"] = recall_eval.judged_noise(set_module, flat, got, id_key)
        finally:
            Asked.conn.close()
    return out


def main(argv: list[str] | None = None) -> int:
    os.umask(0o022)  # why: as recall_eval; the sample writers' folders follow the umask
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", default="tests.eval.recall_blind", help="module holding ENTRIES, PROMPTS, PROJECTS")
    parser.add_argument("--part", choices=("dev", "held-out"), help="one of the set's parts only")
    parser.add_argument("--rule", action="append", default=[], choices=sorted(RULES), help="a rule to measure")
    opts = parser.parse_args(argv)
    for name, res in measure(opts.set, [None, *opts.rule], opts.part).items():
        for part, r in [*res["parts"].items(), ("all", res)]:
            hook = r["hook"]
            print(f"{name or 'the bar':<14} {part:<9} recall@5 {hook['hits']}/{hook['labelled']}   no-memory "
                  f"prompts that got a note {hook['noise']}/{hook['empty']}   notes {hook['injected']}")
        if res.get("judged"):
            j = res["judged"]
            print(f"{'':<14} blind judge: {j['given']} of {j['useful']} prompts with a useful entry got one; "
                  f"{j['noisy']} of {j['clean']} without got a note; {j['wanted']} of {j['injected']} notes useful")
    return 0


if __name__ == "__main__":
    sys.exit(main())
