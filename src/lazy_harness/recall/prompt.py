"""What one typed prompt gets from memory: the project's index brought up to date, the entries that
pass the bar and were not shown to this session yet, as one text within the budget.

Shared by the UserPromptSubmit hook and ``lh memory show --prompt`` (so what the command prints is
what the model gets). Whether a prompt gets a search at all: :mod:`lazy_harness.recall.gate`.

With ``recall.semantic`` the resident embedder (:mod:`lazy_harness.recall.embed_client`, ADR 0020)
gets the prompt first, and embeds it while the index is searched; then it is asked for the
candidates' similarities, within ``recall.semantic_timeout_ms``. When it does not answer, the
strength bar decides alone, exactly as without it, and the hook starts the embedder for the next
prompts.
"""

import os

from lazy_harness import paths
from lazy_harness.config import RECALL_HARD_CAP
from lazy_harness.recall import fence, gate, index, select


def where(cwd: str, cfg: dict, env) -> tuple[str, str, str]:
    """(memory folder, learnings folder, project name) of a session in ``cwd``."""
    return (paths.memory_dir(cwd, env, cfg["memory"]["path"] or None), paths.learnings_dir(cfg["knowledge"]["path"] or None, env),
            paths.project_name(cwd))


class _Embedder:
    """The hook's side of one prompt's request to the embedder: the prompt sent ahead
    (``gate.send_ahead``), the candidates sent as soon as the search finds them (``ask``, so the
    embedder works while the hook weighs its terms), the answer read last (``similarities``)."""

    def __init__(self, sent: tuple, settings: dict):
        self.pending, self.why = sent
        self.timeout = int(settings["semantic_timeout_ms"]) / 1000
        self.asked = False

    def ask(self, rowids: list[int]) -> None:
        if self.pending is None or not rowids:
            return
        from lazy_harness.recall import embed_client

        if self.asked:  # why: a second search (the index was damaged and rebuilt): other rowids
            self.close("the index was rebuilt during the search")
            return
        why = embed_client.ask(self.pending, rowids)
        self.asked = True
        if why:
            self.pending, self.why = None, why

    def similarities(self, asked: list[int]) -> tuple[dict | None, str]:
        from lazy_harness.recall import embed_client

        if self.pending is None:
            return None, self.why
        pending, self.pending = self.pending, None
        if not self.asked:
            return embed_client.similarities_for(pending, asked, self.timeout)
        return embed_client.answer(pending, asked, self.timeout)

    def close(self, why: str = "") -> None:
        if self.pending is not None:
            from lazy_harness.recall import embed_client

            embed_client.drop(self.pending)
            self.pending, self.why = None, why or self.why


def _semantic(ranked: list[dict], request: _Embedder, settings: dict, env, project: str, now: float | None,
              meanwhile) -> tuple[list[dict], dict]:
    """``ranked`` with the similarity bar when the embedder answers (``select.by_similarity``), as it
    is otherwise; and what happened, for the log. ``meanwhile()`` runs before the answer is waited
    for. ``now`` None (the CLI): the embedder is not started."""
    for c in ranked:
        c["similarity"] = None
    if not settings.get("semantic"):
        meanwhile()
        return ranked, {"state": "off"}
    from lazy_harness.recall import embed_client

    asked = select.worth_scoring(ranked, project)
    meanwhile()
    if not asked:
        request.close()
        return ranked, {"state": "scored", "asked": 0, "scored": 0}
    try:
        sims, why = request.similarities(asked)
        word = embed_client.ensure_running(env, now) if sims is None and now is not None else None
    except Exception as exc:  # why: it never raises by contract; if it did, words still decide
        sims, why, word = None, f"embedder client: {type(exc).__name__}: {exc}", None
    if sims is None:
        return ranked, {"state": "none", "why": why, "embedder": word}
    ranked = select.by_similarity(ranked, sims, settings, project)
    scored = [c["similarity"] for c in ranked if c["similarity"] is not None]
    return ranked, {"state": "scored", "asked": len(asked), "scored": len(scored),
                    "best": max(scored) if scored else None}


def _nothing() -> None:
    return None


def context_for(prompt: str, cwd: str, cfg: dict, env, already: set[str] = frozenset(),
                deep: bool = False, now: float | None = None, sent: tuple | None = None,
                meanwhile=_nothing) -> tuple[str | None, dict]:
    """(the additionalContext or None, facts: terms, candidates, passed, kept items, indexed count,
    what the embedder did); ``deep`` also looks at every learning file for edits in place (see
    ``index.refresh``); ``now`` (the hook's clock) lets a missing embedder be started; ``sent``: the
    prompt already sent to the embedder (``gate.send_ahead``), else it is sent here; ``meanwhile()``
    runs once, while the embedder computes the candidates' similarities."""
    settings = cfg["recall"]
    mdir, ldir, project = where(cwd, cfg, env)
    path = paths.recall_index_file(env)
    request = _Embedder(gate.send_ahead(prompt, settings, env) if sent is None else sent, settings)
    try:
        for attempt in (1, 2):
            conn = index.connect(path)
            try:
                indexed = index.refresh(conn, [mdir], ldir, deep)
                where_sql, args = index.scope_sql([mdir], project)
                ranked, info = select.rank(conn, prompt, where_sql, args, settings, project=project,
                                           on_candidates=request.ask)
                fence.attach(conn, ranked)  # provenance, then scope by project key (ADR 0024)
                legacy = fence.legacy_for(cwd, env)
                ranked = [c for c in ranked if fence.in_scope(c, fence.project_key(mdir), legacy)]
                break
            except Exception as exc:
                if attempt == 2 or not index.damaged(exc):
                    raise
            finally:
                conn.close()
            index.remove(path)  # only after a damaged index: a cache, built again from the files
    except BaseException:
        request.close()
        raise
    ranked, info["semantic"] = _semantic(ranked, request, settings, env, project, now, meanwhile)
    passed, held_back = fence.screen([c for c in ranked if c["passes"]], mdir)
    fresh = [c for c in passed if c["id"] not in already][:max(0, int(settings["max_items"]))]
    budget = max(0, min(int(settings["max_chars"]), RECALL_HARD_CAP))
    text, kept = select.render(fresh, mdir, ldir, budget)
    info.update(indexed=indexed, ranked=ranked, held=held_back, passed=len(passed), already=len(passed) - len(
        [c for c in passed if c["id"] not in already]), kept=kept, chars=len(text or ""), max_chars=budget)
    return text, info


def describe(info: dict) -> str:
    """One hooks.log line: what was injected (ids) or why nothing was."""
    parts = [f"terms={len(info.get('terms', []))} candidates={info.get('candidates', 0)} passed={info.get('passed', 0)}"]
    if info.get("ranked"):  # the strongest candidate's strength: where recall.min_score would let it in
        parts.append(f"best={max(c['strength'] for c in info['ranked']):.2f}")
    sem = info.get("semantic")
    if sem:
        parts.append(semantic_word(sem))
    if info.get("already"):
        parts.append(f"already_shown={info['already']}")
    if info.get("held"):  # left out by the hold check (ADR 0024); the next SessionStart records them
        parts.append("held=" + ",".join(c["id"] for c in info["held"]))
    if info.get("indexed"):
        parts.append(f"indexed={info['indexed']}")
    if info.get("kept"):
        parts.append(f"injected {len(info['kept'])} ({info['chars']}/{info['max_chars']} chars): "
                     + ",".join(c["id"] for c in info["kept"]))
    else:
        parts.append("nothing passed the bar" if not info.get("passed") else "nothing new")
    return " ".join(parts)


def semantic_word(sem: dict) -> str:
    """Which bar ran: ``semantic=off``; ``semantic=<scored>/<asked>`` (and the best similarity), the
    strength bar for the candidates not scored; ``semantic=none (<why>...)``, the strength bar alone."""
    if sem["state"] == "off":
        return "semantic=off"
    if sem["state"] == "scored":
        best = f" best_sim={sem['best']:.2f}" if sem.get("best") is not None else ""
        return f"semantic={sem['scored']}/{sem['asked']}{best}"
    started = f"; embedder {sem['embedder']}" if sem.get("embedder") else ""
    return f"semantic=none ({' '.join(str(sem.get('why') or 'no answer').split())}{started})"
