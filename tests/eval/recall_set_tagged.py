"""The evaluation set with the tags the distill model is asked to write.

In the product every decision, failure and learning comes from the distill prompt, whose rule asks
for "3 to 10 short lowercase words a developer might type months later when this matters again, in
other words than the summary" (``worker/prompt.py``). The hand-written entries of ``recall_set``
carry one tag or none, so they measure recall on memory the product never writes. This module gives
the same entries the tags of ``recall_tags``: written by following that rule, entry by entry, from
the entries alone, without access to any prompt of the evaluation (development, held-out or outside
the repository). They pass through the answer validator (``worker.answer.validate``) as a model's
tags would. Handoff items carry no tags in the product and get none here.

Everything else (keys, prompts, projects, the held-out part) is ``recall_set``'s:

    python -m tests.eval.recall_eval --set tests.eval.recall_set_tagged
"""

from lazy_harness.worker import answer
from tests.eval import recall_set, recall_tags
from tests.eval.recall_set import HELDOUT, PROJECTS, PROMPTS  # noqa: F401  (the set's interface)

SECTION = {"decision": "decisions", "failure": "failures", "learning": "learnings"}


def validated(e: dict, field: str, raw: list[str]) -> list[str]:
    """``raw`` as the answer validator keeps it in ``field`` of the entry ``e``, as a model's would be."""
    fields = {k: v for k, v in e.items() if k not in ("key", "kind", "project", "origin")}
    fields[field] = raw
    kept, _ = answer.validate({SECTION[e["kind"]]: [fields]})
    return kept[SECTION[e["kind"]]][0].get(field, [])


def written_tags(e: dict) -> list[str]:
    """The tags of ``e`` as the validator stores them; [] for handoff items."""
    return [] if e["kind"] == "handoff" else validated(e, "tags", recall_tags.tags_for(e["key"]))


ENTRIES = [{**e, "tags": written_tags(e)} if e["kind"] != "handoff" else dict(e) for e in recall_set.ENTRIES]
