"""A ``scope: project`` learning written by hand with only its project's name (``origin: shop``, no
memory key, no session) belongs to the one project of that name (ADR 0035). The worker adopted such
learnings once a day, so one written after that day's look was shown nowhere for up to a day while
``lh memory show`` listed it as the project's. The start that finds the index behind the files asks
the worker, which now also looks for learnings to adopt: the next start and prompt have it."""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids
from tests.hooks.hookrun import hook_log, run_hook, spawned_workers_gone
from tests.support import memory_samples as ms

NOW = time.time()
TITLE = "Stripe webhooks need the raw request body"


def start(project: str, sid: str) -> dict:
    return {"session_id": sid, "transcript_path": f"/nowhere/{sid}.jsonl", "cwd": project,
            "hook_event_name": "SessionStart", "source": "startup", "model": "claude-sonnet-4-5"}


def test_a_hand_written_project_learning_reaches_the_next_start_and_prompt(tmp_path):
    shop = ms.make_project(tmp_path, "shop", branch="main")
    ms.write_jsonl(os.path.join(paths.memory_dir(shop), files.DECISIONS),
                   [ms.decision(NOW - 9000, "The cart uses one currency per order", "simpler refunds", project="shop")])
    run_hook("SessionStart", start(shop, "s-1"))  # no index yet: the worker builds it and looks for orphans
    assert "index task queued" in hook_log(paths.claude_dir())[-1]
    spawned_workers_gone(timeout=120)
    assert os.path.exists(os.path.join(paths.state_dir(), "adopted"))  # the day's look is done

    folder = os.path.join(paths.learnings_dir(), time.strftime("%Y-%m", time.localtime(NOW)))
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, time.strftime("%Y-%m-%d", time.localtime(NOW)) + "-stripe-webhooks.md")
    with open(path, "w", encoding="utf-8") as fh:  # written by hand: no memory key, no session
        fh.write(f"---\ntitle: {TITLE}\norigin: shop\nscope: project\n---\n\n"
                 "Verify the Stripe webhook signature against the raw body, before any JSON body parser runs.\n")
    lid = ids.of_learning({"title": TITLE, "origin": "shop", "scope": "project"}, path=path)
    run_hook("SessionStart", start(shop, "s-2"))
    assert "index behind the memory files: index task queued" in hook_log(paths.claude_dir())[-1]
    spawned_workers_gone(timeout=120)

    text = json.loads(run_hook("SessionStart", start(shop, "s-3")).stdout)["hookSpecificOutput"]["additionalContext"]
    assert lid in text and TITLE in text, text
    r = run_hook("UserPromptSubmit", {"session_id": "s-4", "cwd": shop, "hook_event_name": "UserPromptSubmit",
                                      "prompt": "the stripe webhook signature check fails on every request"})
    last = hook_log(paths.claude_dir())[-1]
    assert r.stdout, last
    assert lid in json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"], last
