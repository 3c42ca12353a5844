"""One id carried by two texts (a learning copied by hand to a new file and its body changed; a decision
line copied and reworded, its ``id`` kept): SessionStart, prompt recall and ``lh memory search`` give
the same text, the newest. A line that came with ``lh sync`` and merely carries the id of one of this
machine's entries never displaces it (ADR 0059)."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, ids
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import run_hook
from tests.support import memory_samples as ms

NOW = time.time()
TITLE = "Zebra caches expire at midnight"
OLD = "The zebra cache drops all keys at 00:00 UTC, okapi billing runs after."
NEW = "The zebra cache drops all keys at 03:00 UTC after the capybara change."
PROMPT = "when do the zebra caches expire at midnight, okapi billing asks"
SUMMARY = "Use a file queue between hooks and worker"
REWORDED = "Use a capybara file queue between hooks and worker, v2"
QUEUE_PROMPT = "should the file queue between hooks and worker stay"


@pytest.fixture
def project(tmp_path):
    return ms.make_project(tmp_path, "proj")


def start(project: str) -> str:
    r = run_hook("SessionStart", {"session_id": "s-start", "cwd": project, "source": "startup"})
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]


def ask(project: str, prompt: str, sid: str) -> str:
    """What the prompt hook injects, the index brought up to date first as its writer leaves it."""
    ms.index_now()
    r = run_hook("UserPromptSubmit", {"session_id": sid, "cwd": project, "hook_event_name": "UserPromptSubmit",
                                      "prompt": prompt})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else ""


def copied_learning() -> tuple[str, str]:
    """A learning and a copy a person made of it in a new file, its body changed: (older, newer)."""
    ldir = paths.learnings_dir()
    older = ms.write_learning(ldir, TITLE, "proj", NOW - 3 * ms.DAY, learning=OLD, tags=["cache"],
                              slug="zebra-caches-expire-at-midnight")
    day = ms.iso(NOW - ms.DAY)[:10]
    newer = os.path.join(ldir, day[:7], f"{day}-zebra-caches-v2.md")
    os.makedirs(os.path.dirname(newer), exist_ok=True)
    with open(older, encoding="utf-8") as fh:
        text = fh.read()
    with open(newer, "w", encoding="utf-8") as fh:
        fh.write(text.replace(OLD, NEW))
    return older, newer


def test_a_learning_copied_and_edited_gives_its_newest_text_everywhere(project):
    older, newer = copied_learning()
    lid = ids.learning_id("proj", TITLE)
    ctx = start(project)
    assert "03:00 UTC" in ctx and "00:00 UTC" not in ctx  # SessionStart: the newest file
    got = ask(project, PROMPT, "s-prompt")
    assert lid in got and "03:00 UTC" in got and "00:00 UTC" not in got, got
    out = invoke("memory", "search", "zebra", "--json", "--project", project)
    assert out.code == 0, out.err
    [hit] = [json.loads(ln) for ln in out.out.splitlines() if json.loads(ln)["kind"] == "learning"]
    assert hit["id"] == lid and hit["file"] == newer
    # the words only the older file holds still find the learning, as its newest file
    out = invoke("memory", "search", "okapi", "--json", "--project", project)
    [hit] = [json.loads(ln) for ln in out.out.splitlines()]
    assert hit["file"] == newer, out.out


def test_the_older_file_stands_again_once_the_copy_is_deleted(project):
    older, newer = copied_learning()
    assert "03:00 UTC" in ask(project, PROMPT, "s-a")
    os.remove(newer)
    got = ask(project, PROMPT, "s-b")
    assert "00:00 UTC" in got and "03:00 UTC" not in got, got


def decisions(project: str, *recs: dict) -> str:
    path = os.path.join(paths.memory_dir(project), files.DECISIONS)
    ms.write_jsonl(path, list(recs))
    return path


def test_a_decision_line_copied_and_reworded_gives_the_last_line_everywhere(project):
    did = ids.entry_id("decision", SUMMARY)
    first = ms.decision(NOW - 2 * ms.DAY, SUMMARY, "hooks must stay fast", id=did)
    decisions(project, first, {**first, "summary": REWORDED})
    ctx = start(project)
    [line] = [ln for ln in ctx.splitlines() if did in ln]  # one line under the id, not two
    assert "capybara" in line
    got = ask(project, QUEUE_PROMPT, "s-prompt")
    assert did in got and "capybara" in got and "decisions.jsonl:2" in got, got
    out = invoke("memory", "search", "queue", "--json", "--project", project)
    [hit] = [json.loads(ln) for ln in out.out.splitlines() if json.loads(ln)["id"] == did]
    assert "capybara" in hit["summary"] and hit["line"] == 2


@pytest.mark.parametrize("how", ["another machine", "the record of what sync brought"])
def test_a_synced_line_claiming_this_machines_id_never_displaces_it(project, how):
    """ADR 0059: the id stays the entry's it is the hash of; a line that came with sync under another
    text merely carries it, and is shown nowhere in its place, though it is the last line."""
    did = ids.entry_id("decision", SUMMARY)
    mine = ms.decision(NOW - 2 * ms.DAY, SUMMARY, "hooks must stay fast", id=did, via="session",
                       machine=os.uname().nodename)
    theirs = {**mine, "summary": "Use a capybara file queue between hooks and worker, v2", "machine": "laptop-2"}
    if how != "another machine":
        theirs["machine"] = os.uname().nodename
        record = paths.synced_in_file()
        os.makedirs(os.path.dirname(record), exist_ok=True)
        with open(record, "w", encoding="utf-8") as fh:
            fh.write(did + "\n")
    decisions(project, mine, theirs)
    ctx = start(project)
    [line] = [ln for ln in ctx.splitlines() if did in ln]
    assert "capybara" not in line and "file queue" in line
    got = ask(project, QUEUE_PROMPT, "s-prompt")
    assert did in got and "capybara" not in got and "decisions.jsonl:1" in got, got
    out = invoke("memory", "search", "capybara", "--project", project)
    assert did not in out.out  # the claiming line's words lead nowhere
    out = invoke("memory", "search", "queue", "--json", "--project", project)
    [hit] = [json.loads(ln) for ln in out.out.splitlines() if json.loads(ln)["id"] == did]
    assert hit["line"] == 1
