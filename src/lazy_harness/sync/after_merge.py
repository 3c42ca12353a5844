"""What follows a round's merge (sync/rounds.py): handoff.md rendered again from the merged item logs,
the person's hand edits of handoff.md recorded before a merge, usage recounted, and the hold check on
what came in (memory/held.py, ADR 0024) with the ids the merge brought (:func:`incoming_ids`)."""

from __future__ import annotations

import os

from lazy_harness import logfile, paths
from lazy_harness.sync import conflicts
from lazy_harness.sync.repo import _git

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from lazy_harness.config.typed import Config


def rerender_handoffs(data: str, changed: list[str], now: float) -> None:
    """handoff.md is rendered from handoff.jsonl and not synced: render it where the state moved, a
    hand edit made meanwhile recorded first (memory/handoff.py ``import_hand_edits``). Where the merge
    removed handoff.jsonl, handoff.md goes too, read as nothing (``handoff.drop_unlogged``)."""
    folders = {os.path.dirname(os.path.join(data, p)) for p in changed if p.endswith("handoff.jsonl")}
    if not folders:
        return
    from lazy_harness.memory import handoff

    for folder in folders:
        if not handoff.drop_unlogged(folder):
            handoff.import_hand_edits(folder, {"session_id": "sync", "task_id": "sync"}, now, render=True)


def record_handoff_edits(memory_dirs: list[str], now: float) -> None:
    """A hand edit of any project's handoff.md recorded in its handoff.jsonl before the commit, so the
    round carries it to the other machines (handoff.md itself is not synced). A few ``stat``s per
    project; never raises: SessionStart's read records the edit anyway."""
    from lazy_harness.errors import LhError
    from lazy_harness.memory import handoff

    for folder in memory_dirs:
        if handoff.edited_since_render(folder):
            try:
                handoff.import_hand_edits(folder, {"session_id": "sync", "task_id": "sync"}, now)
            except (OSError, ValueError, LhError):
                pass


def recount_usage(data: str, changed: list[str], env: Mapping[str, str] | None) -> None:
    """usage.jsonl or marks.jsonl merged: the counts the budget cuts read, worked out again once per
    memory folder (memory/usage_log.py). why marks: a merge made on another machine counts the merged
    entry's sessions for the one it was merged into, with no new usage line. Never raises: the next
    distillation writes them anyway."""
    from lazy_harness.memory import marks, usage_log

    folders = dict.fromkeys(os.path.dirname(os.path.join(data, rel)) for rel in changed
                            if os.path.basename(rel) in (usage_log.USAGE, marks.MARKS))
    for folder in folders:
        if not os.path.exists(usage_log.path_of(folder)):  # marks of a folder no session was counted in
            continue
        try:
            usage_log.refresh_ranks(env, folder)
        except OSError:
            pass


def hold_merged(data: str, changed: list[str], cfg: Config, env: Mapping[str, str] | None, now: float,
                incoming: set[str] | None = None) -> list[str]:
    """The hold check on what the merge brought in (:func:`hold_check`), then the titles whose new texts
    met settled (:func:`settle_met`): after the check, so a text it held stands for nothing. Returns the
    ids held; never raises."""
    done = hold_check(data, changed, cfg, env, now, incoming)
    settle_met(data, changed, cfg, env, now)
    return done


def settle_met(data: str, changed: list[str], cfg: Config, env: Mapping[str, str] | None, now: float) -> list[str]:
    """Each project whose journal the merge changed, its titles settled where two machines' new texts
    of one title meet (ADR 0063, ``store.settle_met``: the newest stands, one ``rewrite`` run that
    ``lh memory undo`` reverts), so the next session start shows one text, not both until that
    machine's next persist. Returns the ids deprecated; never raises (the next persist settles them)."""
    from lazy_harness.memory import store
    from lazy_harness.memory.journal_format import FOLDER

    root = paths.memory_root(cfg["memory"]["path"] or None, env)
    ldir = paths.learnings_dir(cfg["knowledge"]["path"] or None, env)
    folders = dict.fromkeys(os.path.dirname(os.path.dirname(os.path.join(data, rel))) for rel in changed
                            if os.path.basename(os.path.dirname(rel)) == FOLDER)
    out: list[str] = []
    for mdir in folders:
        if os.path.dirname(os.path.realpath(mdir)) != os.path.realpath(root):
            continue
        try:
            out += store.settle_met(mdir, ldir, now, env, root).rewritten
        except Exception as exc:  # why: the merge is done; the project's next persist settles the title
            logfile.write(logfile.WORKER, f"sync: texts of one title not settled in {mdir}: "
                                          f"{type(exc).__name__}: {exc}", env)
    if out:
        logfile.write(logfile.WORKER, f"sync: texts of one title met, the newest stands: {', '.join(out)} "
                                      "deprecated", env)
    return out


def hold_check(data: str, changed: list[str], cfg: Config, env: Mapping[str, str] | None, now: float,
               incoming: set[str] | None = None) -> list[str]:
    """The hold check on what the merge brought in (memory/held.py, ADR 0024): the live entries of a
    memory folder whose files changed (``incoming``: only those whose id a line the merge added or
    removed names, :func:`incoming_ids`; None: every one), every learning file that changed; an entry
    with an approve mark, or a learning whose frontmatter says approved, is left alone, whichever
    machine signed it (ADR 0052: the read-back here still shows it only when this machine's key
    signed it, and a hold would outrank the approval on the machine that made it, once synced there).
    A learning's hold is journalled in the memory folder of the project it names, else in the first
    folder merged; with neither here, SessionStart's read-time check holds it. Returns the ids held;
    never raises."""
    from lazy_harness.memory import files, held, held_written

    root = paths.memory_root(cfg["memory"]["path"] or None, env)
    ldir = paths.learnings_dir(cfg["knowledge"]["path"] or None, env)
    folders, learnings = [], []
    for rel in changed:
        full = os.path.join(data, rel)
        if files.is_learning_name(os.path.basename(rel)) and paths.is_within(full, ldir) and os.path.isfile(full):
            learnings.append(full)
        elif (rel.endswith(".jsonl") and os.path.dirname(full) not in folders
              and os.path.dirname(os.path.realpath(os.path.dirname(full))) == os.path.realpath(root)):
            folders.append(os.path.dirname(full))
    done: list[str] = []
    try:
        for mdir in folders:
            found = held.scan_records(mdir, env, incoming)
            held.hold(mdir, ldir, found, os.path.basename(mdir), now, "merged by lh sync", by_rules=True)
            done += [f[1] for f in found]
        by_folder: dict[str, list] = {}
        for one in held_written.scan_learnings(learnings, env):
            mdir = conflicts.memory_folder_of(root, one[2]) or (folders[0] if folders else "")
            if mdir:
                by_folder.setdefault(mdir, []).append(one)
        for mdir, some in by_folder.items():
            held.hold(mdir, ldir, some, os.path.basename(mdir), now, "merged by lh sync", by_rules=True)
            done += [f[1] for f in some]
    except Exception as exc:  # why: the merge is done; SessionStart's read-time check still holds them
        logfile.write(logfile.WORKER, f"sync: hold check failed: {type(exc).__name__}: {exc}", env)
        return done
    if done:
        logfile.write(logfile.WORKER, f"sync: held {len(done)} merged entries: {', '.join(done)}", env)
    try:  # why here: the rules are compiled by now; the next SessionStart reads these verdicts instead
        held_written.keep_arrived(folders, incoming, learnings, env)
    except Exception as exc:  # why: a cache; that start works them out itself
        logfile.write(logfile.WORKER, f"sync: verdicts of what came in not kept: {type(exc).__name__}: {exc}", env)
    return done


def incoming_ids(data: str, before: str, after: str, env: Mapping[str, str] | None) -> set[str] | None:
    """Every id named by a line of a JSONL file that commit ``after`` adds or removes against
    ``before``: an entry's own or derived id (as a decision and as a failure), an open item's, a
    mark's. A line damaged or not is read as the readers read it (``conflicts.line_records``). None
    (check everything) when there is no ``before`` (all of it came in) or git cannot say.

    why removed lines too: a hold or forget mark taken out on the other machine brings an old entry
    back, which the check must see as it would have. why ids and not lines: the check of an entry
    reads its marks and its copies too, so what came in is every entry an added or removed line names."""
    if not before:
        return None
    result = _git(data, "diff", "--no-color", "--no-ext-diff", "--no-textconv",
                  "--no-renames", "-a", "-U0", before, after, "--", "*.jsonl", check=False, env=env)
    if not result.ok:
        return None
    from lazy_harness.memory import ids

    out: set[str] = set()
    in_hunk = False
    for row in result.stdout.split("\n"):  # why not splitlines: a line may hold a \r or a \x1c
        if not in_hunk or row[:1] not in ("+", "-"):  # a file's header ("--- a/...") is no line of it
            in_hunk = row.startswith("@@") or (in_hunk and row[:1] in (" ", "\\"))
            continue
        for rec in conflicts.line_records(row[1:].encode("utf-8")):
            if isinstance(rec.get("id"), str):
                out.add(rec["id"])
            if isinstance(rec.get("summary"), str):
                out.update(ids.of_record(rec, kind) for kind in ("decision", "failure"))
    return out
