"""Finding a project's transcripts for ``lh knowledge handoff-now`` and ``lh distill``.

Claude Code keeps a session's transcript under ``<claude dir>/projects/<key of the cwd it was
started in>/<session id>.jsonl``. A project's sessions may have started in its root or in a
subfolder, so both folders are searched; the newest interactive transcript wins.
"""

from __future__ import annotations

import os

from lazy_harness import paths


def transcript_folders(cwd: str, env=None) -> list[str]:
    projects = paths.projects_dir(env)
    keys = [paths.project_key(os.path.abspath(cwd)), paths.project_key(paths.project_root(cwd))]
    out = []
    for key in dict.fromkeys(keys):
        folder = os.path.join(projects, key)
        if os.path.isdir(folder):
            out.append(folder)
    return out


def candidates(cwd: str, env=None) -> list[str]:
    """Transcripts of the project, newest first."""
    found = []
    for folder in transcript_folders(cwd, env):
        for name in os.listdir(folder):
            if name.endswith(".jsonl"):
                path = os.path.join(folder, name)
                try:
                    found.append((os.stat(path).st_mtime, path))
                except OSError:
                    pass
    return [p for _, p in sorted(found, reverse=True)]


def find_session(session_id: str, cwd: str, env=None) -> str | None:
    """The transcript of ``session_id``: the project's folders first, then every project."""
    name = f"{session_id}.jsonl"
    for folder in transcript_folders(cwd, env):
        if os.path.isfile(os.path.join(folder, name)):
            return os.path.join(folder, name)
    projects = paths.projects_dir(env)
    try:
        for key in os.listdir(projects):
            path = os.path.join(projects, key, name)
            if os.path.isfile(path):
                return path
    except OSError:
        pass
    return None


def newest_interactive(cwd: str, env=None) -> tuple[str | None, list[tuple[str, str]]]:
    """(newest interactive transcript or None, [(skipped path, its kind)])."""
    from lazy_harness.worker import transcript

    skipped = []
    for path in candidates(cwd, env):
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
                except (ValueError, AttributeError):
                    continue
                if isinstance(cwd, str) and cwd:
                    return cwd
    except OSError:
        return None
    return None
