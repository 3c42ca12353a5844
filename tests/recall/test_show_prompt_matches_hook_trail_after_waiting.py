"""The trail rule (``rank.TRAIL``, ADR 0061) measures a note against the best match the prompt can be
given: a learning of another project waiting for approval is given to no session, so a note of this
project that passes the bar alone is not left out as trailing it ("a note alone passes as before").
The prompt hook and ``lh memory show --prompt`` agree on it."""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import hook_log, run_hook
from tests.hooks.test_trust import DOCKER, learning, write_as_session
from tests.support import memory_samples as ms

NOW = time.time()
PROMPT = "how do I keep the docker layer cache when I copy requirements and the source"


def command_and_hook(project: str, prompt: str):
    """With the similarity bar (the default) and the index built: ``lh memory show --prompt``'s outcome,
    the prompt hook's (a new session's first prompt) and its hooks.log line."""
    os.makedirs(os.path.dirname(paths.config_file()), exist_ok=True)
    with open(paths.config_file(), "w", encoding="utf-8") as fh:
        fh.write("[context]\nenabled = false\n[recall]\nresident_minutes = 0\n")
    ms.index_now()
    out = invoke("memory", "show", "--project", project, "--prompt", prompt)
    assert out.code == 0, out.err
    r = run_hook("UserPromptSubmit", {"session_id": "s-new", "cwd": project, "hook_event_name": "UserPromptSubmit",
                                      "prompt": prompt})
    assert r.returncode == 0, r.stderr
    return out, r, hook_log(paths.claude_dir())[-1]


def test_a_note_is_not_left_out_as_trailing_a_learning_that_waits_for_approval(tmp_path):
    a, b = ms.make_project(tmp_path, "projA"), ms.make_project(tmp_path, "projB")
    write_as_session(a, {"learnings": [learning(DOCKER, "Copy requirements.txt and install the dependencies "
                                                        "before copying the source.", tags=["docker", "cache"])]})
    ms.write_jsonl(os.path.join(paths.memory_dir(b), files.DECISIONS), [
        ms.decision(NOW - 5 * ms.DAY, "The CI image installs requirements from a pinned lock file",
                    "reproducible builds of the docker image", tags=["docker", "requirements"], project="projB"),
        *(ms.decision(NOW - 20 * ms.DAY, f"The {what} keeps its settings in one file", "simple", project="projB")
          for what in ("stylesheet", "mailer", "wishlist", "admin panel", "billing page"))])
    waiting = ids.learning_id("projA", DOCKER)
    note = ids.entry_id("decision", "The CI image installs requirements from a pinned lock file")
    out, r, last = command_and_hook(b, PROMPT)
    assert f"waiting={waiting}" in last, last
    assert r.stdout, last  # the note passes the bar alone: the waiting learning is no match beside it
    hook = json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]
    assert note in hook and waiting not in hook, hook
    assert out.out.split("\n", 1)[1].split("\n\n==== why", 1)[0] == hook
    row = next(line for line in out.out.split("==== why", 1)[1].splitlines() if note in line)
    assert row.startswith("pass"), out.out
    assert "trails" not in out.out, out.out
