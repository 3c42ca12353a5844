"""Finding Claude Code sessions for ``lh knowledge handoff-now`` and ``lh distill``.

Not a command group: the lookup those two commands share. It lives with them because nothing else
looks for a session by id or by folder (the hooks get the transcript path in their payload, the
worker in its task, the sweep keeps its own list), and it imports no click.

Claude Code keeps a session's transcript under ``<claude dir>/projects/<key of the cwd it was
started in>/<session id>.jsonl``. A repository's sessions may have started in its root, in a
subfolder or in another worktree, each with its own folder there, and the key cannot be turned
back into a path: the transcript's own ``cwd`` tells which repository a session belongs to
(:func:`project_identity.project_root` maps every worktree to the main one).
"""

from __future__ import annotations

import os

from lazy_harness import paths
from lazy_harness.project_identity import project_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

SUFFIX = ".jsonl"


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


def match_sessions(ident: str, env: Mapping[str, str] | None = None) -> list[str]:
    """Transcripts whose session id is ``ident`` or starts with it (the 8-character short ids of
    task names); an exact id wins over prefixes."""
    ident = ident.strip()
    if not ident:
        return []
    hits = []
    for _, path in all_transcripts(env):
        sid = os.path.basename(path)[: -len(SUFFIX)]
        if sid == ident:
            return [path]
        if sid.startswith(ident):
            hits.append(path)
    return sorted(hits)


def session_id_of(path: str) -> str:
    return os.path.basename(path)[: -len(SUFFIX)] if path.endswith(SUFFIX) else os.path.basename(path)


def newest_interactive(cwd: str, env: Mapping[str, str] | None = None) -> tuple[str | None, list[tuple[str, str]]]:
    """The newest interactive transcript of the repository holding ``cwd`` (any worktree, any
    subfolder), or None; and the newer ones passed over as [(path, kind)]."""
    from lazy_harness.worker import transcript

    root = project_root(cwd)
    roots: dict[str, str] = {}
    skipped: list[tuple[str, str]] = []
    for _, path in sorted(all_transcripts(env), reverse=True):
        where = session_cwd(path)
        if not where:
            continue
        if where not in roots:
            roots[where] = project_root(where)
        if roots[where] != root:
            continue
        kind = transcript.sniff_kind(path)
        if kind == "interactive":
            return path, skipped
        skipped.append((path, kind))
    return None, skipped


def session_cwd(path: str, max_records: int = 200) -> str | None:
    """The working folder a transcript records (the first ``cwd`` among its first records)."""
    import json

    from lazy_harness.worker.transcript import iter_lines

    try:
        with open(path, "rb") as fh:
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
