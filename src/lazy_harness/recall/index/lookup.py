"""Reading the index: the entries a prompt's words reach (ADR 0049), their provenance, the counts in
``meta``. ``search`` sums the bounded word lists of the prompt's keys, then rescores its best candidates
exactly as FTS5's bm25 with the porter tokenizer would (docs/how/recall.md, "How selection works"). On the
prompt hook's path: the connection comes from the caller."""

from __future__ import annotations

import heapq
import math

from lazy_harness.recall.embed.vectors import KeptRows
from lazy_harness.recall.embed.vectors import rows_in as rows_in  # why re-exported: the index's modules read it here
from lazy_harness.recall.index import terms
from lazy_harness.recall.index.porter import fold
from lazy_harness.recall.index.porter import key as index_word

# why: not ``from typing import TYPE_CHECKING``: the prompt hook loads this module, and never ``typing``
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from sqlite3 import Connection
    from typing import Any

    Alt = tuple[int, str, str, tuple[str, ...]]  # (group, kind, key, words) of one alternative
    Doc = tuple[int, str]  # an entry's length, its columns spaced: " title \n body \n tags "

# why: measured (benchmarks/bench_lexical.py, ADR 0049 "Later"): at 18,000 entries and a pool of 30 they
# hold 0.76 of the exact top-10 (0.98 of its BM25); rescoring more cost as much as the whole search
CHAMPIONS = 400  # entries kept per key and scope
RESCORE = 2  # candidates rescored exactly: this many times the pool asked for
K1, B = 1.2, 0.75
QSCALE = 65535 / (K1 + 1.0)  # an impact (below k1 + 1) as a 16-bit integer
COLUMNS = "e.rowid, e.id, e.kind, e.origin, e.scope, e.file, e.line, e.ts, e.title, e.detail, e.mdir, e.uncued"
FIELD_WEIGHTS = (3.0, 1.0, 2.0)  # title (summary), body, tags: the word lists' impacts and scores
# what hides an entry ``e``: a row of its own file; a marker of its memory folder (why not of any: two
# projects can hold one decision id), or of any folder for a learning. why not another learning file's
# status: a hand copy of the id, set aside, would hide the copy that stands (ADR 0059)
VISIBLE = (" AND NOT EXISTS (SELECT 1 FROM hidden h WHERE h.id = e.id AND (h.unit = e.unit"
           " OR h.mdir <> '' AND (h.mdir = e.mdir OR e.kind = 'learning')))")


def columns(blob: bytes, n: int | None = None) -> tuple[memoryview, memoryview]:
    """The first ``n`` (all) rowids (int32) and impacts (uint16) of a list, read in place."""
    total = len(blob) // 6
    n = total if n is None else min(n, total)
    mv = memoryview(blob)
    return mv[:4 * n].cast("i"), mv[4 * total:4 * total + 2 * n].cast("H")


def _alternative(text: str) -> tuple[str, str, tuple[str, ...]]:
    """(kind, key, words) of one alternative ('word', 'prefix*', a phrase), stemmed as the index holds it."""
    if text.endswith("*"):
        cut = terms.words(text[:-1])
        p = index_word(cut[0]) if cut else ""
        if len(p) < 4:
            # why: no list of prefixes that short: the prefix as typed where stemming only cut letters,
            # else the stem as a word (a prefix scored with a word's count would weigh as a rare word)
            typed = fold(cut[0]) if cut else ""
            if len(typed) < 4 or not typed.startswith(p):
                return "word", p, (p,)
            p = typed
        # why: a prefix longer than the longest kept is looked up by that one and checked when rescoring
        return "prefix", p[:6] + "*", (p,)
    ws = tuple(index_word(w) for w in terms.words(text))
    if len(ws) == 1:
        return "word", ws[0], ws
    return "phrase", " ".join(ws), ws


def search(conn: Connection, scopes: list[str], groups: list[list[str]], pool: int, champions: int | None = None,
           rescore: int | None = None, visible: Callable[[list[int]], set[int]] | None = None
           ) -> tuple[list[tuple[int, float, set[int]]], dict[str, Any]]:
    """The best ``pool`` entries of ``scopes`` for the OR of every alternative of ``groups``: [(rowid,
    FTS5's bm25 with weights 3, 1, 2 (lower is better), the groups it matches)]; and facts: ``N``
    (entries), ``df`` and ``exact`` per group, ``bounded`` (a list read was cut at ``CHAMPIONS``).
    ``visible`` filters rowids before rescoring; ``champions`` and ``rescore``: for measuring."""
    alts = [(g, *_alternative(a)) for g, group in enumerate(groups) for a in group]
    alts = [a for a in alts if a[3] and all(a[3])]
    n_docs, n_tokens = conn.execute("SELECT coalesce(sum(docs), 0), coalesce(sum(tokens), 0) FROM lex_scope"
                                    ).fetchone()
    facts: dict[str, Any] = {"N": n_docs, "df": [0] * len(groups), "exact": [True] * len(groups), "bounded": False}
    keys = list(dict.fromkeys(a[2] for a in alts))
    if not keys or not n_docs or not scopes:
        return [], facts
    total = dict(rows_in(conn, "SELECT key, df FROM lex_total WHERE key IN ({})", keys))
    _group_facts(facts, alts, total, n_docs)
    idf = {k: max(math.log((n_docs - total.get(k, 0) + 0.5) / (total.get(k, 0) + 0.5)), 1e-6) for k in keys}
    weight: dict[str, float] = {}
    for a in alts:
        weight[a[2]] = weight.get(a[2], 0.0) + idf[a[2]]
    acc = _summed(conn, scopes, weight, total, champions or CHAMPIONS, facts)
    best = _shortlist(acc, max(pool, (rescore or RESCORE) * pool), pool, visible)
    hits = _exact(conn, best, alts, idf, n_tokens / n_docs)
    return sorted(hits, key=lambda h: (h[1], h[0]))[:pool], facts


def _shortlist(acc: dict[int, float], n: int, pool: int, visible: Callable[[list[int]], set[int]] | None
               ) -> list[int]:
    """The ``n`` rowids of ``acc`` with the highest sums that ``visible`` keeps (at least ``pool``)."""
    # why: the same list as sorted(...)[:n] (documented so), without ordering all 6,500 entries
    best = heapq.nlargest(n, acc, key=acc.__getitem__)
    if visible is None:
        return best
    # why: the hidden left out before rescoring took places in the pool (7.1 ms a cold search at 18,000)
    while True:
        shown = visible(best)
        kept = [r for r in best if r in shown]
        if len(kept) >= pool or len(best) >= len(acc):
            return kept[:n]
        best = heapq.nlargest(len(best) * 4, acc, key=acc.__getitem__)


def _summed(conn: Connection, scopes: list[str], weight: dict[str, float], total: dict[str, int],
            champions: int, facts: dict[str, Any]) -> dict[int, float]:
    """rowid -> its impacts summed over the lists of ``weight``'s keys, each weighed by its key's idf."""
    acc: dict[int, float] = {}
    get = acc.get
    # why: a key in more than half the index (idf floored) cannot move a candidate and is the longest to
    # read: skipped when cut, if some key weighs more (in a small memory it may be the only way in)
    held = [w for k, w in weight.items() if total.get(k, 0)]
    floor = 1e-5 if held and max(held) > 1e-5 else 0.0
    sm, km = ",".join("?" * len(scopes)), ",".join("?" * len(weight))
    for key, df, blob in conn.execute(f"SELECT key, df, list FROM lex_key WHERE scope IN ({sm}) AND key IN ({km})",
                                      [*scopes, *weight]):
        if weight[key] < floor and len(blob) // 6 < df:
            facts["bounded"] = True
            continue
        ids, qs = columns(blob, champions)
        facts["bounded"] = facts["bounded"] or len(ids) < df
        w = weight[key] / QSCALE
        # why: faster than map/zip/dict.update in C (1.3 against 1.8 ms for 7,000 entries)
        for r, q in zip(ids, qs, strict=True):
            acc[r] = get(r, 0.0) + w * q
    return acc


def _group_facts(facts: dict[str, Any], alts: list[Alt], total: dict[str, int], n_docs: int) -> None:
    """Per group: the df of its one alternative covering the others (exact), else an upper bound."""
    by_group: dict[int, list] = {}
    for a in alts:
        by_group.setdefault(a[0], []).append(a)
    for g, group in by_group.items():
        prefixes = [a[3][0] for a in group if a[1] == "prefix"]

        def covered(a: Alt, prefixes: list[str] = prefixes, group: list[Alt] = group) -> bool:
            if a[1] == "word":
                return any(a[2].startswith(p) for p in prefixes)
            if a[1] == "prefix":
                return any(a[3][0].startswith(p) and a[3][0] != p for p in prefixes)
            words = {b[2] for b in group if b[1] == "word"}
            return any(w in words or any(w.startswith(p) for p in prefixes) for w in a[3])

        # a prefix longer than 6 has only its 6-prefix's df (an upper bound)
        left = list({a[2]: a for a in group if not covered(a)}.values())
        facts["df"][g] = min(n_docs, sum(total.get(a[2], 0) for a in left))
        facts["exact"][g] = len(left) == 1 and not (left[0][1] == "prefix" and len(left[0][3][0]) > 6)


def _exact(conn: Connection, rowids: list[int], alts: list[Alt], idf: dict[str, float],
           avgdl: float) -> list[tuple[int, float, set[int]]]:
    """FTS5's bm25 of each of ``rowids`` for the OR of ``alts``, each pattern counted per column and
    weighed as many times as alternatives share it (FTS5 scores repeated phrases too)."""
    specs: dict[str, list] = {}
    for g, kind, key, ws in alts:
        pat = " " + ws[0] if kind == "prefix" else " " + " ".join(ws) + " "
        # [pattern, the pattern twice sharing a space (words and phrases), weight, groups]
        spec = specs.setdefault(pat, [pat, None if kind == "prefix" else pat[:-1] + pat, 0.0, set()])
        spec[2] += idf[key]
        spec[3].add(g)
    # why: grouped by first word (" word "): an entry without it holds none of its phrases, one test for all
    by_word: dict[str, list] = {}
    for pat, spec in specs.items():
        if spec[1] is not None:
            by_word.setdefault(" " + pat.split()[0] + " ", []).append(spec)
    prefixes = [spec for spec in specs.values() if spec[1] is None]
    first = list(by_word.items())
    out = []
    w0, w1, w2 = FIELD_WEIGHTS
    for rowid, (dl, text) in _docs(conn, rowids):
        found = [spec for word, group in first if word in text for spec in group]
        found += [spec for spec in prefixes if spec[0] in text]
        norm = K1 * (1.0 - B + B * dl / avgdl)
        score, hit = 0.0, []
        if found:
            # the columns' bounds: " title \n body \n tags " (a pattern holds no line break)
            i1 = text.index("\n")
            i2 = text.index("\n", i1 + 1)
        for pat, double, weight, groups in found:
            # why: count() misses an occurrence sharing its space with the one before (" a a "); columns
            # written out: a loop cost 1.25 against 0.95 ms
            n0, n1, n2 = text.count(pat, 0, i1), text.count(pat, i1, i2), text.count(pat, i2)
            if double is not None and double in text:
                n0 = _occurrences(text, pat, 0, i1) if n0 else 0
                n1 = _occurrences(text, pat, i1, i2) if n1 else 0
                n2 = _occurrences(text, pat, i2, len(text)) if n2 else 0
            f = w0 * n0 + w1 * n1 + w2 * n2
            if f:
                score += weight * f * (K1 + 1.0) / (f + norm)
                hit.append((text.find(pat), groups))
        out.append((rowid, -score, told_apart(_by_word(hit))))
    return out


def _by_word(hit: list[tuple[int, set[int]]]) -> list[set[int]]:
    """The groups each word of the entry stands for (a word and its prefix are one word)."""
    if len(hit) < 2:
        return [groups for _, groups in hit]
    at: dict[int, set[int]] = {}
    for where, groups in hit:
        at[where] = at.get(where, set()) | groups
    return list(at.values())


def told_apart(hit: list[set[int]]) -> set[int]:
    """The prompt's groups the entry matches, each by a word of its own (a largest matching). why: one word
    matching two terms (synonyms, two forms of a word) counted as two distinctive words (ADR 0034)."""
    if all(len(groups) == 1 for groups in hit):
        return set().union(*hit)
    owner: dict[int, int] = {}  # group -> the pattern standing for it

    def place(p: int, seen: set[int]) -> bool:
        for g in sorted(hit[p]):
            if g not in seen:
                seen.add(g)
                if g not in owner or place(owner[g], seen):
                    owner[g] = p
                    return True
        return False

    for p in range(len(hit)):
        place(p, set())
    return set(owner)


_DOCS = KeptRows()  # rowid -> its Doc, as the searches met it (keep_docs) and read ahead (warm_docs)


def keep_docs(n: int) -> None:
    """Keep the text of up to ``n`` entries between searches (a rowid's text never changes)."""
    _DOCS.reset(n)


def spaced(toks: str) -> str:
    """An entry's stored words as rescoring reads them: ``" title \n body \n tags "``."""
    if toks.count("\n") == 2:
        return " " + toks.replace("\n", " \n ") + " "
    c0, c1, c2 = (toks.split("\n") + ["", ""])[:3]
    return f" {c0} \n {c1} \n {c2} "


def warm_docs(conn: Connection, below: int, n: int, most: int) -> list[int]:
    """Read ahead the texts of up to ``n`` entries under rowid ``below`` (``most`` in all); their rowids."""
    room = min(n, most - len(_DOCS.ahead))
    if room <= 0:
        return []
    rows = conn.execute("SELECT rowid, len, toks FROM lex_doc WHERE rowid < ? ORDER BY rowid DESC LIMIT ?",
                        (below, room)).fetchall()
    _DOCS.ahead.update({rowid: (dl, spaced(toks)) for rowid, dl, toks in rows})
    return [r[0] for r in rows]


def _docs(conn: Connection, rowids: list[int]) -> list[tuple[int, Doc]]:
    """(rowid, (length, spaced text)) of those of ``rowids`` in lex_doc, what was kept first."""
    sql = "SELECT rowid, len, toks FROM lex_doc WHERE rowid IN ({})"
    docs = _DOCS.get(rowids, lambda asked: {r: (dl, spaced(toks)) for r, dl, toks in rows_in(conn, sql, asked)})
    return [(r, docs[r]) for r in rowids if r in docs]


def _occurrences(text: str, pat: str, start: int, end: int) -> int:
    """How many times ``pat`` is in ``text[start:end]``, overlapping ones too (" a a " holds " a " twice)."""
    n, at = 0, text.find(pat, start, end)
    while at >= 0:
        n += 1
        at = text.find(pat, at + 1, end)
    return n


def scope_sql(mdirs: list[str] | None, project: str | None, keys: Iterable[str] = (),
              adopted: Iterable[str] = ()) -> tuple[str, list[str]]:
    """The WHERE clause keeping a project's entries, its own learnings (by ``keys``, or ``adopted`` ids)
    and every learning of another scope (``held.belongs``'s rule); ``mdirs`` None: everything."""
    if mdirs is None:
        return "1", []
    marks = ",".join("?" * len(mdirs))
    earlier, taken = sorted(keys), sorted(adopted)
    by_key = f" OR e.okey IN ({','.join('?' * len(earlier))})" if earlier else ""
    by_id = f" OR e.id IN ({','.join('?' * len(taken))})" if taken else ""
    return (f"(e.mdir IN ({marks}) OR (e.kind='learning' AND (e.origin=? OR e.scope<>'project'{by_key}{by_id})))",
            [*mdirs, project or "", *earlier, *taken])


def own_learnings(conn: Connection, project: str, keys: Iterable[str], adopted: Iterable[str],
                  titles: Iterable[str] | None = None) -> list[tuple[str, str, str, str]]:
    """(id, title, file, hold) of this project's learnings the index shows (``state.written_in``'s rule),
    held ones too (``admit.shown_here`` reads their approval); with ``titles`` (``own_title.title_of``'s
    words), only those of one of these titles. why three selects on ``entry_key``, which holds every column
    asked: a scan read every learning's body, 2 to 3 ms at 3,000 learnings; a project's 5,500 learnings cost
    ``lh memory search`` 44 ms read and matched in Python, where the index finds the few of its titles."""
    earlier, taken = sorted(keys), sorted(adopted)
    wanted = sorted(titles) if titles is not None else []
    shown = "e.kind='learning'" + (f" AND e.tkey IN ({','.join('?' * len(wanted))})" if titles is not None else "")
    head = "SELECT e.id, e.title, e.file, e.hold FROM entry e WHERE e.mdir='' AND "
    parts, args = [f"{head}e.okey='' AND e.origin=? AND {shown}{VISIBLE}"], [project, *wanted]
    for column, values in (("okey", earlier), ("id", taken)):
        if values:
            parts.append(f"{head}e.{column} IN ({','.join('?' * len(values))}) AND {shown}{VISIBLE}")
            args += [*values, *wanted]
    return [(r[0] or "", r[1] or "", r[2] or "", r[3] or "") for r in conn.execute(" UNION ALL ".join(parts), args)]


def provenance_of(conn: Connection, rowids: list[int]) -> dict[int, tuple[str, str, str | None, str]]:
    """``{rowid: (project key, origin phrase, hold, session)}``; ``hold`` None: not checked."""
    sql = "SELECT rowid, okey, prov, hold, sess FROM entry WHERE rowid IN ({})"
    return {r[0]: (r[1] or "", r[2] or "", r[3], r[4] or "") for r in rows_in(conn, sql, rowids)}


def candidates(conn: Connection, groups: list[list[str]], scopes: list[str], where: str, args: list[Any],
               limit: int, hidden_too: bool = False) -> tuple[list[tuple[Any, ...]], dict[str, Any]]:
    """The best ``limit`` visible entries (``search``): rows (``COLUMNS`` and the score), best first, and
    the facts with ``matched``; ``hidden_too``: the superseded, forgotten and the like too."""
    # why the braces doubled: ``rows_in`` fills the ``IN ({})`` with str.format
    keep = f"{where}{'' if hidden_too else VISIBLE}".replace("{", "{{").replace("}", "}}")

    def visible(rowids: list[int]) -> set[int]:
        return {r for (r,) in rows_in(conn, f"SELECT e.rowid FROM entry e WHERE {keep} AND e.rowid IN ({{}})",
                                      rowids, *args)}
    hits, facts = search(conn, scopes, groups, limit, visible=visible)
    facts["matched"] = {h[0]: h[2] for h in hits}
    score = {h[0]: h[1] for h in hits}
    found = rows_in(conn, f"SELECT {COLUMNS} FROM entry e WHERE e.rowid IN ({{}})", list(score))
    found.sort(key=lambda r: (score[r[0]], r[0]))
    return [(*r, score[r[0]]) for r in found[:limit]], facts


def doc_count(conn: Connection) -> int:
    """How many entries are indexed (kept in ``meta``: ``count(*)`` reads the whole table, 1 to 6 ms)."""
    row = conn.execute("SELECT v FROM meta WHERE k='entries'").fetchone()
    return int(row[0]) if row else 0


def last_rowid(conn: Connection) -> int:
    """The highest rowid handed out so far."""
    row = conn.execute("SELECT max(coalesce((SELECT max(rowid) FROM entry), 0), "
                       "coalesce((SELECT CAST(v AS INTEGER) FROM meta WHERE k='rowid'), 0))").fetchone()
    return int(row[0])
