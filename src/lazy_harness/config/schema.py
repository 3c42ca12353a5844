"""The keys of config.toml (type, default and meaning of each) and the bounds a value must keep.

Hot path: hooks load it with :mod:`lazy_harness.config` after every turn, so it imports nothing
(the typed view, :mod:`lazy_harness.config.typed`, only for mypy).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config

# (type, default, meaning). Types: bool, int, num (an int or a float), str, list (of strings).
SCHEMA: dict[str, dict[str, tuple[str, object, str]]] = {
    "compound_loop": {
        "enabled": ("bool", False, "master switch: distill finished sessions into memory"),
        "model": ("str", "claude-haiku-4-5", "model the worker asks to distill a session"),
        "claude_path": ("str", "claude", "the claude executable (a name on PATH or an absolute path)"),
        "min_messages": ("int", 4, "skip sessions with fewer user + assistant messages"),
        "min_user_chars": ("int", 200, "skip sessions where the user typed fewer characters"),
        "debounce_seconds": ("int", 60, "Stop: skip when this session's task, waiting or being distilled, is younger"),
        "reprocess_min_growth_seconds": ("int", 120, "Stop: re-queue only when the transcript grew this long "
                                                     "past the last run"),
        "idle_minutes": ("int", 10, "queue a session idle this long that grew since its last check (0: never)"),
        "timeout_seconds": ("int", 120, "limit for one model call"),
        "max_attempts": ("int", 3, "model calls per task before it goes to failed/"),
        "retry_backoff_seconds": ("int", 2, "wait before the 2nd model call; doubled before each later one"),
        "wait_seconds": ("int", 60, "a task whose call found the API unreachable, or whose write found no "
                                    "room, is tried again after this; doubled per wait up to an hour"),
        "linger_minutes": ("int", 30, "the worker stays this long for waiting tasks and tries them again by "
                                      "itself (0: it leaves; the next hook starts one)"),
        "transcript_budget_chars": ("int", 100_000, "characters of conversation put in the prompt (head and "
                                                    "tail kept)"),
        "prompt_max_chars": ("int", 120_000, "hard cap on the whole prompt"),
        "redact_patterns": ("list", [], "extra regular expressions whose matches are redacted"),
    },
    "knowledge": {
        "path": ("str", "", "knowledge folder (learnings/ under it; ~, $VARS, relative to this file's "
                            "folder); empty: $XDG_DATA_HOME/lazy-harness/knowledge"),
    },
    "memory": {
        "path": ("str", "", "folder of every project's memory (<path>/<project key>/; resolved like "
                            "knowledge.path); empty: $XDG_DATA_HOME/lazy-harness/projects"),
    },
    "context": {
        "enabled": ("bool", True, "SessionStart: read memory back into new sessions"),
        "max_chars": ("int", 6000, "SessionStart: characters of context at most (capped at 9,500)"),
        "decisions": ("int", 8, "SessionStart: most recent decisions shown"),
        "failures": ("int", 5, "SessionStart: most recent failure preventions shown"),
        "learnings": ("int", 6, "SessionStart: learnings shown"),
    },
    "recall": {
        "enabled": ("bool", True, "UserPromptSubmit: add the memory entries that match each typed prompt"),
        "max_chars": ("int", 1500, "characters added to one prompt at most (capped at 4,000; at least 820, "
                                   "room for the header and one entry: a smaller value is raised to it)"),
        "max_items": ("int", 5, "entries added to one prompt at most"),
        "min_prompt_chars": ("int", 20, "prompts shorter than this get nothing"),
        "min_terms": ("int", 2, "the bar without similarity (semantic = false, or an entry not embedded yet): "
                                  "informative prompt words an entry must match"),
        "min_score": ("num", 2.4, "the bar without similarity: match strength an entry must reach (BM25, scaled; "
                                   "docs/how/recall.md)"),
        "min_coverage": ("int", 0, "the bar without similarity, optional: percent of the prompt's word weight an "
                                     "entry must match"),
        "semantic": ("bool", True, "judge candidates by sentence similarity (the static model shipped with "
                                   "lazy-harness); words alone otherwise"),
        "resident_minutes": ("num", 30, "a memory of 3,000 entries or more is answered by a resident process, "
                                        "which leaves after this many idle minutes; 0: every prompt does the work "
                                        "itself"),
        "min_similarity": ("num", 0.53, "the bar with similarity (the default; the one to tune): cosine similarity "
                                        "plus 0.04 x strength (at most 4) plus 0.2 x coverage an entry must reach "
                                        "(ADR 0034)"),
    },
    "sync": {
        "remote": ("str", "", "git URL or path that carries memory between machines (lh sync); empty: no sync"),
        "auto": ("bool", True, "with a remote: the worker syncs after it writes memory, SessionStart pulls"),
        "interval_minutes": ("int", 5, "automatic syncs and pulls at most this often"),
        "pull_budget_ms": ("int", 1500,
            "SessionStart waits at most this long for a pull, then goes on without it (capped at 8,000)"),
    },
    # usage feedback (docs/how/usage.md, ADR 0036)
    "usage": {
        "unused_after": ("int", 5, "an entry shown in this many sessions and never used ranks below the others "
                                   "where the budget is short (0: usage changes no order)"),
    },
    "handoff": {
        "stale_days": ("int", 14, "open items older than this many days are marked stale (never dropped)"),
    },
    # spend cap (docs/how/cost.md, ADR 0013): tasks wait in the queue once a cap is reached
    "budget": {
        "daily_usd": ("num", 5.0, "model spend per local day, in US dollars; 0 stops every model call"),
        "monthly_usd": ("num", 50.0, "model spend per calendar month, in US dollars"),
    },
    # who sees what a session wrote (docs/how/read-back.md, ADR 0032)
    "trust": {
        "cross_projects": ("str", "ask", "a general learning a session wrote reaches other projects' sessions: "
                                         "\"ask\" once the person approved it (lh memory held), \"auto\" at once; "
                                         "the hold check applies either way"),
        "learned_check": ("bool", True, "beside the hold rules, a small model shipped with lazy-harness scores "
                                        "the entries a session wrote; those that read like an instruction to "
                                        "the agent are held (local, no model call)"),
        "model_check": ("bool", True, "after the rule hold, a separate model call judges the entries a session "
                                      "wrote, shown as quoted data; those it calls hostile are held (within the "
                                      "spend cap: skipped when it is reached)"),
        "model_check_model": ("str", "", "model of that call; empty: compound_loop.model"),
    },
    # which CLI runs the worker's model calls (docs/how/codex.md, ADR 0044)
    "worker": {
        "distiller": ("str", "auto", "who runs the worker's model calls (distillation, the model check, "
                                     "consolidation): \"claude\" (claude -p), \"codex\" (codex exec), \"auto\": "
                                     "claude when it is installed, else codex"),
        "codex_path": ("str", "codex", "the codex executable (a name on PATH or an absolute path)"),
        "codex_model": ("str", "", "model codex exec is asked for; empty: the one Codex's own config names"),
        "codex_input_usd_per_mtok": ("num", 0.0, "price of a million input tokens of codex_model, for the ledger "
                                                 "and the spend cap; 0 for both: unpriced, counted at a high "
                                                 "default price ($2.50 in, $15 out) so the cap still stops"),
        "codex_output_usd_per_mtok": ("num", 0.0, "price of a million output tokens of codex_model"),
    },
    "consolidate": {
        "enabled": ("bool", True, "after draining the queue, let the worker consolidate a project's memory "
                                  "when the gates pass"),
        "min_hours": ("int", 24, "gate: hours since the project's last consolidation"),
        "min_sessions": ("int", 5, "gate: sessions that wrote decisions, failures or handoff items since the "
                                   "last consolidation (learnings do not count)"),
        "scan_throttle_minutes": ("int", 10, "gate: count those sessions at most this often"),
        "lock_stale_minutes": ("int", 60, "a consolidation lock older than this is taken over"),
        "max_changes": ("int", 20, "changes one consolidation may make at most"),
    },
}

PATH_KEYS = ("knowledge.path", "memory.path")  # folders: ~, $VARS, relative to the config file's folder
# executables run as written (the worker's argv[0], shutil.which for "auto"): a name looked up on PATH,
# or an absolute path. why: ~ and a relative path are never expanded there; lh doctor expanded ~ and said ok
COMMAND_KEYS = ("compound_loop.claude_path", "worker.codex_path")
# a smaller value is an error; by key, or by section.key where one key name is in two sections. why
# context.max_chars: under 1,000 SessionStart's header and footer leave no room for one item
MINIMUMS = {"wait_seconds": 1, "max_changes": 1, "lock_stale_minutes": 1, "timeout_seconds": 1, "max_attempts": 1,
            "transcript_budget_chars": 1000, "prompt_max_chars": 8000, "context.max_chars": 1000}
# a value outside these (inclusive) is an error: a cosine similarity is at most 1, a percent 100
RANGES = {"recall.min_similarity": (0, 1), "recall.min_coverage": (0, 100)}
# a value outside these is an error
CHOICES = {"trust.cross_projects": ("ask", "auto"), "worker.distiller": ("auto", "claude", "codex")}
# keys of earlier versions: a warning says why they do nothing now, instead of "unknown key"
RETIRED = {"recall.semantic_timeout_ms": "no longer used: there is no embedder process to wait for (ADR 0025)",
           "recall.semantic_idle_minutes": "no longer used: there is no embedder process (ADR 0025)"}
CONTEXT_HARD_CAP = 9500
RECALL_HARD_CAP = 4000  # why: well under the 10,000 characters Claude Code accepts, since this comes at every prompt
# why: SessionStart has 10 s (settings.EVENTS) before Claude Code or Codex stops it, and then prints
# nothing: a longer wait for a pull would cost the whole read-back
PULL_BUDGET_CAP_MS = 8000
CAPS = {"context.max_chars": CONTEXT_HARD_CAP, "recall.max_chars": RECALL_HARD_CAP,
        "sync.pull_budget_ms": PULL_BUDGET_CAP_MS}  # a larger value is cut to these
# a smaller value is raised to these, with a warning. why recall.max_chars 820: the prompt's header
# holds at most 738 (the fence, and its two folders cut to 600: recall/prompt/rank.py heading), and
# the first entry is cut to no less than 80 (rank.render); under that, no prompt gets anything
FLOORS = {"recall.max_chars": 820}
# why: no key means anything past a billion (seconds, characters, dollars), and a larger value, like
# 1e400 (inf) or 10**23, overflows where it meets a float or a clock: a sleep, a timeout, a JSON total
NUMBER_MAX = 1_000_000_000


def default_tables() -> dict[str, dict[str, object]]:
    """Every table of the schema with its defaults, as plain dicts (``config.check`` fills them in)."""
    return {sec: {k: (list(v[1]) if isinstance(v[1], list) else v[1]) for k, v in keys.items()}
            for sec, keys in SCHEMA.items()}


def as_config(tables: dict[str, dict[str, object]]) -> Config:
    """``tables`` (every table of the schema, each value of its key's type) seen as the typed view."""
    # the one place the checked tables become :class:`~lazy_harness.config.typed.Config`:
    # tests/test_config_typed.py proves the TypedDicts say what SCHEMA says, check() the values
    return tables  # type: ignore[return-value]  # why: a dict built from SCHEMA at run time


def defaults() -> Config:
    return as_config(default_tables())
