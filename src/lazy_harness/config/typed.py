"""The typed view of config.toml: one TypedDict per table of :data:`~lazy_harness.config.schema.SCHEMA`
and :class:`Config` for the whole file, the shape :func:`lazy_harness.config.load` and
:func:`~lazy_harness.config.load_fast` return.

For mypy only: a reader imports these names under ``if TYPE_CHECKING:`` (with
``from __future__ import annotations``), so the hooks never import this module, nor ``typing``,
at run time (house style §3). At run time a config is the plain dict the loaders build; nothing
here checks a value (``config.validate`` does). tests/config/test_typed.py proves every table and
key of the schema has its field here, with the matching type, and nothing more (ADR 0048).

Schema types: ``bool``, ``int`` and ``str`` as named, ``num`` (an int or a float) as ``float``,
``list`` (of strings) as ``list[str]``.
"""

from typing import NotRequired, TypedDict


class CompoundLoopConfig(TypedDict):
    enabled: bool
    model: str
    claude_path: str
    min_messages: int
    min_user_chars: int
    debounce_seconds: int
    reprocess_min_growth_seconds: int
    idle_minutes: int
    timeout_seconds: int
    max_attempts: int
    retry_backoff_seconds: int
    wait_seconds: int
    linger_minutes: int
    transcript_budget_chars: int
    prompt_max_chars: int
    redact_patterns: list[str]


class KnowledgeConfig(TypedDict):
    path: str


class MemoryConfig(TypedDict):
    path: str


class ContextConfig(TypedDict):
    enabled: bool
    max_chars: int
    decisions: int
    failures: int
    learnings: int


class RecallConfig(TypedDict):
    enabled: bool
    max_chars: int
    max_items: int
    min_prompt_chars: int
    min_terms: int
    min_score: float
    min_coverage: int
    semantic: bool
    resident_minutes: float
    min_similarity: float


class SyncConfig(TypedDict):
    remote: str
    auto: bool
    interval_minutes: int
    pull_budget_ms: int


class UsageConfig(TypedDict):
    unused_after: int


class HandoffConfig(TypedDict):
    stale_days: int


class BudgetConfig(TypedDict):
    daily_usd: float
    monthly_usd: float


class TrustConfig(TypedDict):
    cross_projects: str
    learned_check: bool
    model_check: bool
    model_check_model: str


class WorkerConfig(TypedDict):
    distiller: str
    codex_path: str
    codex_model: str
    codex_input_usd_per_mtok: float
    codex_output_usd_per_mtok: float


class ConsolidateConfig(TypedDict):
    enabled: bool
    min_hours: int
    min_sessions: int
    scan_throttle_minutes: int
    lock_stale_minutes: int
    max_changes: int


class Config(TypedDict):
    """config.toml, every table filled in (a key the file lacks has its default)."""

    compound_loop: CompoundLoopConfig
    knowledge: KnowledgeConfig
    memory: MemoryConfig
    context: ContextConfig
    recall: RecallConfig
    sync: SyncConfig
    usage: UsageConfig
    handoff: HandoffConfig
    budget: BudgetConfig
    trust: TrustConfig
    worker: WorkerConfig
    consolidate: ConsolidateConfig
    # load_fast: the first problem of an invalid config.toml (config.INVALID; read it with config.invalid)
    _invalid: NotRequired[str]


__all__ = [
    "BudgetConfig", "CompoundLoopConfig", "Config", "ConsolidateConfig", "ContextConfig", "HandoffConfig",
    "KnowledgeConfig", "MemoryConfig", "RecallConfig", "SyncConfig", "TrustConfig", "UsageConfig", "WorkerConfig",
]
