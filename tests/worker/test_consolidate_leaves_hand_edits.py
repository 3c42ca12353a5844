"""Consolidation leaves alone a decision, failure or learning the person edited by hand since it was
written (its text no longer the one its ``text_digest`` was taken of): the person's word is not hidden
for a text the model judged newer. The change is not applied, and the result and journal say why."""

import json
import os
from pathlib import Path

import pytest

from lazy_harness import config
from lazy_harness.memory import entries, ids, marks
from lazy_harness.memory.learnings import text_key
from lazy_harness.worker import consolidate as job
from tests.support import fake_claude

NOW = 1_790_000_000.0
DAY = 86400.0


@pytest.fixture
def world(tmp_path, monkeypatch):
    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer={})
    ldir = tmp_path / "learnings"
    ldir.mkdir()
    return bin_dir, tmp_path / "mem", ldir


def _entries(mdir: Path, kind: str, summaries: list[str]) -> list[str]:
    mdir.mkdir(parents=True, exist_ok=True)
    name = "decisions.jsonl" if kind == "decision" else "failures.jsonl"
    with open(mdir / name, "a", encoding="utf-8") as fh:
        for n, summary in enumerate(summaries):
            rec = entries.record(kind, {"summary": summary, "rationale": "measured"},
                                 {"project": "demo", "session_id": f"s{n}", "task_id": "t"}, NOW - 10 * DAY + n * 60)
            fh.write(entries.json_line(rec) + "\n")
    return [ids.entry_id(kind, s) for s in summaries]


def _reword(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def _learning(ldir: Path, title: str, text: str, day: str) -> tuple[Path, str]:
    folder = ldir / day[:7]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{day}-{title.lower().replace(' ', '-')}.md"
    path.write_text(f"---\ntitle: {title}\norigin: demo\norigin_session: s1\ncreated: '{day}T10:00:00+00:00'\n"
                    f"tags: []\nscope: project\nstatus: active\ntext_digest: {text_key(text)}\n---\n\n"
                    f"## Learning\n\n{text}\n\n## Context\n\nWhere it applies.\n", encoding="utf-8")
    return path, ids.learning_id("demo", title)


def _run(bin_dir: Path, mdir: Path, ldir: Path, answer: dict) -> job.Result:
    fake_claude.control(bin_dir, mode="ok", answer=answer)
    return job.run(str(mdir), str(ldir), "demo", config.defaults(), os.environ, NOW)


def test_a_decision_edited_by_hand_is_not_superseded(world):
    bin_dir, mdir, ldir = world
    old, new = _entries(mdir, "decision", ["Serve with vLLM", "Serve with llama.cpp instead of vLLM"])
    _reword(mdir / "decisions.jsonl", "Serve with vLLM", "Serve with vLLM on the GPU hosts only")
    result = _run(bin_dir, mdir, ldir, {"supersede": [{"old": old, "new": new, "reason": "switched runtimes"}]})
    assert old not in marks.hidden(str(mdir)), result
    assert any("edited by hand" in line and old in line for line in result.not_applied), result


def test_the_other_decisions_are_still_superseded(world):
    bin_dir, mdir, ldir = world
    other, old, new = _entries(mdir, "decision", ["Log as text", "Serve with vLLM", "Serve with llama.cpp"])
    _reword(mdir / "decisions.jsonl", "Log as text", "Log as JSON lines")
    result = _run(bin_dir, mdir, ldir, {"supersede": [{"old": old, "new": new, "reason": "switched"},
                                                      {"old": other, "new": new, "reason": "switched"}]})
    assert set(marks.hidden(str(mdir))) == {old}, result
    [run] = (mdir / "journal").glob("*.json")
    said = json.loads(run.read_text(encoding="utf-8"))["changes"]
    assert any("edited by hand" in line and other in line for line in said), said


def test_a_learning_edited_by_hand_is_not_deprecated(world):
    bin_dir, mdir, ldir = world
    _entries(mdir, "decision", ["one decision"])
    old_path, old = _learning(ldir, "Pin the CLI at 2.1.300", "Pin 2.1.300.", "2026-10-01")
    _, new = _learning(ldir, "Pin the CLI at 2.1.330", "Pin 2.1.330.", "2026-11-01")
    _reword(old_path, "Pin 2.1.300.", "Pin 2.1.300: 2.1.330 breaks our hooks.")
    result = _run(bin_dir, mdir, ldir, {"deprecate_learnings": [{"id": old, "by": new, "reason": "newer pin"}]})
    assert "status: active" in old_path.read_text(encoding="utf-8"), result
    assert any("edited by hand" in line and old in line for line in result.not_applied), result
