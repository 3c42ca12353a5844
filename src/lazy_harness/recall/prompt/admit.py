"""Trust at prompt recall (ADR 0024; docs/how/recall.md, "Trust"): which ranked entries a prompt may
be given. A ``scope: project`` learning only in the project it was written for, known by the project
key recorded with it (two projects may share a folder name); the hold check again before injection
(memory/trust.py), unless the person approved the entry (memory/held.py).
"""

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
    """A learning of ``scope: project`` only in the project of memory keys ``key`` (one written before
    keys were recorded: when ``legacy``, ``provenance.legacy_owner``, says so); anything else as found."""
    if c["kind"] != "learning" or str(c.get("scope") or "").lower() != "project":
        return True
    if c.get("okey"):
        from lazy_harness.memory import provenance

        return provenance.is_key(c["okey"], key)
    from lazy_harness.memory import frontmatter

    return legacy(frontmatter.read_frontmatter_values(c["file"], ("id", "title", "origin", "origin_session")))


def owner_of(cwd: str, mdir: str,
             env: Env | None = None) -> tuple[frozenset[str], Callable[[Record], bool], frozenset[str]]:
    """(the keys whose project-scoped learnings are this project's: its memory folder's name and
    aliases, ``provenance.legacy_owner`` of the project holding ``cwd`` with the learnings it adopted,
    the ids of those adopted learnings: written before keys were recorded, they carry no key)."""
    from lazy_harness import paths
    from lazy_harness.memory import aliases, provenance
    from lazy_harness.project_identity import project_name, project_root

    root = project_root(cwd)
    owned = aliases.owned(mdir, env)
    return owned.keys, provenance.legacy_owner(paths.projects_dir(env), paths.project_key(root), project_name(root),
                                               owned.adopted), owned.adopted


def hold_back(ranked: list[dict], mdir: str, env: Env | None) -> None:
    """The hold check on the candidates that pass, before the trail rule (``rank.by_similarity``'s
    ``withheld``) and again for those the strength bar passed: a best match held back is given to no
    session, so it sets no bar for the others. The index keeps every entry's verdict; one it holds none
    for (a row gone between the search and ``attach``) is checked here. Each held one gets ``held`` and
    no longer passes, unless the person approved it."""
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

    # why the index's reason: it names a secret beside an order (trust.every_reason), and a secret holds
    # an entry whatever approved it (ADR 0056); so no approval here looks for one, loading the redactor
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
    """Another project's learning that passes, of a title one of this project's learnings has (matched by
    its words), no longer passes: it gets ``own_title``, that learning's id. The SessionStart digest's
    rule (memory/own_title.py, ADR 0071): this project's text of a subject is its word here, whether or
    not the prompt matched it. ``kept``: this project's learnings (id, title, file), read from the index
    once (None: not yet); returned for the next call. Nothing is read unless another project's passes; a
    held one of this project's counts when the person approved it (:func:`shown_here`)."""
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
    """Whether this project's learning (a row of ``lookup.own_learnings``: id, title, file, hold) reaches its
    sessions: the hold check passes it, or the person approved it (:func:`hold_back`'s rule; its file is
    read only then). why: one approved after its hold is shown, and the index keeps the hold's verdict; it
    did not count as this project's title, and the other project's text was given beside it."""
    return not row[3] or _approved({"hold": row[3], "kind": "learning", "file": row[2]}, mdir, env, [])
