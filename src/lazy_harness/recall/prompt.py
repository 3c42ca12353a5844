"""What one typed prompt gets from memory: the project's index brought up to date, the entries that
pass the bar and were not shown to this session yet, as one text within the budget.

Shared by the UserPromptSubmit hook and ``lh memory show --prompt`` (so what the command prints is
what the model gets).
"""

from lazy_harness import paths
from lazy_harness.config import RECALL_HARD_CAP
from lazy_harness.recall import index, select


def skip_reason(prompt, settings: dict) -> str | None:
    """Why this prompt gets nothing before any search, or None."""
    if not isinstance(prompt, str) or not prompt.strip():
        return "no prompt"
    text = prompt.strip()
    if text.startswith("/"):
        return "slash command"
    if len(text) < int(settings["min_prompt_chars"]):
        return f"prompt under {int(settings['min_prompt_chars'])} characters"
    return None


def where(cwd: str, cfg: dict, env) -> tuple[str, str, str]:
    """(memory folder, learnings folder, project name) of a session in ``cwd``."""
    return (paths.memory_dir(cwd, env, cfg["memory"]["path"] or None), paths.learnings_dir(cfg["knowledge"]["path"] or None, env),
            paths.project_name(cwd))


def context_for(prompt: str, cwd: str, cfg: dict, env, already: set[str] = frozenset(),
                deep: bool = False) -> tuple[str | None, dict]:
    """(the additionalContext or None, facts: terms, candidates, passed, kept items, indexed count);
    ``deep`` also looks at every learning file for edits in place (see ``index.refresh``)."""
    settings = cfg["recall"]
    mdir, ldir, project = where(cwd, cfg, env)
    path = paths.recall_index_file(env)
    for attempt in (1, 2):
        conn = index.connect(path)
        try:
            indexed = index.refresh(conn, [mdir], ldir, deep)
            where_sql, args = index.scope_sql([mdir], project)
            ranked, info = select.rank(conn, prompt, where_sql, args, settings, project=project)
            break
        except Exception as exc:
            if attempt == 2 or not index.damaged(exc):
                raise
        finally:
            conn.close()
        index.remove(path)  # only after a damaged index: a cache, built again from the files
    passed = [c for c in ranked if c["passes"]]
    fresh = [c for c in passed if c["id"] not in already][:max(0, int(settings["max_items"]))]
    budget = max(0, min(int(settings["max_chars"]), RECALL_HARD_CAP))
    text, kept = select.render(fresh, mdir, ldir, budget)
    info.update(indexed=indexed, ranked=ranked, passed=len(passed), already=len(passed) - len(
        [c for c in passed if c["id"] not in already]), kept=kept, chars=len(text or ""), max_chars=budget)
    return text, info


def describe(info: dict) -> str:
    """One hooks.log line: what was injected (ids) or why nothing was."""
    parts = [f"terms={len(info.get('terms', []))} candidates={info.get('candidates', 0)} passed={info.get('passed', 0)}"]
    if info.get("ranked"):  # the strongest candidate's strength: where recall.min_score would let it in
        parts.append(f"best={max(c['strength'] for c in info['ranked']):.2f}")
    if info.get("already"):
        parts.append(f"already_shown={info['already']}")
    if info.get("indexed"):
        parts.append(f"indexed={info['indexed']}")
    if info.get("kept"):
        parts.append(f"injected {len(info['kept'])} ({info['chars']}/{info['max_chars']} chars): "
                     + ",".join(c["id"] for c in info["kept"]))
    else:
        parts.append("nothing passed the bar" if not info.get("passed") else "nothing new")
    return " ".join(parts)
