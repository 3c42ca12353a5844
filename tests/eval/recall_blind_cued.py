"""The blind precision set with the cues the distill prompt asks for (``recall_blind.CUED``); the
same prompts and parts.

    python -m tests.eval.recall_eval --set tests.eval.recall_blind_cued
"""

from tests.eval.recall_blind import CUED, HELDOUT, PROJECTS, PROMPTS  # noqa: F401  (the set's interface)

ENTRIES = CUED
