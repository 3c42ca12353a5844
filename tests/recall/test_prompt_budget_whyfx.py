"""A budget that leaves no room for one entry (``recall.max_chars`` under the header plus an entry,
``recall.max_items = 0``) is named as the reason nothing is added, in hooks.log and in ``lh memory
show --prompt``; and ``recall.max_chars`` has a floor that fits the longest header and one entry."""

import os
import time

from lazy_harness import config, paths
from lazy_harness.config import schema
from lazy_harness.config.validate import parse_file
from lazy_harness.memory import files
from lazy_harness.recall.prompt import explain, rank
from lazy_harness.recall.prompt import recall as recall_prompt
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import hook_log, run_hook
from tests.support import memory_samples as ms

NOW = time.time()
PROMPT = "the deploy scheduler ran twice last night, can we lock it in postgres"


def _project(tmp_path, recall_lines: str = ""):
    root = ms.make_project(tmp_path, "proj")
    ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS), [
        ms.decision(NOW - 9 * ms.DAY, "Use Postgres advisory locks for the deployment scheduler",
                    "two runners deployed at once"),
        ms.decision(NOW - 8 * ms.DAY, "The deployment scheduler takes its postgres lock before it deploys",
                    "a lock taken after the deploy let two runs through")])
    os.makedirs(os.path.dirname(paths.config_file()), exist_ok=True)
    with open(paths.config_file(), "w", encoding="utf-8") as fh:
        # why context off: SessionStart, which runs before a first prompt, would have shown them all
        fh.write("[context]\nenabled = false\n[recall]\nsemantic = false\nresident_minutes = 0\n" + recall_lines)
    ms.index_now()
    return root


def _cfg(**recall):
    cfg = config.defaults()
    cfg["recall"].update(semantic=False, resident_minutes=0, **recall)
    return cfg


def test_max_chars_too_small_for_one_entry_is_the_reason_in_the_log_line_and_the_explanation(tmp_path):
    root = _project(tmp_path)
    cfg = _cfg(max_chars=200)
    decision, out = recall_prompt.answer({"prompt": PROMPT, "cwd": root, "session_id": "s-new"}, os.environ, NOW,
                                         cfg=cfg)
    assert out is None
    assert "passed=2" in decision and "nothing new" not in decision, decision
    assert "recall.max_chars 200" in decision, decision
    said = explain.report(PROMPT, root, cfg, os.environ)
    assert said["text"] is None
    assert said["none"].startswith("recall.max_chars 200 leaves no room for an entry"), said["none"]
    assert "already shown" not in said["none"]


def test_max_items_zero_is_the_reason_in_the_hooks_log_and_in_show_prompt(tmp_path):
    root = _project(tmp_path, "max_items = 0\n")
    r = run_hook("UserPromptSubmit", {"session_id": "s-new", "cwd": root, "hook_event_name": "UserPromptSubmit",
                                      "prompt": PROMPT})
    assert r.returncode == 0 and r.stdout == b"", r.stdout
    last = hook_log(paths.claude_dir())[-1]
    assert "recall.max_items" in last and "nothing new" not in last, last
    out = invoke("memory", "show", "--project", root, "--prompt", PROMPT)
    said = [line for line in out.out.splitlines() if line.startswith("This prompt receives nothing")]
    assert said and "recall.max_items is 0" in said[0] and "already shown" not in said[0], out.out


def test_the_floor_of_max_chars_fits_the_longest_header_and_one_entry():
    floor = schema.FLOORS["recall.max_chars"]
    item = {"kind": "decision", "id": "d-0000abcd", "file": "/m/decisions.jsonl", "line": 1,
            "ts": "2026-04-13T10:00:00", "origin": "shop", "title": "Lock the scheduler " * 30, "detail": "x"}
    deep = "/" + "/".join(["a-rather-long-folder-name"] * 40)  # the header cuts the folders to 600 characters
    text, kept = rank.render([item], deep + "/projects/proj", deep + "/knowledge/learnings", floor)
    assert text is not None and kept == [item]
    assert floor <= schema.RECALL_HARD_CAP and floor <= schema.defaults()["recall"]["max_chars"]


def test_a_max_chars_under_the_floor_warns_and_the_floor_is_used(tmp_path):
    floor = schema.FLOORS["recall.max_chars"]
    root = _project(tmp_path, "max_chars = 200\n")
    r = invoke("config", "validate")
    assert r.code == 0, r.out + r.err
    path = paths.config_file()
    assert f"{path}:6: warning: recall.max_chars: 200 is under the floor of {floor}" in r.out, r.out
    cfg, errors, warnings = parse_file(path)
    assert cfg["recall"]["max_chars"] == floor and errors == [] and len(warnings) == 1, warnings
    assert config.load_fast()["recall"]["max_chars"] == floor  # what the hooks read
    out = invoke("memory", "show", "--project", root, "--prompt", PROMPT)
    assert "receives nothing" not in out.out and "Postgres advisory locks" in out.out, out.out
