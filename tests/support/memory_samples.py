"""Project memory in the shared formats, for the read-back tests and benchmarks/bench_session_start.py.

Records are written straight to disk (no lock, no fsync) so a memory of 10,000 decisions, 5,000
failures and 3,000 learnings takes about a second to make. Learning frontmatter goes through
``yaml.safe_dump`` with the store's options, so readers are tested against the real output.
"""

import json
import os

import yaml

from lazy_harness import logfile, paths
from lazy_harness.memory import files

DAY = 86400.0
# why: the C dumper is ten times faster for 3,000 learnings; the store (and so the reader tests) use
# the pure one, whose output can differ in corner cases
FAST_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def iso(t: float) -> str:
    return logfile.stamp(t)


def make_project(parent: str, name: str = "proj", branch: str | None = "main") -> str:
    """A project folder holding a ``.git`` dir whose HEAD names ``branch`` (None: detached)."""
    root = os.path.join(str(parent), name)
    os.makedirs(os.path.join(root, ".git"), exist_ok=True)
    head = f"ref: refs/heads/{branch}\n" if branch else "0123456789abcdef0123456789abcdef01234567\n"
    with open(os.path.join(root, ".git", "HEAD"), "w", encoding="utf-8") as fh:
        fh.write(head)
    return root


def decision(ts: float, summary: str, rationale: str = "", project: str = "proj", **extra) -> dict:
    rec = {"ts": iso(ts), "type": "decision", "project": project, "session_id": "s-1", "task_id": "t-1",
           "summary": summary, "context": extra.pop("context", ""), "alternatives": extra.pop("alternatives", []),
           "rationale": rationale, "tags": extra.pop("tags", [])}
    rec.update(extra)
    return rec


def failure(ts: float, summary: str, prevention: str = "", project: str = "proj", **extra) -> dict:
    rec = {"ts": iso(ts), "type": "failure", "project": project, "session_id": "s-1", "task_id": "t-1",
           "summary": summary, "root_cause": extra.pop("root_cause", ""),
           "resolution": extra.pop("resolution", ""), "prevention": prevention, "tags": extra.pop("tags", [])}
    rec.update(extra)
    return rec


def write_jsonl(path: str, records: list[dict]) -> None:
    """Append ``records`` as JSON lines (oldest first, like the store)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))


def write_handoff(memory_dir: str, items: list[str], session_id: str, written: float,
                  project: str = "proj", task_id: str = "1700000000000000000-abcd1234") -> str:
    stamp = iso(written)
    body = (f"# Open items for the next session\n"
            f"<!-- lazy-harness handoff session={session_id} task={task_id} written={stamp} project={project} -->\n\n"
            f"Written {stamp} at the end of session {session_id}.\n\n"
            + "".join(f"- {item}\n" for item in items))
    os.makedirs(memory_dir, exist_ok=True)
    path = os.path.join(memory_dir, files.HANDOFF)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(body)
    return path


def frontmatter(title: str, origin: str, created: float, tags=(), scope: str = "general",
                status: str = "active", deprecated_by=None, fast: bool = False, cues=None,
                project_folder: str | None = None, **extra) -> str:
    """``extra``: more fields, such as ``deprecated_reason="approved by hand"`` (the person approved it)."""
    meta = {"title": title, "origin": origin, "origin_session": "s-1", "created": iso(created),
            "tags": list(tags), "scope": scope, "status": status, "deprecated_by": deprecated_by,
            "deprecated_on": None, "deprecated_reason": None}
    if project_folder:  # what the store records now (memory/provenance.py): the project's memory key
        meta["project_folder"] = project_folder
    if cues:
        meta["cues"] = list(cues)
    meta.update(extra)
    dumper = FAST_DUMPER if fast else yaml.SafeDumper
    return "---\n" + yaml.dump(meta, Dumper=dumper, sort_keys=False, width=10**9, allow_unicode=True) + "---\n"


def write_learning(learnings_dir: str, title: str, origin: str, created: float, learning: str = "",
                   context: str = "", slug: str | None = None, **meta) -> str:
    """One learning file at ``<learnings>/YYYY-MM/YYYY-MM-DD-<slug>.md``; returns its path."""
    day = iso(created)[:10]
    slug = slug or "".join(c if c.isalnum() else "-" for c in title.lower()).strip("-")[:60]
    folder = os.path.join(learnings_dir, day[:7])
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{day}-{slug}.md")
    text = (frontmatter(title, origin, created, **meta)
            + f"\n## Learning\n\n{learning or title + ' explained.'}\n\n"
            f"## Context\n\n{context or 'Where it applies.'}\n")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


def build_large(project_dir: str, env, now: float, decisions: int = 10_000, failures: int = 5_000,
                learnings: int = 3_000, days: int = 365, name: str = "proj", mention: str = "",
                every: int = 10) -> dict:
    """A memory as large as the read-back issue's: spread over ``days`` before ``now``, newest last.
    With ``mention``, every ``every``-th decision and failure also names it (a word many entries
    share, as a real memory's common words are).

    Returns the newest decision summary, failure prevention and the oldest decision summary.
    """
    mem = paths.memory_dir(project_dir, env)
    span = days * DAY

    def about(i: int) -> str:
        return f", for the {mention}" if mention and i % every == 0 else ""

    write_jsonl(os.path.join(mem, files.DECISIONS),
                [decision(now - span + span * i / decisions, f"decision number {i}",
                          f"rationale for decision {i}{about(i)}", project=name, tags=["bench"])
                 for i in range(decisions)])
    write_jsonl(os.path.join(mem, files.FAILURES),
                [failure(now - span + span * i / failures, f"failure number {i}",
                         f"prevention for failure {i}{about(i)}", project=name, root_cause="a cause")
                 for i in range(failures)])
    ldir = paths.learnings_dir(None, env)
    origins = (name, "other-project", "third-project")
    for i in range(learnings):
        write_learning(ldir, f"learning number {i}", origins[i % 3], now - span + span * i / learnings,
                       learning=f"What learning {i} says, in a sentence or two.", slug=f"learning-{i}", fast=True)
    write_handoff(mem, ["finish the read-back docs", "run the benchmark again"], "sess-large", now - 3600,
                  project=name)
    return {"newest_decision": f"decision number {decisions - 1}",
            "newest_prevention": f"prevention for failure {failures - 1}",
            "oldest_decision": "decision number 0", "memory_dir": mem, "learnings_dir": ldir}


def index_now(configured: str | None = None) -> None:
    """Bring the recall index up to date with every project's memory and the learnings, as the worker
    (the index's writer) does after it writes; the hooks only read the index (ADR 0042)."""
    from lazy_harness import paths
    from lazy_harness.recall.index import writer

    writer.update(paths.recall_index_file(), paths.all_memory_dirs(None, configured), paths.learnings_dir(),
                  waiting=lambda entries: None)


def vector_counts(conn, model_id: str) -> tuple[int, int]:
    """(texts with a vector of ``model_id``, texts in all) in an index."""
    total = conn.execute("SELECT count(DISTINCT key) FROM key").fetchone()[0]
    have = conn.execute("SELECT count(*) FROM vec WHERE model = ? AND length(v) > 0 AND key IN (SELECT key FROM key)",
                        (model_id,)).fetchone()[0]
    return have, total
