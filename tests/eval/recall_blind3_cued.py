"""The third blind precision set with the cues the distill prompt asks for (``recall_blind3.CUED``);
the same prompts.

    python -m tests.eval.recall_eval --set tests.eval.recall_blind3_cued
"""

from tests.eval.recall_blind3 import CUED, PROJECTS, PROMPTS  # noqa: F401  (the set's interface)

ENTRIES = CUED
