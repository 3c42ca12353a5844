"""A learning edited in place (an editor that writes into the file: its month folder's ``stat`` does not
change) reaches recall within seconds of the next session start: SessionStart compares the learnings it
stats for its digest with what the index's writer last read of them (``writer.behind``), asks the worker
for an index task, and after the worker ran the prompt hook and ``lh memory search`` give the new text.
Real hook processes and a real worker, waited on by its exit, never on the clock."""

import json
import os
import re
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.recall.index import writer
from lazy_harness.recall.readback import digest
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import hook_log, run_hook
from tests.support import memory_samples as ms
from tests.support.child_events import gone

NOW = time.time()
DAY = ms.DAY
ABOUT = "how does the release train queue work"
OLD, NEW = "runs one job per branch", "runs two jobs per branch since the runners doubled"


@pytest.fixture
def project(tmp_path):
    """A project with a decision and four learnings in four month folders; the one about the release
    train is the oldest (outside the newest two month folders ``lh memory search`` looks into), indexed
    as the worker leaves the index."""
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 9, "Keep the stylesheet in one file")])
    ldir = paths.learnings_dir()
    for n, title in enumerate(["Tail reads keep hooks flat", "Vendored fonts load offline",
                               "The linter runs before the tests"]):
        ms.write_learning(ldir, title, "proj", NOW - (5 + 31 * n) * DAY)
    path = ms.write_learning(ldir, f"The release train queue {OLD}", "proj", NOW - 125 * DAY,
                             learning=f"The release train queue {OLD}: two jobs raced on one branch.",
                             tags=["release", "queue"], cues=[ABOUT])
    ms.index_now()
    return root, path


def start(root: str, sid: str) -> tuple[str, str]:
    """A SessionStart as Claude Code runs it: (its additionalContext, its hooks.log line)."""
    r = run_hook("SessionStart", {"session_id": sid, "cwd": root, "hook_event_name": "SessionStart",
                                  "source": "startup"})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    context = json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else ""
    return context, hook_log(paths.claude_dir())[-1]


def prompt(root: str, sid: str) -> str:
    r = run_hook("UserPromptSubmit", {"session_id": sid, "cwd": root, "hook_event_name": "UserPromptSubmit",
                                      "prompt": ABOUT})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else ""


def edit_in_place(path: str) -> None:
    """Write the new text into the file itself (as VS Code, nano or ``sed`` without a rename do): the
    file's inode and its folder's ``stat`` stay as they were."""
    folder, ino = os.stat(os.path.dirname(path)), os.stat(path).st_ino
    with open(path, "r+", encoding="utf-8") as fh:
        text = fh.read().replace(OLD, NEW)
        fh.seek(0)
        fh.write(text)
        fh.truncate()
    after = os.stat(os.path.dirname(path))
    assert (after.st_mtime_ns, after.st_ino) == (folder.st_mtime_ns, folder.st_ino)
    assert os.stat(path).st_ino == ino


def search(root: str) -> str:
    r = invoke("memory", "search", "release train queue", "--project", root)
    assert r.code == 0, r.err
    return r.out


def test_a_learning_edited_in_place_reaches_recall_after_the_next_session_start(project):
    root, path = project
    context, last = start(root, "s-1")  # as every day: the digest keeps the heads it read
    assert OLD in context and "index behind" not in last, last
    assert OLD in prompt(root, "p-1")  # a session the start did not show it to
    edit_in_place(path)
    assert OLD in prompt(root, "p-2") and OLD in search(root)  # the index as the writer left it
    context, last = start(root, "s-2")
    assert NEW in context and OLD not in context  # the digest reads the file again
    pid = re.search(r"index behind the memory files: index task queued, worker pid (\d+)", last)
    assert pid, last
    assert gone(int(pid.group(1)), 120)  # the worker: the index's writer
    got = prompt(root, "p-3")
    assert NEW in got and OLD not in got, got
    got = search(root)
    assert NEW in got and OLD not in got, got
    _, last = start(root, "s-4")  # the writer's record holds the edit: no second task
    assert "index behind" not in last, last


@pytest.mark.parametrize("config", ["enabled = false", "learnings = 0"])
def test_with_no_learnings_read_back_the_start_still_finds_a_learning_edited_in_place(project, config):
    """No learning was stat'ed for the digest (the read-back off, or showing none): the check stats
    the files the writer recorded."""
    root, path = project
    os.makedirs(os.path.dirname(paths.config_file()), exist_ok=True)
    with open(paths.config_file(), "w") as fh:
        fh.write(f"[context]\n{config}\n")
    _, last = start(root, "s-1")
    assert "index behind" not in last, last
    edit_in_place(path)
    _, last = start(root, "s-2")
    pid = re.search(r"index behind the memory files: index task queued, worker pid (\d+)", last)
    assert pid, last
    assert gone(int(pid.group(1)), 120)
    got = prompt(root, "p-1")
    assert NEW in got and OLD not in got, got


def test_a_learning_edited_before_an_update_that_did_not_look_at_it_is_still_found(project):
    """``lh memory search`` brings the index up to date looking only into the newest two month folders:
    its update must not record the edited file's new stamp as read, or no start would find it."""
    root, path = project
    edit_in_place(path)
    assert OLD in search(root)  # it did not look into the learning's folder
    assert writer.behind(os.environ, paths.memory_dir(root), paths.learnings_dir())


def test_the_writer_records_the_learnings_the_digest_reads():
    """What SessionStart compares: the digest's candidates, each with the stamp the writer recorded."""
    assert writer.WATCHED == digest.CANDIDATES
