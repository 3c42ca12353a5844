"""What one typed prompt gets from memory: the entries that pass the bar, not shown to this session yet, as
one text within the budget; shared by the UserPromptSubmit hook and ``lh memory show --prompt``. The hook
only reads the index (ADR 0042; missing or damaged: searched as empty); with ``recall.semantic`` the
prompt's vector comes from the static model and meets the candidates' kept vectors (ADR 0025)."""

from __future__ import annotations

import os

from lazy_harness import paths
from lazy_harness.config import RECALL_HARD_CAP
from lazy_harness.project_identity import project_name
from lazy_harness.recall.index import lookup, store
from lazy_harness.recall.prompt import admit, rank

# why: not ``from typing import TYPE_CHECKING``: the prompt hook loads this module, and never ``typing``
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from sqlite3 import Connection
    from typing import Any

    from lazy_harness.config.typed import Config, RecallConfig

    Env = Mapping[str, str]
    Opener = Callable[[str], Connection]


# why: Codex CLI replaces a hook's output above about 2,500 tokens with a preview; a UTF-16 unit the
# budget counts is at most 3 UTF-8 bytes
CODEX_RECALL_BYTES = 6000
CODEX_RECALL_CHARS = CODEX_RECALL_BYTES // 3


def codex_budget(cfg: Config) -> tuple[Config, str]:
    """(``cfg`` with ``recall.max_chars`` at most CODEX_RECALL_CHARS, the words for hooks.log if cut)."""
    recall = cfg["recall"]
    if int(recall["max_chars"]) <= CODEX_RECALL_CHARS:
        return cfg, ""
    return ({**cfg, "recall": {**recall, "max_chars": CODEX_RECALL_CHARS}},
            f" (codex: recall.max_chars {recall['max_chars']} cut to {CODEX_RECALL_CHARS}, within "
            f"{CODEX_RECALL_BYTES} bytes)")


def _semantic(conn: Connection, ranked: list[dict[str, Any]], prompt: str, settings: RecallConfig, env: Env | None,
              project: str, withheld: Callable[[list[dict[str, Any]]], None] | None = None,
              ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``ranked`` with the similarity bar where vectors are kept, and what happened, for the log."""
    for c in ranked:
        c["similarity"] = None
    if not settings.get("semantic"):
        return ranked, {"state": "off"}
    asked = rank.worth_scoring(ranked, project)
    if not asked:
        return ranked, {"state": "scored", "asked": 0, "scored": 0, "compared": asked}
    from lazy_harness.errors import StaticModelError
    from lazy_harness.recall.embed import static_model, vectors

    try:
        model = static_model.load(state_dir=paths.recall_dir(env))  # the stamps beside the index
        sims = vectors.similarities(conn, model.embed(prompt), asked, static_model.MODEL_ID)
    except StaticModelError as exc:  # why: a damaged model file: the words still decide
        return ranked, {"state": "none", "why": str(exc)}
    ranked = rank.by_similarity(ranked, sims, settings, project, withheld)
    scored = [c["similarity"] for c in ranked if c["similarity"] is not None]
    return ranked, {"state": "scored", "asked": len(asked), "scored": len(scored),
                    "best": max(scored) if scored else None, "compared": asked}


def waiting(ranked: list[dict[str, Any]], key: str | frozenset[str], project: str, cross: str,
            env: Env | None = None) -> None:
    """Consent (ADR 0032): a passing learning of another project's session, not approved, gets ``waiting``
    instead; one without frontmatter gets ``damaged`` (its state as ``lh memory show`` labels it)."""
    from lazy_harness.memory import frontmatter, state

    if cross == state.AUTO:
        return
    for c in ranked:
        if not c["passes"] or c["kind"] != "learning" or c.get("consent") or state.written_in(c, key, project):
            continue
        c["consent"] = True  # read once: before the trail rule (rank.by_similarity), then for the rest
        head = frontmatter.read_frontmatter_values(c["file"], ("status", "deprecated_by", "deprecated_reason",
                                                               "scope", "via", "origin_session"))
        head["path"] = c["file"]  # why: an approval is checked against its file's text (ADR 0052)
        now = state.of_learning(head, cross, env=env)
        if now[0] == state.DAMAGED:
            c["passes"], c["damaged"] = False, state.label(now)
        elif not state.reaches(now[0], False):
            c["passes"], c["waiting"] = False, True


def context_for(prompt: str, cwd: str, cfg: Config, env: Env | None, already: set[str] | frozenset[str] = frozenset(),
                deep: bool = False, place: tuple[str, str, str] | None = None, opener: Opener | None = None,
                session: tuple[str, ...] = ()) -> tuple[str | None, dict[str, Any]]:
    """(the additionalContext or None, facts for the log and explain.py). ``deep`` (a command): the writer
    brings the index up to date first; ``place``: (memory folder, learnings folder, project); ``opener``:
    keeps the index open (the answerer); ``session``: the running session's ids, their entries left out."""
    from lazy_harness.memory import state
    from lazy_harness.recall.prompt.worth_searching import searched_part

    prompt = searched_part(prompt)  # a pasted log is searched by its start and its end only
    settings = cfg["recall"]
    mdir, ldir, project = place or (paths.memory_dir(cwd, env, cfg["memory"]["path"] or None),
                                    paths.learnings_dir(cfg["knowledge"]["path"] or None, env), project_name(cwd))
    path = paths.recall_index_file(env)
    indexed = 0
    for _ in (1, 2) if deep else (1,):
        if deep:  # why: a command; the writer waits for nobody: another one writing, what is there is read
            from lazy_harness.recall.index import writer

            got = writer.update(path, [mdir], ldir)
            indexed = got[0] if got else 0
        ranked, info = _read(path, prompt, cwd, settings, env, mdir, project, state.policy(cfg), session, opener)
        if info.get("index") not in ("damaged", "other-version"):
            break
    passing = [c for c in ranked if c["passes"]]
    unseen = [c for c in passing if c["id"] not in already]
    if len(unseen) > 1:  # the feedback rule, where max_items and max_chars cut (memory/usage.py)
        from lazy_harness.memory import usage

        ranks = usage.load_ranks(env, mdir, cfg["usage"]["unused_after"])
        unseen = usage.order(unseen, lambda c: c["id"], ranks)
    fresh = unseen[:max(0, int(settings["max_items"]))]
    budget = max(0, min(int(settings["max_chars"]), RECALL_HARD_CAP))
    text, kept = rank.render(fresh, mdir, ldir, budget)
    if not text and unseen:  # passed, not shown yet: the budget kept them out
        head = rank.units(rank.heading(mdir, ldir))
        info["budget"] = "recall.max_items is 0" if not fresh else (  # then none was looked at
            f"recall.max_chars {budget} leaves no room for an entry after the {head}-character header")
    info.update(indexed=indexed, ranked=ranked, passed=len(passing),
                already=len(passing) - len(unseen), admitted=fresh, kept=kept, chars=rank.units(text or ""),
                max_chars=budget, memory_dir=mdir, project=project)
    return text, info


def _read(path: str, prompt: str, cwd: str, settings: RecallConfig, env: Env | None, mdir: str, project: str,
          cross: str, session: tuple[str, ...],
          opener: Opener | None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The candidates of this project's scope, by words then by similarity, and the facts for the log (none
    of ``session``); a damaged index is removed, ``index`` saying so."""
    if not os.path.exists(path):
        return [], {"index": "missing"}
    kept: list[Connection] = []  # the opener's connection: it keeps it open, closed here only if damaged
    found: list[str] = []

    def read() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        conn = opener(path) if opener else store.connect(path, create=False)
        kept.extend([conn] if opener else [])
        try:
            keys, legacy, adopted = admit.owner_of(cwd, mdir, env)
            where_sql, args = lookup.scope_sql([mdir], project, keys, adopted)
            ranked, info = rank.rank(conn, prompt, where_sql, args, settings, project=project, scopes=[mdir, ""])
            admit.attach(conn, ranked)  # provenance, then scope by project key (ADR 0024)
            here = [c for c in ranked if admit.in_scope(c, keys, legacy)]
            info["not_here"], ranked = len(ranked) - len(here), here  # why counted: show --prompt says so
            from lazy_harness.memory import provenance  # why here: owner_of loaded it already

            for c in ranked:  # why: "in api" alone reads as this project's own entry (~/work/api, ~/clients/api)
                c["same_name"] = c["origin"] == project and bool(c["okey"]) and not provenance.is_key(c["okey"], keys)
            if session:  # why: this session's own entries (or a fork's parents') are no note from an earlier one
                info["own_session"] = sum(c["sess"] in session for c in ranked)
                ranked = [c for c in ranked if c["sess"] not in session]
            titles: list[list[tuple[str, str, str, str]] | None] = [None]  # this project's learnings, read once

            def withheld(rows: list[dict[str, Any]]) -> None:
                waiting(rows, keys, project, cross, env)
                admit.hold_back(rows, mdir, env)
                titles[0] = admit.own_title_first(rows, conn, project, keys, adopted, titles[0], mdir, env)

            # why these first: a note trails only a match the prompt can be given (rank.TRAIL, ADR 0061)
            ranked, info["semantic"] = _semantic(conn, ranked, prompt, settings, env, project, withheld)
            withheld(ranked)  # those the strength bar passed when no similarity ran
            info["entries"] = lookup.doc_count(conn)
            return ranked, info
        finally:
            if not opener:
                conn.close()

    def removed(exc: BaseException) -> None:
        for conn in kept:  # why: a kept connection to a damaged file; the opener opens the new one
            conn.close()
        # why named apart: after an upgrade the old version's index is no damage (docs/how/recall.md)
        found.append("other-version" if str(exc).startswith(store.OTHER_VERSION) else "damaged")

    try:
        got = store.removed_if_damaged(path, read, removed)
    except store.BeingMade:  # why: a writer's file before its schema: nothing to read, nothing to remove
        return [], {"index": "missing"}
    return got if got is not None else ([], {"index": found[0]})


def answer(payload: Mapping[str, Any], env: Env, now: float, cfg: Config | None = None, opener: Opener | None = None,
           facts: dict[str, Any] | None = None, later: list[Callable[[], object]] | None = None
           ) -> tuple[str, str | None]:
    """What the prompt hook (or the resident answerer) answers for a prompt past its gate: (the hooks.log
    line, the JSON line or None). ``facts`` receives ``entries``; ``later`` receives the writes that record
    the showing, to run once the answer reached the hook (else they run here)."""
    from lazy_harness import config, jsonload
    from lazy_harness.memory import lineage
    from lazy_harness.recall.prompt import already_shown

    cfg = config.load_fast(env) if cfg is None else cfg
    text = str(payload.get("prompt") or "")
    cwd = str(payload.get("cwd") or env.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    sid = str(payload.get("session_id") or "")
    own = lineage.own(env, sid, str(payload.get("transcript_path") or ""))  # a fork's parents too
    out_text, info = context_for(text, cwd, cfg, env, already_shown.read(env, sid), opener=opener, session=own)
    if facts is not None:
        facts["entries"] = info.get("entries", 0)
    decision = describe(info)
    if not out_text:
        return decision, None
    shown = [(c["id"], c.get("chars", 0)) for c in info["kept"]]

    def record() -> None:
        already_shown.add(env, sid, [i for i, _ in shown])
        from lazy_harness.memory import usage

        try:  # the usage record (ADR 0036): one line appended; the worker does the accounting
            usage.note(env, sid, "prompt", len(out_text), shown, now, memory_dir=str(info.get("memory_dir") or ""))
        except Exception:  # why: usage is counted without this showing; the prompt's memory matters more
            pass
    if later is None:
        record()
    else:
        later.append(record)
    out = {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": out_text}}
    return decision, jsonload.dumps(out) + "\n"


def describe(info: Mapping[str, Any]) -> str:
    """One hooks.log line: what was injected (ids) or why nothing was."""
    parts = [f"terms={len(info.get('terms', []))} candidates={info.get('candidates', 0)} "
             f"passed={info.get('passed', 0)}"]
    if info.get("ranked"):  # the strongest candidate's strength: where recall.min_score would let it in
        parts.append(f"best={max(c['strength'] for c in info['ranked']):.2f}")
    if info.get("semantic"):
        parts.append(semantic_word(info["semantic"]))
    # held by the hold check (ADR 0024), waiting for approval (ADR 0032), damaged, another project's text
    # of this project's title (ADR 0071); search: exact or bounded (ADR 0049); index: missing or damaged
    out = {name: ",".join(c["id"] for c in info.get("ranked") or () if c.get(name))
           for name in ("held", "waiting", "damaged", "own_title")}
    for name, value in (("already_shown", info.get("already")), ("own_session", info.get("own_session")),
                        *out.items(), ("indexed", info.get("indexed")),
                        ("search", info.get("search")), ("index", info.get("index"))):
        if value:
            parts.append(f"{name}={value}")
    if info.get("kept"):
        parts.append(f"injected {len(info['kept'])} ({info['chars']}/{info['max_chars']} chars): "
                     + ",".join(c["id"] for c in info["kept"]))
    elif info.get("budget"):  # why: they passed and were not shown: "nothing new" would be untrue
        parts.append(f"nothing added: {info['budget']}")
    elif info.get("passed"):
        parts.append("nothing new")
    else:  # why: one passed the bar and is held or waits: "nothing passed the bar" would be untrue
        parts.append(f"nothing added: {out_because(info)}" if any(out.values()) else "nothing passed the bar")
    return " ".join(parts)


def out_because(info: Mapping[str, Any]) -> str:
    """Why the first candidate that passed the bar and is out whatever its score is out, or ""."""
    for c in info["ranked"]:
        if out := rank.out_reason(c):
            return f"{c['id']} passes the bar but is out: {out}"
    return ""


def semantic_word(sem: Mapping[str, Any]) -> str:
    """Which bar ran: ``semantic=off``, ``semantic=<scored>/<asked>`` or ``semantic=none (<why>)``."""
    if sem["state"] == "off":
        return "semantic=off"
    if sem["state"] == "scored":
        best = f" best_sim={sem['best']:.2f}" if sem.get("best") is not None else ""
        return f"semantic={sem['scored']}/{sem['asked']}{best}"
    return f"semantic=none ({' '.join(str(sem.get('why') or 'no answer').split())})"
