"""Finding sessions (Claude Code's and Codex CLI's) for ``lh knowledge handoff-now``, ``lh distill`` and
``lh memory show --prompt --session``.

Not a command group: the lookup those two commands share. It lives with them because nothing else
looks for a session by id or by folder (the hooks get the transcript path in their payload, the
worker in its task, the sweep keeps its own list), and it imports no click.

Claude Code keeps a session's transcript under ``<claude dir>/projects/<key of the cwd it was
started in>/<session id>.jsonl``. A repository's sessions may have started in its root, in a
subfolder or in another worktree, each with its own folder there, and the key cannot be turned
back into a path: the transcript's own ``cwd`` tells which repository a session belongs to
(:func:`project_identity.project_root` maps every worktree to the main one).

Codex CLI keeps a session's rollout under ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<timestamp>-<session
id>.jsonl``; its first record (``session_meta``) names the cwd it started in and whether the session
was interactive (worker/rollout.py), and each turn's ``turn_context`` the cwd it ran in: the last one
is the session's folder (a session resumed from another folder works there, as its hooks are told).
Both agents' sessions are looked through together: the newest interactive one of
the repository is taken, whichever agent ran it.
"""

from __future__ import annotations

import os
import re

from lazy_harness import paths
from lazy_harness.project_identity import project_root
from lazy_harness.regular_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

SUFFIX = ".jsonl"
# a whole session id as Claude Code and Codex CLI give it (a UUID)
WHOLE_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\Z", re.IGNORECASE)
# rollout-2026-11-28T23-58-47-<session id>.jsonl
ROLLOUT_NAME = re.compile(r"rollout-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-(.+)\.jsonl\Z")
TAIL_BYTES = 16 << 20  # how far back from a rollout's end its last turn_context is looked for


def all_transcripts(env: Mapping[str, str] | None = None) -> list[tuple[float, str]]:
    """(mtime, path) of every session transcript (sub-agent files live deeper and are left out)."""
    projects = paths.projects_dir(env)
    found: list[tuple[float, str]] = []
    try:
        keys = os.listdir(projects)
    except OSError:
        return found
    for key in keys:
        folder = os.path.join(projects, key)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.name.endswith(SUFFIX):
                try:
                    if entry.is_file():
                        found.append((entry.stat().st_mtime, entry.path))
                except OSError:
                    pass
    return found


def all_rollouts(env: Mapping[str, str] | None = None) -> list[tuple[float, str]]:
    """(mtime, path) of every Codex CLI rollout under ``$CODEX_HOME/sessions`` (its date folders)."""
    from lazy_harness.worker import rollout

    found: list[tuple[float, str]] = []
    for folder, dirs, files in os.walk(rollout.sessions_dir(env)):  # why walk: YYYY/MM/DD, not followed links
        dirs.sort()
        for name in files:
            if ROLLOUT_NAME.match(name):
                path = os.path.join(folder, name)
                try:
                    found.append((os.stat(path).st_mtime, path))
                except OSError:
                    pass
    return found


def all_sessions(env: Mapping[str, str] | None = None) -> list[tuple[float, str]]:
    """(mtime, path) of every session of either agent: Claude Code transcripts and Codex rollouts."""
    return all_transcripts(env) + all_rollouts(env)


def where(env: Mapping[str, str] | None = None) -> str:
    """The folders looked through, for a message."""
    from lazy_harness.worker import rollout

    return f"{paths.projects_dir(env)} or {rollout.sessions_dir(env)}"


def match_sessions(ident: str, env: Mapping[str, str] | None = None) -> list[str]:
    """Sessions (of either agent) whose id is ``ident`` or starts with it (the 8-character short ids of
    task names); an exact id wins over prefixes."""
    paths_of: dict[str, list[str]] = {}
    for _, path in all_sessions(env):
        paths_of.setdefault(session_id_of(path), []).append(path)
    if ident.strip() in paths_of:  # why: a whole id names one session, also when a copy lies elsewhere
        return paths_of[ident.strip()][:1]
    return sorted(p for sid in pick(ident, paths_of) for p in paths_of[sid])


def pick(ident: str, known: Iterable[str]) -> list[str]:
    """The session ids of ``known`` that ``ident`` names, sorted: itself when it is one (an exact id
    wins over prefixes), else every id it starts; none for a blank ``ident``."""
    ident = ident.strip()
    if not ident:
        return []
    known = set(known)
    return [ident] if ident in known else sorted(k for k in known if k.startswith(ident))


def recorded_sessions(env: Mapping[str, str] | None) -> set[str]:
    """The sessions this machine keeps prompt-recall state for: what SessionStart or the prompt hook
    showed them (``already_shown``), and a fork's lineage (``lineage``), both in the state folder."""
    from lazy_harness.memory import lineage
    from lazy_harness.recall.prompt import already_shown

    try:
        names = os.listdir(paths.state_dir(env))
    except OSError:
        return set()
    return {name[: -len(suffix)] for name in names for suffix in (already_shown.SUFFIX, lineage.SUFFIX)
            if name.endswith(suffix) and len(name) > len(suffix)}


def knows_whole(sid: str, env: Mapping[str, str] | None) -> bool:
    """Whether this machine holds anything for the whole session id ``sid``: its recall state (a
    ``.shown`` or ``.lineage`` file), a Claude Code transcript (one stat per projects subfolder) or a
    Codex rollout (the names in its date folders). Nothing is read."""
    from lazy_harness.memory import lineage
    from lazy_harness.recall.prompt import already_shown
    from lazy_harness.worker import rollout

    if any(os.path.isfile(state(env, sid)) for state in (already_shown.state_file, lineage.state_file)):
        return True
    projects, name = paths.projects_dir(env), sid + SUFFIX
    try:
        keys = os.listdir(projects)
    except OSError:
        keys = []
    if any(os.path.isfile(os.path.join(projects, key, name)) for key in keys):
        return True
    for folder, _dirs, files in os.walk(rollout.sessions_dir(env)):  # why walk: YYYY/MM/DD, as all_rollouts
        for file in files:
            named = ROLLOUT_NAME.match(file) if file.endswith(name) else None
            if named and named.group(1) == sid and os.path.isfile(os.path.join(folder, file)):
                return True
    return False


def resolve(ident: str, env: Mapping[str, str] | None) -> tuple[str, str | None]:
    """``(the whole session id, None)`` for a session this machine knows (its recall state, its
    transcript or rollout) by its whole id or a unique prefix; else ``("", the one-line reason, naming
    ident)``. A whole id is looked up by name alone (:func:`knows_whole`); a session with a transcript
    and no recall state yet is one shown nothing yet."""
    whole = ident.strip()
    if WHOLE_ID.match(whole) and knows_whole(whole, env):
        return whole, None  # why: an exact id wins over prefixes, so no listing of every session
    hits = pick(ident, recorded_sessions(env) | {session_id_of(p) for _, p in all_sessions(env)})
    if len(hits) == 1:
        return hits[0], None
    if not hits and WHOLE_ID.match(whole):
        return "", (f"no session {whole!r} on this machine: no recall state in {paths.state_dir(env)}, no "
                    f"transcript under {where(env)} (give its id as in hooks.log)")
    if not hits:
        return "", f"no session {ident!r} on this machine (give its id as in hooks.log)"
    listed = ", ".join(hits[:10]) + (f" and {len(hits) - 10} more" if len(hits) > 10 else "")
    return "", f"{len(hits)} sessions start with {ident!r}: {listed}; give more of the id"


def session_id_of(path: str) -> str:
    name = os.path.basename(path)
    rollout = ROLLOUT_NAME.match(name)
    if rollout:
        return rollout.group(1)
    return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name


def is_rollout(path: str) -> bool:
    """Whether ``path`` is a Codex rollout (it starts with a ``session_meta`` record), not a Claude Code
    transcript."""
    from lazy_harness.worker import rollout

    return rollout.session_meta(path) is not None


def session_kind(path: str) -> str:
    """``interactive``, ``headless``, ... as the worker will judge the session (a prefix is read)."""
    from lazy_harness.worker import rollout, transcript

    meta = rollout.session_meta(path)
    return rollout.sniff_kind(path) if meta is not None else transcript.sniff_kind(path)


def newest_interactive(cwd: str, env: Mapping[str, str] | None = None) -> tuple[str | None, list[tuple[str, str]]]:
    """The newest interactive session (of either agent) of the repository holding ``cwd`` (any
    worktree, any subfolder), or None; and the newer ones passed over as [(path, kind)]."""
    root = project_root(cwd)
    roots: dict[str, str] = {}
    skipped: list[tuple[str, str]] = []
    for _, path in sorted(all_sessions(env), reverse=True):
        ran_in = session_cwd(path)
        if not ran_in:
            continue
        if ran_in not in roots:
            roots[ran_in] = project_root(ran_in)
        if roots[ran_in] != root:
            continue
        kind = session_kind(path)
        if kind == "interactive":
            return path, skipped
        skipped.append((path, kind))
    return None, skipped


def session_cwd(path: str, max_records: int = 200) -> str | None:
    """The working folder a session records: a rollout's last ``turn_context`` cwd (else its
    ``session_meta`` one), a transcript's first ``cwd`` among its first records."""
    import json

    from lazy_harness.worker import rollout
    from lazy_harness.worker.transcript import iter_lines

    meta = rollout.session_meta(path)
    if meta is not None:
        cwd = last_turn_cwd(path) or meta.get("cwd")
        return cwd if isinstance(cwd, str) and cwd else None

    try:
        with open(open_regular(path)[0], "rb") as fh:  # why: a FIFO held it in open()
            for n, line in enumerate(iter_lines(fh, 1 << 20)):
                if n >= max_records:
                    break
                if not line or b'"cwd"' not in line:
                    continue
                try:
                    cwd = json.loads(line).get("cwd")
                except (ValueError, AttributeError, RecursionError):
                    continue
                if isinstance(cwd, str) and cwd:
                    return cwd
    except OSError:
        return None
    return None


def last_turn_cwd(path: str, limit: int = TAIL_BYTES, block: int = 1 << 16) -> str | None:
    """The cwd of the last ``turn_context`` record of the rollout at ``path`` (Codex writes one per
    turn), looked for in its last ``limit`` bytes; None when there is none there.
    why the last and not ``session_meta``'s: a session resumed from another folder (``codex exec
    resume`` run there, the TUI's resume with "Use current directory") works in that folder from then
    on, its hooks get it as their cwd and their tasks go to its memory; ``session_meta`` keeps the
    folder it started in."""
    import json

    try:
        with open(open_regular(path)[0], "rb") as fh:  # why: a FIFO held it in open()
            end = pos = fh.seek(0, os.SEEK_END)
            rest: list[bytes] = []  # why pieces, joined once the line is whole: a long line costs once
            while pos > 0 and end - pos < limit:
                step = min(block, pos, limit - (end - pos))
                pos -= step
                fh.seek(pos)
                chunk = fh.read(step)
                if pos > 0 and b"\n" not in chunk:
                    rest.append(chunk)
                    continue
                lines = (chunk + b"".join(reversed(rest))).split(b"\n")
                rest = [lines.pop(0)] if pos > 0 else []  # why: the first piece may be the tail of a longer line
                for line in reversed(lines):
                    if b'"turn_context"' not in line:
                        continue
                    try:
                        record = json.loads(line)
                    except (ValueError, RecursionError):
                        continue  # a line being written, or damaged
                    if not isinstance(record, dict) or record.get("type") != "turn_context":
                        continue
                    payload = record.get("payload")
                    if isinstance(payload, dict):
                        cwd = payload.get("cwd")
                        if isinstance(cwd, str) and cwd:
                            return cwd
    except OSError:
        return None
    return None
