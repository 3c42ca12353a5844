"""A project's runs over every memory folder it had: its own journal and those of its earlier keys
(a folder its ``aliases.jsonl`` names, the path-keyed folder it had before it gained an origin).
``lh memory history``, ``lh memory undo`` and the page's "Changes, and undo" list the same runs and
undo them the same way (ADR 0035).
"""

from __future__ import annotations

import os

from lazy_harness.memory import ids


def earlier_folders(folder: str | None, mdir: str) -> list[tuple[str, bool]]:
    """The folders of this project's earlier keys, whose journals are its history too: each folder its
    ``aliases.jsonl`` names beside this one (their entries and marks were taken over here), and, when a
    ``folder`` of the project is known, the path-keyed folder of a project that gained an origin before
    the move named it (``migrate.earlier_folder``); each with whether only the runs naming this project
    count (the latter's)."""
    from lazy_harness.memory import aliases, migrate
    from lazy_harness.project_identity import project_root

    parent, own = os.path.split(mdir.rstrip(os.sep))
    out = []
    for key in sorted(aliases.owned(mdir).keys - {own}):
        # why: aliases.jsonl is synced and may be edited by hand: a key names a folder beside this one, no other
        if key in (".", "..") or os.sep in key or (os.altsep is not None and os.altsep in key):
            continue
        if os.path.isdir(os.path.join(parent, key)):
            out.append((os.path.join(parent, key), False))
    earlier = migrate.earlier_folder(project_root(folder), mdir) if folder else None
    if earlier and all(earlier != f for f, _ in out):
        out.append((earlier, True))
    return out


def runs(folder: str | None, mdir: str, name: str) -> list[tuple[dict, str | None]]:
    """Every run of the project's history, newest first, each with the earlier folder it was journaled
    in (None: this one). A run journaled in two folders (copied by sync, by hand, or by an undo here:
    :func:`to_undo`) is listed once, this folder's copy first: the one an undo here changes."""
    from lazy_harness.memory import journal

    found: list[tuple[dict, str | None]] = [(r, None) for r in journal.runs(mdir)]
    seen = {r["run"] for r, _ in found}
    for where, by_name in earlier_folders(folder, mdir):
        for r in journal.runs(where):
            if r["run"] not in seen and (not by_name or r.get("project") in (None, name)):
                seen.add(r["run"])
                found.append((r, where))
    from lazy_harness.memory.journal_format import run_order

    return sorted(found, key=lambda pair: run_order(pair[0]), reverse=True)


def to_undo(folder: str | None, mdir: str, name: str, run: str | None) -> str | None:
    """The run an undo is to undo (``run``, a prefix, or None: the newest this machine made), its
    journal first copied into this folder when only an earlier folder of the project holds it: undone
    here, where what it changed was taken over to (a journal's paths are relative to its memory folder,
    ``memory.journal``). why a copy and not the earlier folder's own journal: that folder may be kept
    for others (a remote key's, read by the machines still on that origin: ``migrate.take_over`` copies
    it then); its files and its journal, which say what it holds, stay as they are."""
    from lazy_harness.memory import by_hand, journal, runs_here

    found = runs(folder, mdir, name)
    if run and ids.kind_of(run) is not None:  # an entry's id, as lh memory search shows it: its newest run
        run = _run_of_entry(found, run)
    if run:
        hits = [(d, where) for d, where in found if d["run"] == run or d["run"].startswith(run)]
        if len(hits) > 1:
            raise journal.several(run, [d for d, _ in hits])
    else:
        mine = runs_here.made_here()  # why the rule a plain undo keeps (memory.journal), over every folder
        hits = [(d, where) for d, where in found
                if not d.get("undone") and d.get("kind") not in by_hand.NEVER_UNDONE and mine(d)][:1]
    if not hits or hits[0][1] is None:
        return run  # why: this folder's own, or none: journal.undo finds it, or says why not
    data, where = hits[0]
    # why no check of the answer: gone since it was listed, journal.undo says there is no such run
    journal.copy_run(str(data["run"]), str(where), mdir)
    return str(data["run"])


def _run_of_entry(found: list[tuple[dict, str | None]], eid: str) -> str:
    """The newest run not undone yet (of a kind undo undoes) whose changes name entry ``eid``, when it
    changed that entry alone. why: ``lh memory search`` labels a forgotten entry by its id, and the
    person brings it back by that id; a run that changed others too (a consolidation) would put them
    back as well, so it is named, not undone."""
    import re

    from lazy_harness.errors import LhError
    from lazy_harness.memory import by_hand

    for data, _ in found:
        if data.get("undone") or data.get("kind") in by_hand.NEVER_UNDONE:
            continue
        named = {e for line in data.get("changes") or [] if isinstance(line, str) for e in re.findall(ID, line)}
        if eid not in named:
            continue
        if len(named) > 1:
            raise LhError(f"{eid} was last changed by run {data['run']} ({data.get('kind', '?')}), which changed "
                          f"{len(named)} entries: undoing it puts all of them back",
                          hint=f"lh memory undo {data['run']}")
        return str(data["run"])
    raise LhError(f"no run that changed {eid} is left to undo in this project (it was not forgotten here, or "
                  "is back already)", hint="lh memory history")


ID = r"\b[dfhl]-[0-9a-f]{8,40}\b"  # an entry's id inside a run's change line (memory.ids)


def unreadable(folder: str | None, mdir: str) -> list[tuple[str, str]]:
    """(path, why) of each journal of the project that no history or undo can read (a write cut short,
    a hand edit), in this folder and its earlier ones: its run is otherwise in neither, without a word."""
    from lazy_harness.memory import journal

    return [found for where in [mdir, *(f for f, _ in earlier_folders(folder, mdir))]
            for found in journal.unreadable_runs(where)]
