"""The evaluation's own harness (tests/eval/recall_eval.py): a prompt the hook answered without the
resident answerer (no answer in time on a loaded machine, then the hook's back-off) is found in
hooks.log and asked again, so a busy machine does not lower what the evaluation measures."""

import os

from lazy_harness import paths
from tests.eval import recall_eval


def _log(env: dict, lines: list[str]) -> None:
    os.makedirs(paths.logs_dir(env), exist_ok=True)
    with open(os.path.join(paths.logs_dir(env), "hooks.log"), "w") as fh:
        fh.writelines(line + "\n" for line in lines)


def test_the_prompts_answered_without_the_answerer_are_found_by_number(tmp_path):
    env = {"HOME": str(tmp_path)}
    _log(env, [
        "2026-11-30T00:00:00+00:00 UserPromptSubmit session=eval-00-0003 terms=4 candidates=9 passed=1 "
        "resident=(no answer in time) (60.1 ms)",
        "2026-11-30T00:00:00+00:00 UserPromptSubmit session=eval-00-0004 terms=4 candidates=9 passed=0 "
        "resident=(not asked: backing off after one that did not answer) (9.0 ms)",
        "2026-11-30T00:00:00+00:00 UserPromptSubmit session=eval-00-0005 terms=4 candidates=9 passed=2 (9.0 ms)",
        "2026-11-30T00:00:00+00:00 UserPromptSubmit session=eval-01-0006 terms=4 candidates=9 passed=0 "
        "resident=(no answer in time) (60.1 ms)",
    ])
    assert recall_eval._logged_misses(env, "00") == {3, 4}
    assert not os.path.exists(os.path.join(paths.logs_dir(env), "hooks.log"))  # each round reads its own lines


def test_the_blind_judges_view_of_noise_counts_useful_and_clean_prompts_apart(monkeypatch):
    """``judged_noise``: a no-memory prompt the judge found an entry for is counted apart (given or not);
    noise is counted on the others; the entries injected for no-memory prompts are told useful or not."""
    import sys
    import types

    fake = types.ModuleType("tests.eval.judged_no_memory")
    fake.JUDGED = {"tests.eval.some_set": {("proj", "p1"): ["a"], ("proj", "p2"): [], ("proj", "p3"): ["b"],
                                           ("proj", "p4"): []}}
    monkeypatch.setitem(sys.modules, "tests.eval.judged_no_memory", fake)
    flat = [("dev", "proj", "labelled", ["x"]), ("dev", "proj", "p1", []), ("dev", "proj", "p2", []),
            ("dev", "proj", "p3", []), ("dev", "proj", "p4", [])]
    got = [["id-x"], ["id-a", "id-c"], ["id-c"], [], []]
    id_key = {"id-x": "x", "id-a": "a", "id-b": "b", "id-c": "c"}
    for name in ("tests.eval.some_set", "tests.eval.some_set_cued"):
        assert recall_eval.judged_noise(name, flat, got, id_key) == {
            "useful": 2, "given": 1, "clean": 2, "noisy": 1, "injected": 3, "wanted": 1}
    assert recall_eval.judged_noise("tests.eval.other_set", flat, got, id_key) is None
