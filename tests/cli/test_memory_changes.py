"""lh memory consolidate / history / undo / forget: every change journalled and undoable."""

import os
from pathlib import Path

from lazy_harness import paths
from lazy_harness.memory import ids, marks
from tests.cli.lhrun import invoke
from tests.support import fake_claude
from tests.worker.test_consolidate import _learning, _write_entries


def _project(tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".git").mkdir()
    return proj, paths.memory_dir(str(proj))


def test_forget_a_decision_then_undo_it(tmp_path):
    proj, mdir = _project(tmp_path)
    did = _write_entries(Path(mdir), "decision", ["Use vLLM", "Use SQLite"])[0]
    r = invoke("memory", "forget", did, "--project", str(proj))
    assert r.code == 0, r.err
    assert did in marks.hidden(mdir)
    hist = invoke("memory", "history", "--project", str(proj))
    assert "forget" in hist.out and did in hist.out
    r = invoke("memory", "undo", "--project", str(proj))
    assert r.code == 0, r.err
    assert did not in marks.hidden(mdir)
    assert "undone" in invoke("memory", "history", "--project", str(proj)).out
    again = invoke("memory", "undo", "--project", str(proj))
    assert again.code == 1 and "nothing to undo" in again.err


def test_forget_a_learning_sets_its_status(tmp_path):
    proj, mdir = _project(tmp_path)
    ldir = paths.learnings_dir()
    path, lid = _learning(Path(ldir), "Forget me", origin="proj")
    r = invoke("memory", "forget", lid, "--project", str(proj))
    assert r.code == 0, r.err
    assert "status: forgotten" in path.read_text()
    invoke("memory", "undo", "--project", str(proj))
    assert "status: active" in path.read_text()


def test_forget_refuses_unknown_and_malformed_ids(tmp_path):
    proj, _ = _project(tmp_path)
    r = invoke("memory", "forget", "d-12345678", "--project", str(proj))
    assert r.code == 1 and "no decision d-12345678" in r.err
    r = invoke("memory", "forget", "../../etc", "--project", str(proj))
    assert r.code == 1 and "is not an id" in r.err


def test_consolidate_dry_run_and_a_run_from_the_cli(tmp_path, monkeypatch):
    proj, mdir = _project(tmp_path)
    old, new = _write_entries(Path(mdir), "decision", ["Use vLLM", "Use llama.cpp"])
    fake_claude.use(tmp_path, monkeypatch, answer={"supersede": [{"old": old, "new": new, "reason": "switched"}]})
    r = invoke("memory", "consolidate", "--project", str(proj), "--dry-run")
    assert r.code == 0 and f"would supersede {old} by {new}" in r.out
    assert marks.hidden(mdir) == {}
    r = invoke("memory", "consolidate", "--project", str(proj))
    assert r.code == 0 and "changed: 1 change(s)" in r.out
    assert old in marks.hidden(mdir)
    run = [line for line in r.out.splitlines() if "lh memory undo" in line][0].rsplit(" ", 1)[1].rstrip(")")
    assert invoke("memory", "undo", run, "--project", str(proj)).code == 0
    assert marks.hidden(mdir) == {}
    assert os.path.isdir(os.path.join(mdir, "journal"))
    assert ids.is_id(old)
