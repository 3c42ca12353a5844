"""Consolidation and a learning file copied by hand (one id in two files): a deprecation acts on every
active copy, the prompt lists the learning once, undo puts every copy back; a copy whose text differs
is no copy: consolidation leaves that id alone and says why."""

import os
import shutil

from lazy_harness import config
from lazy_harness.memory import by_hand, frontmatter
from lazy_harness.worker import consolidate as job
from tests.support import fake_claude
from tests.worker.test_consolidate import NOW, _learning


def _status(path) -> str:
    return frontmatter.read_frontmatter_values(str(path), ("status",)).get("status")


def _world(tmp_path, monkeypatch, answer):
    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer=answer)
    mdir, ldir = tmp_path / "mem", tmp_path / "learnings"
    mdir.mkdir()
    ldir.mkdir()
    return bin_dir, mdir, ldir


def test_deprecating_a_learning_copied_by_hand_deprecates_every_copy_and_undo_restores_them(tmp_path, monkeypatch):
    bin_dir, mdir, ldir = _world(tmp_path, monkeypatch, {})
    old, old_id = _learning(ldir, "Use tox for the matrix")
    new, new_id = _learning(ldir, "Use nox for the matrix", day="2026-10-02")
    copy = old.with_name(old.stem + "-copy.md")
    shutil.copyfile(old, copy)
    before = {p: p.read_bytes() for p in (old, copy, new)}
    fake_claude.control(bin_dir, mode="ok", answer={"deprecate_learnings": [{"id": old_id, "by": new_id}]})
    result = job.run(str(mdir), str(ldir), "demo", config.defaults(), os.environ, NOW)
    assert result.status == "changed", result
    assert (_status(old), _status(copy), _status(new)) == ("deprecated", "deprecated", "active")
    prompt = fake_claude.calls(bin_dir)[0]["stdin"]
    assert prompt.count(f"[{old_id}]") == 1
    by_hand.undo(str(mdir), str(ldir), result.run, 30, NOW)
    assert {p: p.read_bytes() for p in before} == before


def test_a_copy_whose_text_differs_is_left_alone_and_said(tmp_path, monkeypatch):
    bin_dir, mdir, ldir = _world(tmp_path, monkeypatch, {})
    old, old_id = _learning(ldir, "Use tox for the matrix")
    new, new_id = _learning(ldir, "Use nox for the matrix", day="2026-10-02")
    copy = old.with_name(old.stem + "-copy.md")
    copy.write_text(old.read_text(encoding="utf-8").replace("body.", "body, and pin it."), encoding="utf-8")
    _learning(ldir, "Use uv to install", day="2026-10-03")
    before = {p: p.read_bytes() for p in (old, copy, new)}
    fake_claude.control(bin_dir, mode="ok", answer={"deprecate_learnings": [{"id": old_id, "by": new_id}]})
    result = job.run(str(mdir), str(ldir), "demo", config.defaults(), os.environ, NOW)
    assert {p: p.read_bytes() for p in before} == before  # neither text is lost nor hidden
    assert any(old_id in p and str(copy) in p for p in result.problems), result.problems
    assert f"[{old_id}]" not in fake_claude.calls(bin_dir)[0]["stdin"]
