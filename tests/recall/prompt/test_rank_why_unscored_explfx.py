"""``lh memory show --prompt`` on candidates the similarity bar never compared (``rank.worth_scoring``
left them out): their reason is the similarity bar's word rule that kept them out (1 word, 2 for
another project's general learning; everyday words alone never pass), not the strength bar's rule
for entries not embedded yet; and the header names the similarity bar when it ran."""

import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids
from lazy_harness.recall.prompt import rank
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
SETTINGS = {"min_terms": 2, "min_score": 2.4, "min_coverage": 0, "min_similarity": 0.53}
README = "Link the deploy runbook from the README"
GC = "GOMEMLIMIT makes the Go GC respect a container image limit"


def _cand(matched, kind="decision", origin="proj"):
    from lazy_harness.recall.index import terms

    return {"rowid": 7, "id": "d-00000007", "kind": kind, "origin": origin, "matched": list(matched),
            "anchors": [t for t in matched if not terms.generic(t)], "distinct": 1, "strength": 1.0,
            "coverage": 0.3, "passes": False, "similarity": None}


def test_a_candidate_not_compared_gets_the_similarity_bars_word_rule():
    everyday = _cand(["readme"])
    assert rank.why(everyday, SETTINGS, "proj", compared=set()) == \
        "only everyday words (readme), which never pass alone"
    elsewhere = _cand(["image"], kind="learning", origin="fleet")
    assert rank.worth_scoring([elsewhere], "proj") == []  # the rule that left it out: 2 words
    assert rank.why(elsewhere, SETTINGS, "proj", compared=set()) == "matches 1 of the 2 word groups it needs"


def test_a_compared_candidate_without_a_vector_keeps_the_strength_bars_wording():
    one = _cand(["kafka"])
    assert rank.worth_scoring([one], "proj") == [7]
    needs = f"matches 1 of the {SETTINGS['min_terms']} word groups it needs"
    assert rank.why(one, SETTINGS, "proj", compared={7}) == needs  # compared, but not embedded yet
    assert rank.why(one, SETTINGS, "proj") == needs  # the similarity bar off


def _memory(tmp_path) -> str:
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - ms.DAY, README, "people open the README first"),
        ms.decision(NOW, "Retry the Stripe webhook with backoff", "Stripe resends on a timeout")])
    ms.write_learning(paths.learnings_dir(), GC, "fleet", NOW - 2 * ms.DAY, scope="general",
                      learning="Set GOMEMLIMIT below the container limit so the Go GC runs before the kill.")
    ms.index_now()
    return root


def _row(out: str, eid: str) -> tuple[str, str]:
    lines = out.split("\n==== why", 1)[1].splitlines()
    n = next(n for n, line in enumerate(lines) if eid in line)
    return lines[n], lines[n + 1].strip()


def test_show_prompt_says_the_similarity_bars_rule_for_candidates_it_never_compared(tmp_path):
    root = _memory(tmp_path)
    # both entries have their vectors: a prompt that reaches them by a distinctive word shows a similarity
    for prompt, eid in (("who reads the deploy runbook", ids.entry_id("decision", README)),
                        ("GOMEMLIMIT and the Go GC", ids.learning_id("fleet", GC))):
        seen = invoke("memory", "show", "--project", root, "--prompt", prompt)
        assert seen.code == 0, seen.err
        assert _row(seen.out, eid)[0].split()[3] != "-", seen.out

    out = invoke("memory", "show", "--project", root, "--prompt", "translate the README introduction into Spanish")
    assert out.code == 0, out.err
    head, why = out.out.split("\n==== why", 1)
    assert "only everyday words with it (readme)" in head, head
    _, said = _row(out.out, ids.entry_id("decision", README))
    assert said == "out: only everyday words (readme), which never pass alone", out.out
    assert "semantic=0/0" not in why and "bar: similarity 0.53 and 1 term" in why, why

    image = invoke("memory", "show", "--project", root, "--prompt",
                   "the product image upload times out on the admin page")
    assert image.code == 0, image.err
    _, said = _row(image.out, ids.learning_id("fleet", GC))
    assert said == "out: matches 1 of the 2 word groups it needs", image.out
