"""Which entries a prompt gets: its terms, the best ``POOL`` candidates of the word lists (ADR 0049), the
strength bar (``rank``), the similarity bar and its evidence rules (``by_similarity``), and the lines
printed (``render``). Step by step: docs/how/recall.md; each number's reason is beside its constant."""

from __future__ import annotations

import math
import os

from lazy_harness.logfile import terminal_safe
from lazy_harness.memory.fence import FENCE, date_of, from_origin, neutral, sentence, units
from lazy_harness.memory.files import iso_epoch
from lazy_harness.recall.index import lookup, terms

# why: not ``from typing import TYPE_CHECKING``: the prompt hook loads this module, and never ``typing``
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection
    from sqlite3 import Connection
    from typing import Any

    from lazy_harness.config.typed import RecallConfig

MAX_TERMS = 12
# why 30, not 60: on all six blind sets, with and without fillers, as many expected entries or more with
# no more noise, 2 ms sooner (ADR 0049)
POOL = 30
# why: a word no entry holds (a paraphrase's own words) weighs half the rarest word's: a paraphrase
# is not drowned by it, a prompt mostly about what memory never mentions still gets nothing
UNKNOWN = 0.5
# why: another project's general learning is about a tool every project uses: one word more took noise
# from 15 to 9 of 56 prompts, for 2 of 197 expected entries (ADR 0017)
OTHER_PROJECT = 1
# why: an entry written without cues (ADR 0018) has one field fewer to match, so a lower BM25 for the
# same relevance; measured in ADR 0019
UNCUED = 1.6
# why: a static model knows words, not sentences: a little of the strength helps. Fixed, not fitted:
# the neighbours (0.03 to 0.05, cap 3 to 5) give 0.87 to 0.90 recall@5 (ADR 0025)
BLEND, BLEND_CAP = 0.04, 4.0
# why: one distinctive word among several is the expected entry about 1 time in 10 under 0.6; the
# coverage in the score gives back most of the recall that cost (ADR 0034)
ALONE = 0.60
COVER = 0.2
# why: entries that all hold the same distinctive words show the project's everyday subject, not one
# episode's (ADR 0041: 3 to 6 entries and 0.03 to 0.05 give the same figures)
CROWD = 4
STANDOUT = 0.03
# why: a note trailing the best match by more was mostly not the one wanted: 0.15 to 0.30 lost no
# labelled prompt and took 6 to 25% of the characters injected (ADR 0061)
TRAIL = 0.25
CAP_ITEM = 420
NOUN = {"decision": "decision", "failure": "failure", "learning": "learning", "handoff": "open item"}


def groups(prompt: str, keep_stopwords: bool = False) -> list[str]:
    """The prompt's terms, at most ``MAX_TERMS`` (``keep_stopwords``: all words when all are stopwords)."""
    found = terms.informative(prompt)
    if not found and keep_stopwords:
        found = list(dict.fromkeys(w for w in terms.words(prompt) if len(w) >= 2))
    return found[:MAX_TERMS]


def rank(conn: Connection, prompt: str, where: str, args: list[Any], settings: RecallConfig, scopes: list[str],
         pool: int = POOL, keep_stopwords: bool = False, hidden_too: bool = False, project: str | None = None,
         with_related: bool = True) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Scored candidates, best first, each with ``passes``, and facts for the log. ``scopes``: the memory
    folders ("" the learnings); ``project``: the prompt's (``OTHER_PROJECT``)."""
    gs = groups(prompt, keep_stopwords)
    info: dict[str, Any] = {"terms": gs, "candidates": 0}
    if not gs:
        return [], info
    rows, facts = lookup.candidates(conn, [terms.group_alternatives(t, with_related) for t in gs], scopes, where,
                                    args, pool, hidden_too)
    total_docs = max(1, facts["N"])
    weights = {term: _weight(total_docs, facts["df"][g]) for g, term in enumerate(gs)}
    info.update(search="bounded" if facts["bounded"] else "exact", candidates=len(rows))
    if not rows:
        return [], info
    # BM25's weight of a word one entry holds, floored as FTS5 floors every word's weight
    scale = math.sqrt(len(gs)) * max(math.log((total_docs - 0.5) / 1.5), 1e-6)
    distinct = frozenset(t for t in weights if not terms.generic(t))
    info["distinct"] = [t for t in weights if t in distinct]
    whole, min_terms = sum(weights.values()) or 1.0, max(1, int(settings["min_terms"]))
    min_score, min_coverage = float(settings.get("min_score", 0.0)), int(settings["min_coverage"]) / 100.0
    out = []
    for r in rows:  # its coverage, strength, anchors (its distinctive words) and the bar's verdict
        matched = [t for g, t in enumerate(gs) if g in facts["matched"][r[0]]]
        c = {"rowid": r[0], "id": r[1], "kind": r[2], "origin": r[3], "scope": r[4], "file": r[5],
             "line": r[6], "ts": r[7], "title": r[8], "detail": r[9], "mdir": r[10], "bm25": r[12],
             "matched": matched, "anchors": [t for t in matched if t in distinct], "distinct": len(distinct),
             "coverage": sum(weights[t] for t in matched) / whole,
             "strength": -r[12] / scale * (UNCUED if r[11] else 1.0)}
        c["passes"] = (len(matched) >= groups_needed(c, project, min_terms) and bool(c["anchors"])
                       and c["coverage"] >= min_coverage and c["strength"] >= min_score)
        out.append(c)
    out.sort(key=lambda c: (-c["coverage"], c["bm25"]))
    first: dict[str, dict[str, Any]] = {}
    for c in out:  # the same entry written twice (a hand copy) counts once
        first.setdefault(c["id"], c)
    return list(first.values()), info


def _weight(total_docs: int, df: int) -> float:
    """A group's inverse document frequency; a word no entry holds weighs as one held once, times UNKNOWN."""
    return math.log(1.0 + (total_docs - max(df, 1) + 0.5) / (max(df, 1) + 0.5)) * (UNKNOWN if not df else 1.0)


def groups_needed(c: dict, project: str | None, least: int = 1) -> int:
    """How many groups ``c`` must match: ``least``, one more for another project's learning."""
    # why same_name too: a learning of another project with this one's folder name (recall.py, by key)
    elsewhere = project is not None and c["kind"] == "learning" and (c["origin"] != project or bool(c.get("same_name")))
    return least + OTHER_PROJECT * elsewhere


def worth_scoring(ranked: list[dict], project: str | None) -> list[int]:
    """The rowids of the candidates the similarity bar could let in: enough groups, one distinctive."""
    return [c["rowid"] for c in ranked if len(c["matched"]) >= groups_needed(c, project) and c["anchors"]]


def blended(similarity: float, strength: float, coverage: float = 0.0) -> float:
    """What the similarity bar compares (ADR 0025, 0034)."""
    return similarity + BLEND * min(max(strength, 0.0), BLEND_CAP) + COVER * coverage


def evidence(c: dict, similarity: float, bar: float) -> bool:
    """The evidence the similarity bar asks for beside the score (ADR 0034, 0041): a distinctive word, and
    two of them, or a similarity of ``ALONE``, or of ``bar`` when no other candidate holds it."""
    anchors = c["anchors"]
    return bool(anchors) and (len(anchors) >= 2 or similarity >= ALONE
                              or (c.get("holders") == 1 and similarity >= bar))


def _crowd(i: int, ranked: list[dict], by_word: dict[str, set[int]]) -> tuple[int, float] | None:
    """(others holding every distinctive word ``ranked[i]`` matched, their best similarity) or None."""
    anchors = ranked[i]["anchors"]
    if min(len(by_word[t]) for t in anchors) < CROWD:  # why: the usual case, a word few entries hold
        return None
    holders = set.intersection(*(by_word[t] for t in anchors))  # ``ranked[i]`` among them
    if len(holders) < CROWD:
        return None
    return len(holders) - 1, max(ranked[n].get("similarity") or 0.0 for n in holders if n != i)


def stands_out(c: dict) -> bool:
    """Whether ``c`` is in no crowd, or its similarity is ``STANDOUT`` above every other's there."""
    return c.get("crowd") is None or c["similarity"] >= c["crowd"][1] + STANDOUT


def why(c: dict, settings: RecallConfig, project: str | None, compared: Collection[int] | None = None) -> str:
    """The bar's reason, in words, to let ``c`` in or keep it out (``lh memory show --prompt``);
    ``compared``: the rowids :func:`worth_scoring` gave (None: the similarity bar did not run)."""
    if out := out_reason(c):
        return out
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
    score = f"(similarity {sim:.2f}, strength {c['strength']:.1f}, coverage {c['coverage'] * 100:.0f}%)"
    if c["blended"] < bar:
        return f"score {c['blended']:.2f} under recall.min_similarity {bar:g} {score}"
    if not evidence(c, sim, bar):
        which = ("the prompt's only distinctive word" if c["distinct"] <= 1
                 else f"one distinctive word of {c['distinct']}")
        held = (f"held by no other entry, similarity {bar:g} itself" if c.get("holders") == 1
                else f"{c.get('holders')} entries hold it")
        return f"{which} ({by}) needs similarity {ALONE:g}, has {sim:.2f} ({held})"
    if not stands_out(c):
        n, best = c["crowd"]
        return (f"{n} other entries hold its distinctive words ({by}) and it does not stand out: similarity "
                f"{sim:.2f}, another {best:.2f} ({STANDOUT:g} above every other's needed)")
    if c.get("trails") is not None:
        return (f"score {c['blended']:.2f} trails the prompt's best match ({c['trails']:.2f}) by more than "
                f"{TRAIL:g} {score}")
    if len(c["anchors"]) == 1 and sim < ALONE:
        by += ", held by no other entry"
    return f"score {c['blended']:.2f} >= {bar:g} {score}, by {by}"


def out_reason(c: dict) -> str:
    """Why ``c`` is out whatever its score (damaged, held, waiting, another's text of an own title), or ""."""
    if c.get("damaged"):
        return str(c["damaged"])
    if c.get("held"):
        return f"held: {c['held']}"
    if c.get("waiting"):
        return f"waits for your approval to be used in other projects (lh memory approve {c['id']})"
    if c.get("own_title"):
        return f"another project's text of a title this project's {c['own_title']} has, the word here"
    return ""


def by_similarity(ranked: list[dict], sims: dict[int, float], settings: RecallConfig,
                  project: str | None, withheld: Callable[[list[dict]], None] | None = None) -> list[dict]:
    """``ranked`` again with the similarity bar: ``similarity`` (None: not embedded yet, the strength bar's
    verdict kept), ``blended`` and ``passes``. ``withheld`` takes ``passes`` from what no session may be
    given, before the trail rule: a note trails only a match the prompt can get."""
    bar = float(settings["min_similarity"])
    by_word: dict[str, set[int]] = {}  # each matched word's holders, by position in ``ranked``
    for n, c in enumerate(ranked):
        for t in c["matched"]:
            by_word.setdefault(t, set()).add(n)
    for c in ranked:
        if len(c["anchors"]) == 1:  # how many candidates match its one distinctive word
            c["holders"] = len(by_word[c["anchors"][0]])
        sim = c["similarity"] = sims.get(c["rowid"])
        if sim is not None:
            c["blended"] = blended(sim, c["strength"], c["coverage"])
            c["passes"] = (len(c["matched"]) >= groups_needed(c, project) and c["blended"] >= bar
                           and evidence(c, sim, bar))
    for i, c in enumerate(ranked):  # why: crowds only for those passing (few), every similarity known
        if c["passes"] and c["similarity"] is not None:
            c["crowd"] = _crowd(i, ranked, by_word)
            c["passes"] = stands_out(c)
    if withheld is not None:
        withheld(ranked)
    scored = [c for c in ranked if c["passes"] and c["similarity"] is not None]
    best = max((c["blended"] for c in scored), default=0.0)
    for c in scored:  # why: a place beside the prompt's best match only when close to it (ADR 0061)
        if c["blended"] < best - TRAIL:
            c["passes"], c["trails"] = False, best
    # passing by similarity (best blended first, ties in rank's order), passing by strength, the rest
    return sorted(ranked, key=lambda c: (0, -c["blended"]) if c["passes"] and c["similarity"] is not None
                  else (1 if c["passes"] else 2, 0.0))


def _cut(text: str, cap: int) -> str:
    """``text`` within ``cap`` :func:`units`, cut at a space, an open code span closed, then "…"."""
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


def render_item(item: dict, ldir: str | None) -> str:
    """``- learning l-1a2b3c4d (learnings/...), 2026-04-13, from session 5e6f in api: text`` (ADR 0024)."""
    kind, f = item["kind"], item["file"]
    if kind == "learning":  # the file short: the memory folder is named in the header
        base = os.path.dirname(ldir) if ldir else os.path.dirname(os.path.dirname(os.path.dirname(f)))
        where = os.path.relpath(f, base) if base else f
    else:
        where = f"{os.path.basename(f)}:{item['line']}" if item["line"] else os.path.basename(f)
    origin = neutral(item.get("prov") or item.get("origin") or "unknown", 120)
    if item.get("same_name"):
        origin += ", another project of this name"  # recall.py: written under another key than this project's
    day = date_of(item.get("ts"), iso_epoch(item.get("ts"))) or "undated"  # the reader's day (fence.local_time)
    head = f"- {NOUN[kind]} {item['id']} ({neutral(where, 200)}), {day}, {from_origin(origin)}"
    text = sentence(neutral(item["title"], 200))
    detail = neutral(item["detail"], 300)
    if detail:
        label = {"failure": " Prevention: ", "decision": " Rationale: "}.get(kind, " ")
        text += label + sentence(detail)
    return _cut(terminal_safe(" ".join(f"{head}: {text}".split()), keep=""), CAP_ITEM)  # one line


def heading(mdir: str, ldir: str | None, kinds: Collection[str] = ("decision", "learning")) -> str:
    """The fence, then the folders of the entries' files (why not all: each is a sixth of a short answer)."""
    where = []
    if any(k != "learning" for k in kinds):
        where.append(f"files in {mdir}")
    if "learning" in kinds:
        where.append(f"learnings/ in {os.path.dirname(ldir) if ldir else '-'}")
    return f"{FENCE}\nMemory that matches this prompt (lazy-harness; {neutral(', '.join(where), 600)}):"


def render(items: list[dict], mdir: str, ldir: str | None, budget: int) -> tuple[str | None, list[dict]]:
    """The additionalContext for ``items`` within ``budget`` units, and the items it holds."""
    header = heading(mdir, ldir)
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
    lines[0] = heading(mdir, ldir, {item["kind"] for item in kept})
    return "\n".join(lines), kept
