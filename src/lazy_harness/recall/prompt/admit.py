"""Trust at prompt recall (ADR 0024; docs/how/recall.md, "Trust"): a ``scope: project`` learning only in
its project, known by its key; the hold check again before injection, unless the person approved it."""

from __future__ import annotations

from lazy_harness.memory import trust

# why: not ``from typing import TYPE_CHECKING``: the prompt hook loads this module (house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable, Container

    from lazy_harness.memory.shapes import Env, Record

    Rows = list[tuple[str, str, str, str]]  # this project's learnings in the index: (id, title, file, hold)


def attach(conn: sqlite3.Connection, ranked: list[dict]) -> None:
    """Give each candidate its project key, origin phrase, hold verdict and source session from the index."""
    from lazy_harness.recall.index import lookup

    found = lookup.provenance_of(conn, [c["rowid"] for c in ranked])
    for c in ranked:
        c["okey"], c["prov"], c["hold"], c["sess"] = found.get(c["rowid"], ("", "", None, ""))


def in_scope(c: dict, key: frozenset[str], legacy: Callable[[Record], bool]) -> bool:
    """A ``scope: project`` learning only in the project of keys ``key`` (without a key: ``legacy``)."""
    if c["kind"] != "learning" or str(c.get("scope") or "").lower() != "project":
        return True
    if c.get("okey"):
        from lazy_harness.memory import provenance

        return provenance.is_key(c["okey"], key)
    from lazy_harness.memory import frontmatter

    return legacy(frontmatter.read_frontmatter_values(c["file"], ("id", "title", "origin", "origin_session")))


def owner_of(cwd: str, mdir: str,
             env: Env | None = None) -> tuple[frozenset[str], Callable[[Record], bool], frozenset[str]]:
    """(this project's keys, ``provenance.legacy_owner`` for learnings without a key, the ids it adopted)."""
    from lazy_harness import paths
    from lazy_harness.memory import aliases, provenance
    from lazy_harness.project_identity import project_name, project_root

    root = project_root(cwd)
    owned = aliases.owned(mdir, env)
    return owned.keys, provenance.legacy_owner(paths.projects_dir(env), paths.project_key(root), project_name(root),
                                               owned.adopted), owned.adopted


def hold_back(ranked: list[dict], mdir: str, env: Env | None) -> None:
    """The hold check on the candidates that pass (before the trail rule, and again for those the strength
    bar passed): one held gets ``held`` and no longer passes, unless approved. The index keeps each
    verdict; a row gone since the search is checked here."""
    approvals: list[Container[str]] = []  # the approved ids, read once when first needed
    for c in ranked:
        if not c["passes"] or c.get("held"):
            continue
        why = c.get("hold")
        if why is None:
            why = c["hold"] = trust.every_reason(f"{c.get('title') or ''} {c.get('detail') or ''}") or ""
        if why and not _approved(c, mdir, env, approvals):
            c["passes"], c["held"] = False, why


def _approved(c: dict, mdir: str, env: Env | None, approvals: list[Container[str]]) -> bool:
    from lazy_harness.memory import frontmatter, held, state

    # why: a secret the index's reason names holds an entry whatever approved it (ADR 0056)
    if trust.SECRET in str(c.get("hold") or ""):
        return False
    if c["kind"] != "learning":
        if not approvals:
            approvals.append(held.approved(mdir, env=env, secrets=False))
        return c["id"] in approvals[0]
    # why the path: an approval counts only as the person's MAC of the file's text (ADR 0052)
    return state.approved_learning(frontmatter.read_frontmatter_values(c["file"], ("deprecated_reason",)),
                                   None, c["file"], env)


def own_title_first(ranked: list[dict], conn: sqlite3.Connection, project: str, keys: frozenset[str],
                    adopted: frozenset[str], kept: Rows | None, mdir: str, env: Env | None) -> Rows | None:
    """Another project's passing learning of a title one of this project's has gets ``own_title`` (that
    one's id) and no longer passes (memory/own_title.py, ADR 0071). ``kept``: this project's learnings from
    the index, read once, only when another's passes; returned for the next call."""
    from lazy_harness.memory import own_title, provenance

    def here(c: dict) -> bool:  # ``state.written_in``, adopted ids too; why not it: ``state`` costs the hook
        return c["id"] in adopted or (provenance.is_key(c["okey"], keys) if c.get("okey") else c["origin"] == project)

    others = [c for c in ranked if c["passes"] and c["kind"] == "learning" and not here(c)]
    if not others:
        return kept
    if kept is None:
        from lazy_harness.recall.index import lookup

        kept = lookup.own_learnings(conn, project, keys, adopted)
    titles = own_title.titles_among(kept, [(c["title"], c["file"]) for c in others],
                                    lambda row: shown_here(row, mdir, env))
    for c in others:
        if lid := own_title.other_of_own_title(titles, c["title"], c["file"]):
            c["passes"], c["own_title"] = False, lid
    return kept


def shown_here(row: tuple[str, ...], mdir: str, env: Env | None) -> bool:
    """Whether this project's learning (an ``own_learnings`` row) reaches its sessions: the hold check
    passes it, or the person approved it (why: one approved after its hold is shown, so its title counts)."""
    return not row[3] or _approved({"hold": row[3], "kind": "learning", "file": row[2]}, mdir, env, [])
