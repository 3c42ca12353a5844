"""``lh memory unassigned | assign | adopt`` and ``lh memory path --old``: whose memory is whose after
a project's key changed (docs/how/project-key.md, ADR 0035).

Registered on the ``lh memory`` group by :func:`register`. Nothing here merges two projects by
itself: ``unassigned`` adopts only a learning with one possible owner and lists the others,
``assign`` and ``adopt`` do what the person names.
"""

from __future__ import annotations

import os
import shlex
import time

import click

from lazy_harness.cli.memory_changes import index_after
from lazy_harness.cli.options import project_option, warn_config

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config

_PROJECT = project_option()


def _say(text: str, err: bool = False) -> None:
    from lazy_harness.logfile import terminal_safe

    click.echo(terminal_safe(text), err=err)


def _roots() -> tuple[str, str, Config]:
    """(memory root, learnings folder, config)."""
    from lazy_harness import config, paths

    cfg = config.load(os.environ, warn_config)
    return (paths.memory_root(cfg["memory"]["path"] or None), paths.learnings_dir(cfg["knowledge"]["path"] or None),
            cfg)


def unassigned_lines(left: list[dict]) -> list[str]:
    """What ``lh memory unassigned`` prints of the learnings no project owns (the page shows the same)."""
    from lazy_harness.memory import held_shown, trust
    from lazy_harness.memory.fence import neutral

    out = []
    for h in left:
        where = (f"projects named {neutral(h['origin'], 80)}: " + ", ".join(h["candidates"]) if h["candidates"]
                 else f"no project named {neutral(h['origin'], 80)} on this machine")
        title = h.get("title") or ""  # why redacted: a title holding a secret is named so (ADR 0062)
        out.append(f"  {h['id']}  {neutral(held_shown.text(title, trust.secret(title)), 120)}  ({where})")
        out.append(f"      lh memory assign {h['id']} --project KEY_OR_FOLDER   ({h['path']})")
    return out


@click.command()
def unassigned() -> None:
    """Project learnings written before project keys were recorded: each is adopted by the project
    whose sessions wrote it, or by the one project of its name; the others are listed here, with the
    command that gives one to a project."""
    from lazy_harness.memory import owners

    mroot, ldir, _ = _roots()
    done, left = owners.adopt_orphans(mroot, ldir, time.time(), os.environ)
    for line in done:
        _say(f"lh: {line}", err=True)
    if not left:
        _say(f"every project learning has its project ({ldir})")
        return
    _say(f"{len(left)} project learning(s) shown in no project until assigned:")
    for line in unassigned_lines(left):
        _say(line)


@click.command()
@click.argument("learning_id")
@click.option("--project", "target", required=True,
              help="The memory key (as lh memory unassigned lists it) or a folder of the project.")
def assign(learning_id: str, target: str) -> None:
    """Give a project learning that has no project to one (it is shown there from then on)."""
    from lazy_harness import paths
    from lazy_harness.errors import LhError
    from lazy_harness.memory import ids, last_key, owners
    from lazy_harness.project_identity import project_root

    learning_id = ids.as_typed(learning_id)  # why: as forget and approve take it (upper case, spaces, brackets)
    mroot, ldir, cfg = _roots()
    if _is_key(mroot, target):
        key, root = target, _live_root(mroot, target)
    elif target and os.path.isdir(target):
        root = project_root(os.path.abspath(target))
        key = os.path.basename(paths.project_memory_dir(root, None, cfg["memory"]["path"] or None))
    else:
        raise LhError(f"{target!r} is neither a memory key in {mroot} nor a folder", hint="lh memory unassigned")
    known = {h["id"]: h for h in owners.orphans(mroot, ldir, os.environ)}
    if learning_id not in known:
        if _assigned_already(mroot, learning_id, key):
            return
        raise LhError(f"{learning_id} is not an unassigned project learning", hint="lh memory unassigned")
    owners.assign(mroot, learning_id, key, time.time())
    if root is not None:  # why: as the worker does: an origin change before its next session finds the adoption
        last_key.remember_key(root, os.path.join(mroot, key))
    index_after(os.path.join(mroot, key), ldir)
    _say(f"{learning_id} is {key}'s now ({os.path.join(mroot, key)})")


def _assigned_already(mroot: str, learning_id: str, key: str) -> bool:
    """True, said, when project learning ``learning_id`` is ``key``'s already (assigned twice: done);
    an LhError naming its project when another has it; False when none has it."""
    from lazy_harness.errors import LhError
    from lazy_harness.memory import aliases

    having = sorted(set(aliases.adopted_anywhere(mroot).get(learning_id, ())))
    if key in having:
        _say(f"{learning_id} is {key}'s already ({os.path.join(mroot, key)}): nothing to do")
        return True
    if having:
        root = _live_root(mroot, having[0])
        raise LhError(f"{learning_id} is {' and '.join(having)}'s already ({os.path.join(mroot, having[0])}), "
                      "shown in that project's sessions; a learning is given to one project",
                      hint=f"lh memory show --project {shlex.quote(root)}" if root else None)
    return False


def _live_root(mroot: str, key: str) -> str | None:
    """The folder of the live project whose memory key is ``key``; None when none is known."""
    from lazy_harness.memory import aliases

    known = aliases.known_projects(mroot, os.environ).get(key)
    return known["root"] if known and known["live"] else None


def _is_key(mroot: str, name: str) -> bool:
    """Whether ``name`` names a memory folder in ``mroot`` (a child of it, by its name). why not only
    ``isdir``: ``.`` and ``..`` are folders of every folder, and a name with a separator is a path."""
    if name in ("", ".", "..") or os.sep in name or (os.altsep and os.altsep in name):
        return False
    return os.path.isdir(os.path.join(mroot, name))


@click.command()
@click.argument("old_key")  # why: path keys start with "-": written after "--" (lh memory adopt -- KEY)
@_PROJECT
@click.option("--force", is_flag=True, help="Even when the folder of the project that memory belongs to still exists, "
              "or it is another machine's project (then copied, not moved).")
def adopt(old_key: str, project: str | None, force: bool) -> None:
    """Take over the memory of an earlier folder of this project (after the project folder moved, or
    its origin changed): its decisions, failures, open items and usage record move here, and its
    learnings are this project's. `lh memory path --old` lists the candidates; a key starting with "-" goes after "--".
    The memory of another machine's project (keyed by a path, it came by sync) needs --force and is
    copied: that machine keeps it."""
    from lazy_harness import paths
    from lazy_harness.errors import LhError
    from lazy_harness.memory import last_key, migrate, owners, usage_log
    from lazy_harness.project_identity import project_name, project_root

    mroot, ldir, cfg = _roots()
    root = project_root(os.path.abspath(project or os.getcwd()))
    mdir = paths.project_memory_dir(root, None, cfg["memory"]["path"] or None)
    old = os.path.join(mroot, old_key)
    if not _is_key(mroot, old_key):
        raise LhError(f"no memory folder {old_key!r} in {mroot}", hint="lh memory path --old")
    if os.path.realpath(old) == os.path.realpath(mdir):
        raise LhError(f"{old_key} is this project's own memory folder", hint="lh memory path --old")
    if _consent_only(mdir, old_key, project_name(root)):
        return
    here = migrate.ran_here(old)
    if not force:
        _refuse_owned(mroot, old_key, os.path.basename(mdir))
        if not here:
            raise LhError(f"{old_key} is the memory of another machine's project{_names_of(old)}: it never ran on "
                          "this machine and came by sync; adopting it would take that project's memory",
                          hint=f"lh memory adopt --force -- {old_key}, to copy it here; that machine keeps it")
    said, run = owners.adopt_journalled(old, mdir, time.time(), project_name(root))
    for line in said:
        _say(f"lh: {line}")
    last_key.remember_key(root, mdir)  # why: as the worker does: an origin change before its next session finds it
    index_after(mdir, ldir)
    index_after(old, ldir)  # why: the old folder's entries leave the index with its files
    if os.path.exists(usage_log.path_of(mdir)):  # why: the sessions its usage record counted count here now
        usage_log.refresh_ranks(None, mdir)
    _say((f"{old_key} adopted into {mdir}" if here else
          f"{old_key} copied into {mdir}; its folder is left as it was for the machine whose project it is")
         + f" (journal {run}: lh memory undo {run})")


def _names_of(folder: str) -> str:
    """`` (lib)``: the project names a folder's entries carry, or ""."""
    from lazy_harness.memory import aliases

    names = sorted(aliases.project_names(folder))
    return f" ({', '.join(names)})" if names else ""


def _consent_only(mdir: str, old_key: str, name: str) -> bool:
    """``old_key`` is an alias of this project already, not counted (one that came by sync, or was
    written before this machine noted the aliases it wrote, naming a live project's key: aliases.counted):
    adopting it says the person wants it; noted, nothing moved. True when that was all there was to do."""
    from lazy_harness.memory import aliases

    if not any(r["op"] == aliases.ALIAS and r["folder"] == old_key for r in aliases.records(mdir)) \
            or old_key in aliases.owned(mdir).keys:
        return False
    aliases.record(mdir, aliases.ALIAS, old_key, "adopted by hand", time.time(), project=name)
    _say(f"{old_key} is an alias of {mdir} already; it counts as this project's now (nothing moved)")
    return True


def _refuse_owned(mroot: str, old_key: str, mine: str) -> None:
    """Raise when ``old_key`` is the memory of another live project (``mine``: this one's key): its own
    key, or an earlier key it took over (an alias in its ``aliases.jsonl``, ``owners.live_owners``)."""
    from lazy_harness.errors import LhError
    from lazy_harness.memory import aliases, owners

    owner = owners.live_owners(mroot, aliases.known_projects(mroot, os.environ), mine).get(old_key)
    if owner is None:
        return
    what = "" if owner["key"] == old_key else f"an alias ({aliases.FILE}) of {owner['key']}, "
    raise LhError(f"{old_key} is {what}the memory of {owner['root']}, which still exists: adopting it would "
                  "merge two projects", hint=f"lh memory adopt --force -- {old_key}, if they are one")


def print_old(mdir: str, mroot: str, ldir: str) -> None:
    """``lh memory path --old``: the memory folders that are no live project's own, with what they hold;
    one another live project took over (an alias) is named as its, without an adopt command; a
    path-keyed one whose project never ran on this machine (another machine's, brought by sync) is
    listed apart, without an adopt command; one this project counts as its own (an alias: its earlier
    key) is listed first, as this project's earlier folder (docs/how/project-key.md)."""
    from lazy_harness.memory import owners

    by_key = owners.learnings_by_key(ldir)  # why: one pass over the learnings, not one per folder
    # why left out when it holds nothing (no entry, open item or learning of its key): nothing to adopt,
    # and such a folder is most often a live project's that a command made and left empty, whose
    # project no transcript or worker record names yet
    found: list[tuple[dict, dict[str, int]]] = []
    theirs: list[tuple[dict, dict[str, int]]] = []
    mine: list[tuple[dict, dict[str, int]]] = []
    for f in owners.earlier_folders(mdir, mroot, os.environ):
        held = owners.holds(f["folder"], ldir, by_key)
        if any(held.values()):
            (mine if f["aliased"] else theirs if f["elsewhere"] and not f["owner"] else found).append((f, held))
    if not found and not theirs and not mine:
        _say(f"no other memory folder with memory and without a live project in {mroot}")
    if mine:
        # why apart: the folder of this project's earlier key (it gained an origin, or was adopted) is
        # no memory whose project is gone, even while what it held stays there (learnings, journals)
        _say(f"this project's earlier memory folder(s), merged into {os.path.basename(mdir.rstrip(os.sep))} "
             f"({mdir}):")
    for f, held in mine:
        _say(f"  {f['key']}  ({_names(f)}{_was(f)}): {_held(held)}")
        _say("      already this project's (alias): what it holds counts as this project's")
    if found:
        _say(f"memory folders whose project folder is gone or unknown (this project's: {mdir}):")
    for f, held in found:
        mark = (f"alias of {f['owner']}, which still exists: that project's memory, not offered" if f["owner"] else
                f"lh memory adopt -- {f['key']}")
        _say(f"  {f['key']}  ({_names(f)}{_was(f)}): {_held(held)}")
        _say(f"      {mark}")
    if theirs:
        _say("memory of another machine's projects (keyed by their path there, never run on this machine; "
             "came by sync, not offered):")
    for f, held in theirs:
        named = f"  (project {', '.join(f['names'])})" if f["names"] else ""
        _say(f"  {f['key']}{named}: {_held(held)}")


def _was(f: dict) -> str:
    return f"was {f['root']}" if f["root"] else "folder unknown"


def _names(f: dict) -> str:
    return f"project {', '.join(f['names'])}; " if f["names"] else ""


def _held(held: dict[str, int]) -> str:
    return ", ".join(f"{n} {k}" for k, n in held.items() if n)


def register(group: click.Group) -> None:
    for command in (unassigned, assign, adopt):
        group.add_command(command)
