"""marks.jsonl there but unreadable (a folder or a FIFO in its place): before, every reader took it for no
marks, so what the person forgot (and what the hold check held) came back to every session and `lh memory
show` listed it as active. The session start now leaves out the sections the marks hide and says why in its
text and in hooks.log; the commands name the file and show nothing as active that they cannot tell."""

import os
import shutil
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, ids, marks
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import hook_log, run_hook
from tests.support import memory_samples as ms

SID = "5b2f7c11-8e3a-4d69-a0b4-2c9d7e1f6a83"
NOW = time.time()
KEPT, FORGOTTEN = "Serve the ledger export from the read replica", "Serve the ledger export from the primary"


def _project(tmp_path) -> tuple[str, str]:
    root = ms.make_project(str(tmp_path), "demo")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 9000, FORGOTTEN, project="demo"),
                                                         ms.decision(NOW - 8000, KEPT, project="demo")])
    forgot = invoke("memory", "forget", ids.entry_id("decision", FORGOTTEN), "--project", root)
    assert forgot.code == 0, forgot.out + forgot.err
    return root, mdir


def _start(project: str) -> str:
    result = run_hook("SessionStart", {"session_id": SID, "transcript_path": f"/nowhere/{SID}.jsonl",
                                       "cwd": project, "hook_event_name": "SessionStart", "source": "startup"})
    assert result.returncode == 0, result.stderr
    import json

    return json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"] if result.stdout else ""


def _spoil(mdir: str, how) -> None:
    path = marks.path_of(mdir)
    shutil.move(path, path + ".saved")
    how(path)


@pytest.mark.parametrize("how", [os.mkdir, os.mkfifo], ids=["folder", "fifo"])
def test_a_session_start_without_its_marks_shows_no_forgotten_entry_and_says_why(isolated_home, tmp_path, how):
    root, mdir = _project(tmp_path)
    before = _start(root)
    assert KEPT in before and FORGOTTEN not in before  # the forget as usual
    _spoil(mdir, how)

    text = _start(root)

    assert FORGOTTEN not in text and KEPT not in text
    assert marks.path_of(mdir) in text and "cannot be read" in text
    line = hook_log(paths.claude_dir())[-1]
    assert "marks.jsonl" in line and "left out" in line, line


def test_memory_show_names_the_unreadable_marks_instead_of_listing_the_forgotten_as_active(isolated_home, tmp_path):
    root, mdir = _project(tmp_path)
    _spoil(mdir, os.mkdir)

    shown = invoke("memory", "show", "--project", root)

    assert FORGOTTEN not in shown.out
    assert shown.code != 0 and marks.path_of(mdir) in shown.err and "Traceback" not in shown.err


def test_a_session_distilled_while_the_marks_cannot_be_read_is_kept_for_later_not_lost(isolated_home, tmp_path,
                                                                                       monkeypatch):
    """The worker cannot tell what is forgotten or held without marks.jsonl: the session's task waits in
    failed/ with the file named, nothing is written, and once the file is put back the retry stores it."""
    from tests.support import fake_claude
    from tests.worker.spendrig import configure, queue_session, run_worker, tasks

    answer = {"decisions": [{"summary": "Cache the exchange rates for an hour", "rationale": "the API is slow"}]}
    fake_claude.use(tmp_path, monkeypatch, answer=answer)
    configure(isolated_home)
    root, mdir = _project(tmp_path)
    _spoil(mdir, os.mkdir)
    queue_session(root)
    run_worker()
    failed = tasks("failed")
    assert not tasks("done") and len(failed) == 1 and marks.path_of(mdir) in failed[0]["reason"]
    assert "internal error" not in failed[0]["reason"]
    assert "exchange rates" not in open(os.path.join(mdir, files.DECISIONS)).read()

    os.rmdir(marks.path_of(mdir))
    os.rename(marks.path_of(mdir) + ".saved", marks.path_of(mdir))
    retried = invoke("queue", "retry", "--failed")
    assert retried.code == 0, retried.out + retried.err
    run_worker()
    assert len(tasks("done")) == 1
    with open(os.path.join(mdir, files.DECISIONS)) as fh:
        assert fh.read().count("Cache the exchange rates for an hour") == 1
    text = _start(root)
    assert "Cache the exchange rates for an hour" in text and FORGOTTEN not in text
