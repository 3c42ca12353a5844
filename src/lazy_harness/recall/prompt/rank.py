"""Which entries a prompt gets, and the text that carries them: the prompt's terms (at most
``MAX_TERMS``, each a group of alternatives), the best ``POOL`` candidates of the word lists
(``lookup.candidates``, ADR 0049), the strength bar (``rank``), with ``recall.semantic`` the
similarity bar and its evidence rules (``by_similarity``, ADR 0020, 0025, 0034, 0041), and the
lines printed (``render``). The bars step by step: docs/how/recall.md, "How selection works",
"Similarity" and "Precision"; each number's measured reason is beside its constant here.
"""

from __future__ import annotations

import math
import os

from lazy_harness.logfile import terminal_safe
from lazy_harness.memory.fence import FENCE, date_of, from_origin, neutral, sentence, units
from lazy_harness.recall.index import lookup, terms

# why: not ``from typing import TYPE_CHECKING``: the prompt hook loads this module, and never ``typing``
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection
    from sqlite3 import Connection
    from typing import Any

    from lazy_harness.config.typed import RecallConfig

MAX_TERMS = 12
POOL = 60
# why: a prompt in other words than memory holds words no entry has; each weighs half the rarest
# word's weight, so a paraphrase is not drowned by its own new words, yet a prompt mostly about
# things memory never mentions still gets nothing
UNKNOWN = 0.5
# why: a general learning from another project reaches this one because it is about a language or
# a tool every project uses ("python", "list", "docker"), and so do prompts that need no memory at
# all; it must match one word more than the project's own entries. On the evaluation this took
# noise from 15 to 9 of 56 prompts with no relevant memory, for 2 of 197 expected entries
OTHER_PROJECT = 1
# why: a decision, failure or learning written before cues (ADR 0018) has one field fewer for a
# prompt to match, so its BM25 runs lower for the same relevance; its strength counts this many
# times. On the evaluation's entries without cues (hand-written, then with tags only), over the
# repository's prompts and three outside sets, the strength bar then found at least what the
# coverage bar found, with less noise; one later set did not confirm it for hand-written entries
# (ADR 0019)
UNCUED = 1.6
# why: the similarity alone misses entries whose words match the prompt strongly (a static model
# knows words, not sentences); a little of the strength helps. Fixed, not fitted: on the repository's
# prompts the neighbours (0.03 to 0.05, cap 3 to 5) give 0.87 to 0.90 recall@5 (ADR 0025)
BLEND, BLEND_CAP = 0.04, 4.0
# why: ADR 0034. On the development sets (the repository's set with tags, with tags and cues, and the
# blind set's development prompts), a candidate that matched one distinctive word of a prompt holding
# several was the expected entry about 1 time in 10, whatever its similarity under 0.6: a prompt names
# a place (the wishlist screen, the footer) and a task, and memory shares the place. Asking for a
# second distinctive word, or this similarity, took no-memory prompts that got anything from 7 of 8
# to 2 of 8 there. Counting the coverage in the score (COVER) gave back most of the recall this cost;
# 0.3 gave a little more, and let 3 of the repository's 20 no-memory prompts through on similarities
# of 0.36 to 0.42
ALONE = 0.60
COVER = 0.2
# why: ADR 0041. Entries that all hold the distinctive words an entry matched (a component the project's
# memory often names: the search dialog, the footer, the changelog) show that those words are the
# project's everyday subject, not one episode's; from CROWD such entries on, one passes only when its
# similarity stands out, STANDOUT above every other's. Chosen on each half of the development sets and
# checked on the other: on either, 3 to 6 entries and 0.03 to 0.05 give the same figures
CROWD = 4
STANDOUT = 0.03
CAP_ITEM = 420
NOUN = {"decision": "decision", "failure": "failure", "learning": "learning", "handoff": "open item"}


def groups(prompt: str, keep_stopwords: bool = False) -> list[str]:
    """The prompt's informative terms, at most ``MAX_TERMS`` (with ``keep_stopwords``, for words typed
    as a search, every word when all of them are stopwords); each becomes a group of alternatives
    (``terms.group_alternatives``: the word, its prefix, its related words)."""
    found = terms.informative(prompt)
    if not found and keep_stopwords:
        found = list(dict.fromkeys(w for w in terms.words(prompt) if len(w) >= 2))
    return found[:MAX_TERMS]


def _elsewhere(kind: str, origin: str, project: str | None) -> bool:
    """A learning written in another project than ``project`` (None: no project, no difference)."""
    return project is not None and kind == "learning" and origin != project


def rank(conn: Connection, prompt: str, where: str, args: list[Any], settings: RecallConfig, scopes: list[str],
         pool: int = POOL, keep_stopwords: bool = False, hidden_too: bool = False, project: str | None = None,
         with_related: bool = True) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Scored candidates, best first, each with ``passes``; and facts about the query for the log.
    ``scopes``: the memory folders searched ("" for the learnings), by the word lists
    (``lookup.candidates``) whatever the index's size; ``info["search"]`` says ``exact`` when no list
    read was cut (the candidates are every entry's best, as FTS5 ranked them), ``bounded`` when one was
    (the best of each word's ``lookup.CHAMPIONS`` entries). ``project``: the prompt's project, whose
    own learnings need no extra word (``OTHER_PROJECT``)."""
    gs = groups(prompt, keep_stopwords)
    info: dict[str, Any] = {"terms": gs, "candidates": 0}
    if not gs:
        return [], info
    rows, facts = lookup.candidates(conn, [terms.group_alternatives(t, with_related) for t in gs], scopes, where,
                                    args, pool, hidden_too)
    info["search"] = "bounded" if facts["bounded"] else "exact"
    total_docs = max(1, facts["N"])
    weights = {term: _weight(total_docs, facts["df"][g]) for g, term in enumerate(gs)}
    hits = {term: {r for r, m in facts["matched"].items() if g in m} for g, term in enumerate(gs)}
    info["candidates"] = len(rows)
    info["weights"], info["docs"] = weights, total_docs
    if not rows:
        return [], info
    # BM25's weight of a word one entry holds, floored as FTS5 floors every word's weight
    scale = math.sqrt(len(gs)) * max(math.log((total_docs - 0.5) / 1.5), 1e-6)
    distinct = frozenset(t for t in weights if not terms.generic(t))
    info["distinct"] = [t for t in weights if t in distinct]
    bar = (sum(weights.values()) or 1.0, scale, max(1, int(settings["min_terms"])),
           float(settings.get("min_score", 0.0)), int(settings["min_coverage"]) / 100.0)
    out = [_scored(r, weights, hits, bar, project, distinct) for r in rows]
    out.sort(key=lambda c: (-c["coverage"], c["bm25"]))
    seen, unique = set(), []
    for c in out:  # the same entry written twice (a hand copy) counts once
        if c["id"] not in seen:
            seen.add(c["id"])
            unique.append(c)
    return unique, info


def _scored(r: tuple, weights: dict[str, float], hits: dict[str, set], bar: tuple, project: str | None,
            distinct: frozenset[str]) -> dict:
    """One candidate row as a dict with its coverage, strength, anchors (the ``distinct`` words of the
    prompt it matches) and the strength bar's verdict (``passes``; :func:`why` says it in words).
    ``bar``: (the prompt's whole weight, the strength's scale, min_terms, min_score, min_coverage)."""
    whole, scale, min_terms, min_score, min_coverage = bar
    matched = [t for t in weights if r[0] in hits[t]]
    c = {"rowid": r[0], "id": r[1], "kind": r[2], "origin": r[3], "scope": r[4], "file": r[5], "line": r[6],
         "ts": r[7], "title": r[8], "detail": r[9], "mdir": r[10], "bm25": r[12], "matched": matched,
         "anchors": [t for t in matched if t in distinct], "distinct": len(distinct),
         "coverage": sum(weights[t] for t in matched) / whole,
         "strength": -r[12] / scale * (UNCUED if r[11] else 1.0)}
    c["passes"] = (len(matched) >= groups_needed(c, project, min_terms) and bool(c["anchors"])
                   and c["coverage"] >= min_coverage and c["strength"] >= min_score)
    return c


def _weight(total_docs: int, df: int) -> float:
    """A group's inverse document frequency; a word no entry holds still counts in the prompt's
    weight (as if one entry held it, times UNKNOWN): a prompt mostly about things memory never
    mentions is not about memory."""
    return math.log(1.0 + (total_docs - max(df, 1) + 0.5) / (max(df, 1) + 0.5)) * (UNKNOWN if not df else 1.0)


def groups_needed(c: dict, project: str | None, least: int = 1) -> int:
    """How many of the prompt's groups candidate ``c`` must match: ``least``, one more
    (``OTHER_PROJECT``) for a general learning written in another project."""
    return least + OTHER_PROJECT * _elsewhere(c["kind"], c["origin"], project)


def worth_scoring(ranked: list[dict], project: str | None) -> list[int]:
    """The rowids of the candidates the similarity bar could let in: those matching enough groups, one
    of them a distinctive word (:func:`evidence`)."""
    return [c["rowid"] for c in ranked if len(c["matched"]) >= groups_needed(c, project) and c["anchors"]]


def blended(similarity: float, strength: float, coverage: float = 0.0) -> float:
    """What the similarity bar compares (ADR 0025, 0034): the similarity, plus ``BLEND`` times the
    strength (floored at 0, capped at ``BLEND_CAP``) and ``COVER`` times the coverage: an entry the
    prompt's words reach strongly, or whose words carry most of the prompt, needs a little less
    similarity."""
    return similarity + BLEND * min(max(strength, 0.0), BLEND_CAP) + COVER * coverage


def evidence(c: dict, similarity: float, bar: float) -> bool:
    """Whether candidate ``c`` has the evidence the similarity bar asks for beside its score (ADR 0034,
    0041): at least one of its matched groups is a distinctive word (not ``terms.GENERIC``), and it
    matches two of them, or has a similarity of ``ALONE`` (one word is one word of evidence, whether
    or not the prompt has others), or of ``bar`` when no other candidate holds its one word
    (``holders``: a word only one entry holds points at that entry)."""
    anchors = c["anchors"]
    return bool(anchors) and (len(anchors) >= 2 or similarity >= ALONE
                              or (c.get("holders") == 1 and similarity >= bar))


def _holders(ranked: list[dict]) -> dict[str, set[int]]:
    """Each matched word's holders (the positions in ``ranked`` of the candidates matching it); and
    ``holders`` set on each candidate with one distinctive word: how many candidates match it."""
    by_word: dict[str, set[int]] = {}
    for n, c in enumerate(ranked):
        for t in c["matched"]:
            by_word.setdefault(t, set()).add(n)
    for c in ranked:
        if len(c["anchors"]) == 1:
            c["holders"] = len(by_word[c["anchors"][0]])
    return by_word


def _crowds(ranked: list[dict], by_word: dict[str, set[int]]) -> None:
    """Set ``crowd`` on each candidate passing by similarity: (how many other candidates hold every
    distinctive word it matched, the best similarity among them) when, with it, they are ``CROWD`` or
    more; else None (ADR 0041). The holders of a set of words are the intersection of each word's
    (``by_word``, from :func:`_holders`)."""
    for i, c in enumerate(ranked):
        if not c["passes"] or c["similarity"] is None:
            continue
        c["crowd"] = None
        if min(len(by_word[t]) for t in c["anchors"]) < CROWD:  # why: the usual case, a word few entries hold
            continue
        holders = set.intersection(*(by_word[t] for t in c["anchors"]))  # ``c`` among them
        if len(holders) >= CROWD:
            c["crowd"] = (len(holders) - 1, max(ranked[n].get("similarity") or 0.0 for n in holders if n != i))


def stands_out(c: dict) -> bool:
    """Whether ``c`` is in no crowd, or its similarity is ``STANDOUT`` above every other's there."""
    return c.get("crowd") is None or c["similarity"] >= c["crowd"][1] + STANDOUT


def _judge(c: dict, sim: float, bar: float, project: str | None) -> None:
    """The similarity bar's verdict on ``c`` (``passes``), its score in ``blended``; the crowd is
    judged after, once every candidate has its similarity (:func:`by_similarity`)."""
    c["blended"] = blended(sim, c["strength"], c["coverage"])
    c["passes"] = len(c["matched"]) >= groups_needed(c, project) and c["blended"] >= bar and evidence(c, sim, bar)


def why(c: dict, settings: RecallConfig, project: str | None, compared: Collection[int] | None = None) -> str:
    """The bar's reason, in words, to let candidate ``c`` in or keep it out (``lh memory show --prompt``):
    the similarity bar's when ``c`` has a similarity, or when the bar ran and did not compare it (its
    rowid not in ``compared``, the rowids :func:`worth_scoring` gave; None: the bar did not run), by
    the word rule that left it out; else (not embedded yet, or no similarity bar) the strength bar's.
    First, that it is held or waits for approval (recall/prompt/admit.py, recall.py's ``waiting``)
    whatever the bar says."""
    if c.get("held") or c.get("waiting"):
        return held_or_waiting(c)
    sim = c.get("similarity")
    by_words = sim is not None or (compared is not None and c["rowid"] not in compared)
    needed = groups_needed(c, project, 1 if by_words else max(1, int(settings["min_terms"])))
    if len(c["matched"]) < needed:
        return f"matches {len(c['matched'])} of the {needed} word groups it needs"
    if not c["anchors"]:
        return f"only everyday words ({', '.join(c['matched'])}), which never pass alone"
    by = ", ".join(c["anchors"])
    if sim is None and by_words:  # why: worth_scoring leaves out only what fails one of the two rules above
        return f"not compared by similarity, though it matches {by}"
    if sim is None:
        min_score, min_coverage = float(settings.get("min_score", 0.0)), int(settings["min_coverage"])
        if c["coverage"] * 100 < min_coverage:
            return f"coverage {c['coverage'] * 100:.0f}% under recall.min_coverage {min_coverage}%"
        if c["strength"] < min_score:
            return f"strength {c['strength']:.2f} under recall.min_score {min_score:g}"
        return f"strength {c['strength']:.2f} >= {min_score:g}, by {by}"
    bar = float(settings["min_similarity"])
    score = (f"(similarity {sim:.2f}, strength {c['strength']:.1f}, coverage {c['coverage'] * 100:.0f}%)")
    if c["blended"] < bar:
        return f"score {c['blended']:.2f} under recall.min_similarity {bar:g} {score}"
    if not evidence(c, sim, bar):
        which = "the prompt's only distinctive word" if c["distinct"] <= 1 else \
            f"one distinctive word of {c['distinct']}"
        held = (f"held by no other entry, similarity {bar:g} itself" if c.get("holders") == 1
                else f"{c.get('holders')} entries hold it")
        return f"{which} ({by}) needs similarity {ALONE:g}, has {sim:.2f} ({held})"
    if not stands_out(c):
        n, best = c["crowd"]
        return (f"{n} other entries hold its distinctive words ({by}) and it does not stand out: similarity "
                f"{sim:.2f}, another {best:.2f} ({STANDOUT:g} above every other's needed)")
    if len(c["anchors"]) == 1 and sim < ALONE:
        by += ", held by no other entry"
    return f"score {c['blended']:.2f} >= {bar:g} {score}, by {by}"


def held_or_waiting(c: dict) -> str:
    """Why ``c`` is out whatever its score: the hold check's reason, or the approval it waits for."""
    if c.get("held"):
        return f"held: {c['held']}"
    return f"waits for your approval to be used in other projects (lh memory approve {c['id']})"


def by_similarity(ranked: list[dict], sims: dict[int, float], settings: RecallConfig,
                  project: str | None) -> list[dict]:
    """``ranked`` again with the similarity bar: each candidate gets ``similarity`` (None when it is
    not embedded yet) and, when it has one, ``passes`` when it matches enough groups, :func:`blended`
    reaches ``recall.min_similarity``, :func:`evidence` holds and it :func:`stands_out` of its
    crowd (``crowd``, set for those that got that far: :func:`_crowds`); the strength bar's ``passes`` stays
    for the others. Order: those passing by similarity (highest blended first), then
    the others passing by strength (in ``rank``'s order), then the rest."""
    bar = float(settings["min_similarity"])
    scored: list[dict] = []
    lexical: list[dict] = []
    rest: list[dict] = []
    by_word = _holders(ranked)
    for c in ranked:
        sim = sims.get(c["rowid"])
        c["similarity"] = sim
        if sim is not None:
            _judge(c, sim, bar, project)
    _crowds(ranked, by_word)  # why: only for those passing: few, and a set of words they share is looked for once
    for c in ranked:
        if c["passes"] and c["similarity"] is not None:
            c["passes"] = stands_out(c)
        (scored if c["passes"] and c["similarity"] is not None else lexical if c["passes"] else rest).append(c)
    scored.sort(key=lambda c: -c["blended"])  # stable: equal scores keep rank's order
    return scored + lexical + rest


def _cut(text: str, cap: int) -> str:
    """``text`` within ``cap`` :func:`units`: cut at a space when one is in the kept second half, a code
    span the cut left open closed (as ``fence.neutral`` does), then "…"."""
    if units(text) <= cap:
        return text
    end, room = 0, cap - 2  # why 2: the "…" and the backtick that may close a span
    for ch in text:
        room -= 2 if ord(ch) > 0xFFFF else 1
        if room < 0:
            break
        end += 1
    space = text.rfind(" ", 0, end + 1)
    text = text[:space if space > end // 2 else end].rstrip()
    return (text + "`" if text.count("`") % 2 else text) + "…"


def _one_line(text: object, cap: int) -> str:
    """``text`` on one line, terminal-safe, cut to ``cap`` units (:func:`_cut`)."""
    return _cut(terminal_safe(" ".join(str(text or "").split()), keep=""), cap)


def where_of(item: dict, ldir: str | None) -> str:
    """The entry's file (and line), short: the memory folder is named in the header."""
    f = item["file"]
    if item["kind"] == "learning":
        base = os.path.dirname(ldir) if ldir else os.path.dirname(os.path.dirname(os.path.dirname(f)))
        return os.path.relpath(f, base) if base else f
    name = os.path.basename(f)
    return f"{name}:{item['line']}" if item["line"] else name


def render_item(item: dict, ldir: str | None) -> str:
    """``- learning l-1a2b3c4d (learnings/...), 2026-04-13, from session 5e6f7a8b in api: text``: kind,
    id, file, date and origin (ADR 0024), the text neutralised for the channel."""
    kind = item["kind"]
    origin = neutral(item.get("prov") or item.get("origin") or "unknown", 120)
    head = (f"- {NOUN[kind]} {item['id']} ({neutral(where_of(item, ldir), 200)}), "
            f"{date_of(item.get('ts')) or 'undated'}, {from_origin(origin)}")
    text = sentence(neutral(item["title"], 200))
    detail = neutral(item["detail"], 300)
    if detail:
        label = {"failure": " Prevention: ", "decision": " Rationale: ", "learning": " "}.get(kind, " ")
        text += label + sentence(detail)
    return _one_line(f"{head}: {text}", CAP_ITEM)


def render(items: list[dict], mdir: str, ldir: str | None, budget: int) -> tuple[str | None, list[dict]]:
    """The additionalContext for ``items`` within ``budget`` characters as Claude Code counts them
    (:func:`units`), and the items it holds."""
    where = f"files in {mdir}, learnings/ in {os.path.dirname(ldir) if ldir else '-'}"
    header = f"{FENCE}\nMemory that matches this prompt (lazy-harness; {neutral(where, 600)}):"
    lines, used = [header], units(header)
    kept: list[dict] = []
    for item in items:
        line = render_item(item, ldir)
        if used + 1 + units(line) > budget:
            room = budget - used - 1
            if kept or room < 80:
                continue
            line = _cut(line, room)
        lines.append(line)
        used += 1 + units(line)
        item["chars"] = len(line) + 1  # the usage record counts what each entry cost
        kept.append(item)
    if not kept:
        return None, []
    return "\n".join(lines), kept
