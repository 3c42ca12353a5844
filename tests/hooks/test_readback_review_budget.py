"""SessionStart's budget, met as a person with a short ``context.max_chars`` meets it: what the hook
counts as shown is what the text holds, and what it leaves out is said in the last line.

The fitting's second pass (each section's equal share) once took a section's first item that the
first pass had found no room for: the lines went past the budget, the last ones were cut to get
back under it, and the failure cut was still counted as shown (hooks.log, and prompt recall's
"already shown" list) with no "Left out for space" line."""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.recall.readback import digest
from tests.hooks.hookrun import hook_log, run_hook
from tests.support import memory_samples as ms

SID = "6a1f0e3c-7d2b-4c59-8e41-0f3a2b1c9d87"
NOW = time.time()


def _context(result) -> str:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]


def test_a_failure_with_no_room_is_left_out_and_counted_not_cut_after_being_counted_shown(
        isolated_home, tmp_path):
    project = ms.make_project(tmp_path, "demo")
    mem = paths.memory_dir(project)
    # one long open item takes most of a 1,000-character budget; the failure's line fits in its share
    # of the room (a half) but not in what the open item left
    ms.write_handoff(mem, ["migrate the ledger export " + "step by step " * 36], "sess-prev", NOW - 3600,
                     project="demo")
    ms.write_jsonl(os.path.join(mem, files.FAILURES),
                   [ms.failure(NOW - 7200, "the export cron reran and counted refunds twice",
                               "keep a run marker in the export", project="demo")])
    cfg = paths.config_file()
    os.makedirs(os.path.dirname(cfg))
    with open(cfg, "w") as fh:
        fh.write("[context]\nmax_chars = 1000\n")

    text = _context(run_hook("SessionStart", {"session_id": SID, "transcript_path": f"/nowhere/{SID}.jsonl",
                                              "cwd": project, "hook_event_name": "SessionStart",
                                              "source": "startup"}))

    assert digest.units(text) <= 1000
    line = hook_log(paths.claude_dir())[-1]
    if "counted refunds twice" in text:
        assert "failures 1 of 1" in line
    else:  # left out: said so to the session and in the log, never counted as shown
        assert "Left out for space: 1 failure" in text, text
        assert "failures 0 of 1" in line and "left_out failures=1" in line, line


def test_fit_never_goes_past_the_room_it_is_given():
    """``_fit`` alone: whatever the sections' sizes, the lines it returns fit the budget (the header
    here is short enough to fit), so ``fill`` never cuts an item it counted."""
    header = ["f" * 88, "# Memory of project x (lazy-harness)", "r" * 148]
    sections = [("handoff", ["", "## Open items"], ["- " + "a" * 608]),
                ("failures", ["", "## Recent failures"], ["- " + "b" * 207, "- " + "b" * 569]),
                ("decisions", ["", "## Recent decisions"], ["- " + "c" * 158]),
                ("learnings", [], [])]
    for budget in range(1000, 1400):
        lines, shown, left = digest._fit(header, sections, budget)
        assert sum(len(ln) + 1 for ln in lines) - 1 <= budget, (budget, shown)
        text, shown, left = digest.fill(header, sections, budget)
        for name, _, items in sections:
            assert sum(1 for item in items if item in text.split("\n")) == shown[name], (budget, name)
