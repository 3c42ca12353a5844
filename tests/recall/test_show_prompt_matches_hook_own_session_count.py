"""``lh memory show --prompt --session ID`` says how many of that session's own entries the search left
out before the bar, as hooks.log does (``own_session=``), also when other candidates remain: the table
never lists them, so without the count an entry the person expects is missing without a word."""

import os
import time

from lazy_harness import paths
from lazy_harness.memory import files
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import hook_log, run_hook
from tests.support import memory_samples as ms

NOW = time.time()
S = "7c3b2a1d-5e4f-4a6b-9c8d-0e1f2a3b4c5d"
PROMPT = "the deploy scheduler ran twice last night, can we lock it in postgres"


def test_show_with_the_session_counts_its_own_entries_left_out_as_the_hook_log_does(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS), [
        ms.decision(NOW - 9 * ms.DAY, "Use Postgres advisory locks for the deployment scheduler",
                    "two runners deployed at once"),
        ms.decision(NOW - 2 * ms.DAY, "The deploy scheduler retries the postgres lock twice, then stops",
                    "a run waiting forever hid the first one's failure", session_id=S),
        *(ms.decision(NOW - 20 * ms.DAY, f"The {what} keeps its settings in one file", "simple")
          for what in ("stylesheet", "mailer", "wishlist", "admin panel"))])
    os.makedirs(os.path.dirname(paths.config_file()), exist_ok=True)
    with open(paths.config_file(), "w", encoding="utf-8") as fh:
        fh.write("[context]\nenabled = false\n[recall]\nsemantic = false\nresident_minutes = 0\n")
    ms.index_now()
    folder = os.path.join(paths.projects_dir(), "-proj")  # the running session's transcript
    os.makedirs(folder)
    with open(os.path.join(folder, S + ".jsonl"), "w", encoding="utf-8") as fh:
        fh.write("{}\n")
    out = invoke("memory", "show", "--project", root, "--prompt", PROMPT, "--session", S[:8])
    assert out.code == 0, out.err
    r = run_hook("UserPromptSubmit", {"session_id": S, "cwd": root, "hook_event_name": "UserPromptSubmit",
                                      "prompt": PROMPT})
    assert r.returncode == 0, r.stderr
    assert " own_session=1 " in hook_log(paths.claude_dir())[-1]
    why = next(line for line in out.out.splitlines() if line.startswith("==== why"))
    assert "1 of this session's own entries left out before the bar" in why, why
    # the others are still listed: the count is not only said when nothing remains
    assert "d-" in out.out.split("==== why", 1)[1]
    fresh = invoke("memory", "show", "--project", root, "--prompt", PROMPT)  # another session: none of its own
    assert "own entries left out" not in fresh.out, fresh.out
