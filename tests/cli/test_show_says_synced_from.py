"""``lh memory show`` and the page's lists of decisions and failures say which entries came from
another machine (``[sync from laptop-2 (ana)]``), in the words ``lh memory search`` labels its hits with
(recall/search.py ``came_from``): a person deciding what to forget sees where an entry came from. An
entry this machine wrote says nothing more."""

import os
import re
import time

from lazy_harness import config, paths
from lazy_harness.memory import files, ids
from lazy_harness.ui import reading, sections
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
THEIRS_D = "Run the billing migrations before the worker deploy"
OURS_D = "Keep the billing worker on one queue"
THEIRS_F = "The invoice export timed out on the large tenant"
OURS_F = "The tax rounding test failed on leap days"
HERE = os.uname().nodename


def _seed(tmp_path) -> str:
    project = ms.make_project(tmp_path, "billing")
    mdir = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [
        ms.decision(NOW - 3 * ms.DAY, THEIRS_D, "a column was missing", project="billing", via="session",
                    machine="laptop-2", author="ana"),
        ms.decision(NOW - 2 * ms.DAY, OURS_D, "order matters", project="billing", via="session", machine=HERE)])
    ms.write_jsonl(os.path.join(mdir, files.FAILURES), [
        ms.failure(NOW - 3 * ms.DAY, THEIRS_F, "page the export", project="billing", via="session",
                   machine="laptop-2", author="ana"),
        ms.failure(NOW - 2 * ms.DAY, OURS_F, "freeze the clock", project="billing", via="session", machine=HERE)])
    return project


def _line(lines: list[str], eid: str) -> str:
    [line] = [ln for ln in lines if eid in ln]
    return line


def test_show_labels_the_entries_another_machine_wrote(tmp_path):
    project = _seed(tmp_path)
    r = invoke("memory", "show", "--project", project, "--section", "decisions", "--section", "failures")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    for kind, theirs, ours in (("decision", THEIRS_D, OURS_D), ("failure", THEIRS_F, OURS_F)):
        got = _line(lines, ids.entry_id(kind, theirs))
        assert got.endswith("  [sync from laptop-2 (ana)]") and "\x1b" not in got, got
        assert "sync from" not in _line(lines, ids.entry_id(kind, ours)), r.out


def _row(body: str, eid: str) -> str:
    [row] = [m.group(0) for m in re.finditer(rf'<li\b[^>]*data-id="{re.escape(eid)}".*?</li>', body, re.S)]
    return row


def test_the_pages_lists_label_the_entries_another_machine_wrote(tmp_path):
    project = _seed(tmp_path)
    cfg = config.load()
    projects = reading.projects(project, cfg, os.environ)
    v = sections.View(projects[0], projects, cfg, os.environ, NOW, "token", project, "/base")
    for kind, section, theirs, ours in (("decision", sections.decisions_section, THEIRS_D, OURS_D),
                                        ("failure", sections.failures_section, THEIRS_F, OURS_F)):
        body = section(v)
        assert '<span class="meta">sync from laptop-2 (ana)</span>' in _row(body, ids.entry_id(kind, theirs)), body
        assert "sync from" not in _row(body, ids.entry_id(kind, ours)), body


THEIRS_L = "Warm the billing cache before the nightly run"
OURS_L = "Pin the tax tables per tenant"


def _seed_learnings(tmp_path) -> tuple[str, str, str]:
    """Two learnings of the project, one another machine wrote; returns the project and their ids."""
    project = ms.make_project(tmp_path, "billing")
    ldir = paths.learnings_dir()
    key = os.path.basename(paths.memory_dir(project))
    ms.write_learning(ldir, THEIRS_L, "billing", NOW - 3 * ms.DAY, scope="project", project_folder=key,
                               via="session", machine="laptop-2", author="ana")
    ms.write_learning(ldir, OURS_L, "billing", NOW - 2 * ms.DAY, scope="project", project_folder=key,
                             via="session", machine=HERE)
    return project, ids.learning_id("billing", THEIRS_L), ids.learning_id("billing", OURS_L)


def test_show_labels_the_learnings_another_machine_wrote(tmp_path):
    """The listing labelled another machine's decisions and failures, never its learnings, which the
    session's read-back and lh memory search both label."""
    project, theirs, ours = _seed_learnings(tmp_path)
    r = invoke("memory", "show", "--project", project, "--section", "learnings")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert _line(lines, theirs).endswith("  [sync from laptop-2 (ana)]"), r.out
    assert "sync from" not in _line(lines, ours), r.out


def test_the_pages_learnings_label_those_another_machine_wrote(tmp_path):
    project, theirs, ours = _seed_learnings(tmp_path)
    cfg = config.load()
    projects = reading.projects(project, cfg, os.environ)
    v = sections.View(projects[0], projects, cfg, os.environ, NOW, "token", project, "/base")
    body = sections.learnings_section(v)
    assert '<span class="meta">sync from laptop-2 (ana)</span>' in _row(body, theirs), body
    assert "sync from" not in _row(body, ours), body
