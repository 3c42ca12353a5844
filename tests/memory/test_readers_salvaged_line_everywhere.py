"""A decision line a person damaged by hand (an editor left a trailing comma, or a lost newline glued
two lines) is salvaged by the read-back: every session receives it. Every other view agrees that it is
an entry: ``lh memory show`` lists it under the id SessionStart shows, ``lh memory forget`` takes that
id and SessionStart then leaves it out, and ``lh memory check`` still names the damaged line."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, hand_runs, ids
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import run_hook, spawned_workers_gone, worker_lock_held
from tests.support import memory_samples as ms

SID = "3c9d2b71-5e4a-4f0b-8d6c-1a2e3f4b5c6d"
KEEP = "Keep the widget cache warm"
FRIDAYS = "Never deploy the billing service on Fridays"


def _decision(ts: float, summary: str) -> dict:
    return ms.decision(ts, summary, "outages", id=ids.entry_id("decision", summary))


def _trailing_comma(good: dict, bad: dict) -> str:
    return json.dumps(good) + "\n" + json.dumps(bad)[:-1] + ",}\n"


def _glued(good: dict, bad: dict) -> str:
    return json.dumps(good) + json.dumps(bad) + "\n"  # the newline between them lost


def _session_start(root: str) -> str:
    payload = {"session_id": SID, "transcript_path": f"/nowhere/{SID}.jsonl", "cwd": root,
               "hook_event_name": "SessionStart", "source": "startup", "model": "claude-sonnet-4-5"}
    with worker_lock_held(paths.claude_dir()):
        result = run_hook("SessionStart", payload)
    spawned_workers_gone()
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]


@pytest.mark.parametrize("damage", [_trailing_comma, _glued], ids=["trailing-comma", "glued-lines"])
def test_a_salvaged_decision_is_listed_forgotten_by_its_id_and_then_left_out(tmp_path, damage):
    root = ms.make_project(str(tmp_path), "proj")
    mdir = paths.memory_dir(root)
    os.makedirs(mdir)
    now = time.time()
    good, bad = _decision(now - 60, KEEP), _decision(now - 50, FRIDAYS)
    path = os.path.join(mdir, files.DECISIONS)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(damage(good, bad))

    before = _session_start(root)
    assert FRIDAYS in before and bad["id"] in before  # the read-back salvaged it, under this id

    shown = invoke("memory", "show", "--project", root)
    assert shown.code == 0, shown.err
    full = shown.out.partition("==== everything")[2]
    listed = [ln for ln in full.splitlines() if FRIDAYS in ln]
    assert len(listed) == 1 and bad["id"] in listed[0], full
    assert hand_runs.entry_exists(mdir, bad["id"], "decision")

    forget = invoke("memory", "forget", "--project", root, bad["id"], "--reason", "obsolete")
    assert forget.code == 0, forget.err

    after = _session_start(root)
    assert FRIDAYS not in after and KEEP in after
    again = invoke("memory", "show", "--project", root).out.partition("==== everything")[2]
    assert [ln for ln in again.splitlines() if bad["id"] in ln and "[forgotten]" in ln], again
    check = invoke("memory", "check", "--project", root)
    assert f"{path}:{2 if damage is _trailing_comma else 1}: salvaged" in check.out, check.out
