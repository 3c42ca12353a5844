"""The evaluation set with the tags and the cues the distill model is asked to write.

The distill prompt asks, for every decision, failure and learning, for tags (``recall_set_tagged``)
and for 2 to 4 *cues*: short requests or questions a developer might type months later when the
entry should come back, in the words of the goal or the symptom rather than the summary's
(``worker/prompt.py``). ``recall_cues`` holds such cues for the entries of ``recall_set``, written by
following that rule entry by entry, from the entries alone, without access to any prompt of the
evaluation; filler entries get their template's cues with the component's name filled in. They pass
through the answer validator as a model's cues would. Handoff items carry neither.

    python -m tests.eval.recall_eval --set tests.eval.recall_set_cued
"""

from tests.eval import recall_cues, recall_set, recall_set_tagged
from tests.eval.recall_set import HELDOUT, PROJECTS, PROMPTS  # noqa: F401  (the set's interface)


def raw_cues(key: str) -> list[str]:
    """The cues written for the entry ``key`` (a filler entry: its template's, filled in)."""
    if not key.startswith("x-"):
        return list(recall_cues.TARGETS.get(key, []))
    _, component, kind, index = recall_set.filler_template(key)
    if kind == "h":
        return []
    template = {"d": recall_cues.DECISION_TEMPLATES, "f": recall_cues.FAILURE_TEMPLATES,
                "l": recall_cues.LEARNING_TEMPLATES}[kind][index]
    return [c.format(c=component) for c in template]


def written_cues(e: dict) -> list[str]:
    """The cues of ``e`` as the validator stores them; [] for handoff items."""
    return [] if e["kind"] == "handoff" else recall_set_tagged.validated(e, "cues", raw_cues(e["key"]))


ENTRIES = [{**e, "cues": written_cues(e)} if e["kind"] != "handoff" else dict(e) for e in recall_set_tagged.ENTRIES]
