"""A persist killed before it committed is never shown (ADR 0021).

The worker appends a session's entries under the memory folder's lock, with an undo record beside the
queue; a SIGKILL before the record's removal leaves bytes that never counted as written. Before, only
writers rolled them back (the next worker or command that writes): until then ``lh memory show`` and
SessionStart listed those entries, and the next worker's start then took them out again. Readers now
roll back a record no live writer holds.
"""

import fcntl
import json
import os
import re
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import entries, files, intent
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop, run_hook, worker_lock_held
from tests.support import memory_samples as ms

NOW = time.time()
DAY = ms.DAY


@pytest.fixture
def killed(isolated_home, tmp_path):
    """A project with one committed decision, then a persist of one more decision, one failure and one
    learning that was killed before its commit."""
    project = ms.make_project(tmp_path, "proj", branch="main")
    mem = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 3 * DAY, "Keep invoices in Postgres")])
    ldir = paths.learnings_dir()
    # why one time for the folder and the name: two looks at the clock put them in two months at its end
    day = time.strftime("%Y-%m-%d", time.localtime(NOW - DAY))
    os.makedirs(os.path.join(ldir, day[:7]), exist_ok=True)
    new_decision = entries.json_line(ms.decision(NOW - DAY, "Move invoices to a ledger service wombatite"))
    new_failure = entries.json_line(ms.failure(NOW - DAY, "Ledger import timed out wombatite"))
    appends = {os.path.join(mem, files.DECISIONS): intent.appended_bytes(os.path.join(mem, files.DECISIONS),
                                                                          [new_decision]),
               os.path.join(mem, files.FAILURES): intent.appended_bytes(os.path.join(mem, files.FAILURES),
                                                                         [new_failure])}
    undo = intent.begin(mem, "task-1", "sess-killed", appends, False)
    for path, data in appends.items():
        with open(path, "ab") as fh:
            fh.write(data)
    learning = os.path.join(ldir, day[:7], day + "-ledger-wombatite.md")
    body = ms.frontmatter("Ledger imports wombatite need a lock timeout", "proj", NOW - DAY, scope="project")
    undo.creating(learning, body.encode("utf-8"))
    with open(learning, "w", encoding="utf-8") as fh:
        fh.write(body)
    return project, mem, learning, undo.path


def test_show_leaves_out_what_a_killed_persist_wrote_and_rolls_it_back(killed):
    project, mem, learning, record = killed
    out = invoke("memory", "show", "--project", project, "--all")
    assert out.code == 0, out.err
    assert "Keep invoices in Postgres" in out.out
    assert "wombatite" not in out.out
    assert not os.path.exists(record) and not os.path.exists(learning)
    with open(os.path.join(mem, files.DECISIONS), encoding="utf-8") as fh:
        assert [json.loads(line)["summary"] for line in fh] == ["Keep invoices in Postgres"]


def test_session_start_never_shows_a_killed_persist(killed):
    project, _, learning, record = killed
    result = run_hook("SessionStart", {"session_id": "s-next", "cwd": project, "source": "startup"})
    assert result.returncode == 0, result.stderr
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Keep invoices in Postgres" in context
    assert "wombatite" not in context
    assert not os.path.exists(record) and not os.path.exists(learning)


def test_a_reader_leaves_a_live_writers_record_alone_and_does_not_wait(killed):
    project, mem, learning, record = killed
    fd = os.open(mem, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # a writer at work on the folder: its persist is its own business
        out = invoke("memory", "show", "--project", project, "--all")
        assert out.code == 0, out.err
        assert os.path.exists(record) and os.path.exists(learning)
    finally:
        os.close(fd)


def test_what_show_lists_is_still_there_after_the_next_workers_start(killed):
    project = killed[0]
    first = invoke("memory", "show", "--project", project, "--all")
    assert first.code == 0, first.err
    intent.recover_all()  # what the next worker does first
    again = invoke("memory", "show", "--project", project, "--all")
    listed = [set(re.findall(r"\b[dfl]-[0-9a-f]{8}\b", out.out)) for out in (first, again)]
    assert listed[0] and listed[0] == listed[1]


def test_a_killed_persist_of_another_project_is_not_shown_either(killed, tmp_path, isolated_home):
    """Learnings live in one folder every project shares: a general learning a killed worker of
    project proj created is not shown in project other's session (the person lets general learnings
    cross projects), and the next worker's start does not take back what was shown."""
    _, _, learning, record = killed
    config = enable_loop(isolated_home)
    with open(config, "a", encoding="utf-8") as fh:
        fh.write('cross_projects = "auto"\n')
    body = ms.frontmatter("Ledger imports wombatite need a lock timeout", "proj", NOW - DAY)  # general
    with open(learning, "w", encoding="utf-8") as fh:
        fh.write(body)
    with open(record, "rb") as fh:
        head, *rest = fh.read().splitlines()
    created = dict(json.loads(rest[0]), sha=intent.sha(body.encode("utf-8")))
    with open(record, "wb") as fh:
        fh.write(head + b"\n" + json.dumps(created).encode() + b"\n")
    other = ms.make_project(tmp_path, "other", branch="main")
    ms.write_jsonl(os.path.join(paths.memory_dir(other), files.DECISIONS), [ms.decision(NOW, "Other keeps tabs")])
    with worker_lock_held(paths.claude_dir()):  # no worker start rolls it back meanwhile
        result = run_hook("SessionStart", {"session_id": "s-other", "cwd": other, "source": "startup"})
    assert result.returncode == 0, result.stderr
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Other keeps tabs" in context and "wombatite" not in context
    assert not os.path.exists(record) and not os.path.exists(learning)
