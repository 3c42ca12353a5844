"""The views that read every entry (``lh status``, ``lh memory held``, the page) check each text once
against the hold rules and keep the verdict (memory/held_review.py). After an upgrade that changed the
rules every text is checked again, a few milliseconds each: a large memory waits seconds. What was
checked before an interruption (Ctrl-C) is kept, and the person is told why the command waits."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import held_review, trust, verdicts
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
CHECK = trust.reason
TOPICS = ["retry budget", "cache key", "pool size", "log level", "index shard", "queue depth", "token ttl",
          "build matrix", "schema field", "timeout"]


def _memory(tmp_path, n: int) -> tuple[str, str]:
    """A project whose decisions.jsonl holds ``n`` decisions of distinct texts (written as the worker
    writes them), and its memory folder."""
    root = ms.make_project(str(tmp_path), "svc")
    mdir = paths.memory_dir(root)
    os.makedirs(mdir, exist_ok=True)
    ms.write_jsonl(os.path.join(mdir, "decisions.jsonl"), [
        ms.decision(NOW - 3600 + k, f"Keep the {TOPICS[k % len(TOPICS)]} of service {k} at {k + 3}",
                    f"Measured on run {k}: lower values stalled the nightly job.", project="svc")
        for k in range(n)])
    return root, mdir


def _counting(monkeypatch, stop_after: int | None = None) -> list[str]:
    """Count the hold check's runs on a text; with ``stop_after``, the next run is a Ctrl-C."""
    checked: list[str] = []

    def reason(text: str) -> str | None:
        if stop_after is not None and len(checked) == stop_after:
            raise KeyboardInterrupt
        checked.append(text)
        return CHECK(text)

    monkeypatch.setattr(trust, "reason", reason)
    return checked


def test_verdicts_worked_out_before_a_ctrl_c_are_kept(tmp_path, monkeypatch):
    _, mdir = _memory(tmp_path, 30)
    ldir = paths.learnings_dir()
    _counting(monkeypatch, stop_after=12)
    with pytest.raises(KeyboardInterrupt):
        held_review.listing(mdir, ldir)
    again = _counting(monkeypatch)
    held_review.listing(mdir, ldir)
    assert len(again) == 30 - 12  # only the texts not checked before the interruption
    last = _counting(monkeypatch)
    held_review.listing(mdir, ldir)
    assert last == []


def test_status_says_why_it_waits_when_many_entries_need_the_check(tmp_path, monkeypatch):
    root, _ = _memory(tmp_path, verdicts.BULK + 5)
    monkeypatch.chdir(root)
    first = invoke("status")
    assert first.code == 0, first.err
    said = [line for line in first.err.splitlines() if "hold rules" in line]
    assert len(said) == 1, first.err  # said once, not once an entry
    assert "held for approval: none" in first.out
    second = invoke("status")  # every verdict kept: nothing to wait for, nothing said
    assert second.code == 0 and "hold rules" not in second.err, second.err
    assert "held for approval: none" in second.out


def test_a_few_new_entries_are_checked_without_a_word(tmp_path, monkeypatch):
    root, _ = _memory(tmp_path, verdicts.BULK - 1)
    monkeypatch.chdir(root)
    shown = invoke("memory", "held")
    assert shown.code == 0, shown.err
    assert "hold rules" not in shown.err


def test_the_page_says_so_in_the_terminal_running_lh_ui(tmp_path, capsys):
    from lazy_harness.ui import held_and_usage
    from lazy_harness.ui.reading import Project

    _, mdir = _memory(tmp_path, verdicts.BULK + 5)
    p = Project(os.path.basename(mdir), "svc", mdir, paths.learnings_dir())
    assert held_and_usage.held(p, "ask") == []
    assert capsys.readouterr().err.count("hold rules") == 1
    held_and_usage._HELD.clear()  # a page reload after a change: the verdicts are kept, nothing said
    assert held_and_usage.held(p, "ask") == []
    assert "hold rules" not in capsys.readouterr().err
