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
