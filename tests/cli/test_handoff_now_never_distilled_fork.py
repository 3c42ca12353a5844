"""``lh knowledge handoff-now`` of a fork that was never distilled, all of whose turns its parent's
distillation covers and that said nothing of its own: it makes no call (ADR 0075), and says what is
true (not "since the last distillation": there was none of it), and the fork's own showings are
counted as the worker counts them when it skips a session memory holds (ADR 0036)."""

import time

from lazy_harness import paths
from lazy_harness.memory import usage, usage_log
from lazy_harness.worker import pipeline
from tests.cli.lhrun import invoke
from tests.support import fake_claude
from tests.worker.spendrig import configure, run_worker
from tests.worker.test_cursor_forkfx import FORK, FORK_ENDS, TEMPLATE, _distil, _parent, _tokens, _write

from pathlib import Path

from tests.support.sessions import place


def _silent_fork(project, tokens):
    """The fork of the parent's three turns, before anything was said in it."""
    payload = place(project, "forked.jsonl")
    lines = Path(payload["transcript_path"]).read_text(encoding="utf-8").splitlines(True)
    _write(payload, lines[:FORK_ENDS[2]], tokens)
    return payload


def test_handoff_now_of_a_fork_never_distilled_says_so_and_counts_its_showings(isolated_home, tmp_path,
                                                                                monkeypatch, project):
    bin_dir = fake_claude.use(tmp_path, monkeypatch, template=TEMPLATE)
    configure(isolated_home)
    tokens = _tokens()
    assert _distil(_parent(project, 3, tokens))["reason"] == "distilled"
    calls = len(fake_claude.calls(bin_dir))
    _silent_fork(project, tokens)
    mdir = paths.memory_dir(str(project))
    usage.note(None, FORK, "startup", 300, [("d-0123abcd", 120)], time.time() - 30, mdir)  # its start was shown memory
    monkeypatch.chdir(project)
    r = invoke("knowledge", "handoff-now", "--session", FORK)
    assert r.code == 0, r.err
    assert len(fake_claude.calls(bin_dir)) == calls  # no call
    [said] = r.out.strip().splitlines()
    assert pipeline.NOTHING_NEW not in said, said  # it was never distilled
    assert said.startswith(f"session {FORK}: {pipeline.FORK_HELD}: no model call"), said
    assert "--again" in said and said.endswith("nothing queued"), said
    sessions = [rec for rec in usage_log.read(mdir) if rec.get("session") == FORK]
    assert sessions, "the fork's showings were never counted"
    assert run_worker().processed == 0
