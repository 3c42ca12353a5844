"""What ``lh memory forget`` and the page's Forget say when the forgotten decision had replaced others:
a consolidation's ``supersede`` is given back as the store's ``replace`` is (ADR 0060), and the line
names each decision shown again."""

import os
import time
from pathlib import Path

from lazy_harness import config, paths
from lazy_harness.memory import journal, marks
from lazy_harness.recall.readback import digest
from lazy_harness.ui import actions
from lazy_harness.ui.reading import Project
from tests.cli.lhrun import invoke
from tests.support import fake_claude
from tests.worker.test_consolidate import _write_entries

OLDER, OLD = "Deploy with a shell script over ssh", "Deploy with Ansible playbooks"
NEW = "Deploy with Kubernetes Helm charts"


def _consolidated(tmp_path, monkeypatch) -> tuple[str, str, list[str]]:
    """A project whose consolidation marked two decisions superseded by the newest one."""
    proj = tmp_path / "proj"
    (proj / ".git").mkdir(parents=True)
    mdir = paths.memory_dir(str(proj))
    older, old, new = _write_entries(Path(mdir), "decision", [OLDER, OLD, NEW])
    fake_claude.use(tmp_path, monkeypatch, answer={"supersede": [{"old": older, "new": new, "reason": "moved to k8s"},
                                                                 {"old": old, "new": new, "reason": "moved to k8s"}]})
    r = invoke("memory", "consolidate", "--project", str(proj))
    assert r.code == 0 and {older, old} <= set(marks.hidden(mdir)), r.out + r.err
    return str(proj), mdir, [older, old, new]


def _start(root: str) -> str:
    text, _ = digest.build_context(root, config.defaults(), os.environ, time.time(), "startup")
    return text or ""


def test_forget_names_the_decisions_a_consolidation_said_it_replaced(tmp_path, monkeypatch):
    root, mdir, (older, old, new) = _consolidated(tmp_path, monkeypatch)
    assert OLDER not in _start(root) and OLD not in _start(root)
    r = invoke("memory", "forget", new, "--project", root)
    assert r.code == 0, r.err
    run = str(journal.runs(mdir)[0]["run"])
    assert r.out.strip() == (f"forgot {new} (undo: lh memory undo {run}); "
                             f"shown again: {older}, {old} (they were replaced by {new})")
    start = _start(root)
    assert OLDER in start and OLD in start and NEW not in start
    assert invoke("memory", "undo", run, "--project", root).code == 0
    start = _start(root)
    assert OLDER not in start and OLD not in start and NEW in start


def test_the_pages_forget_says_the_same(tmp_path, monkeypatch):
    root, mdir, (older, old, new) = _consolidated(tmp_path, monkeypatch)
    page = Project(key=os.path.basename(mdir), name="proj", memory_dir=mdir, learnings_dir=paths.learnings_dir(),
                   current=True, folder=root)
    said = actions.forget(page, {"id": new}, config.defaults(), time.time())
    run = str(journal.runs(mdir)[0]["run"])
    assert said == (f"forgot {new} (undo: lh memory undo {run}); "
                    f"shown again: {older}, {old} (they were replaced by {new})")
    assert OLD in _start(root)
    assert actions.forget(page, {"id": new}, config.defaults(), time.time()) == f"{new} is already forgotten"
