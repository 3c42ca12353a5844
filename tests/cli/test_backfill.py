"""lh backfill: never-distilled interactive sessions, counted and priced first, queued oldest first."""

import os
import time

from lazy_harness import paths, queue
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import worker_lock_held
from tests.support.sessions import place
from tests.worker.spendrig import configure, tasks

SIDS = [f"aaaaaaa{i}-0000-4000-8000-000000000000" for i in range(3)]


def _sessions(tmp_path) -> list[dict]:
    """Three interactive sessions of two projects, 5, 3 and 1 days old, and a headless one."""
    out = []
    for i, (name, age) in enumerate((("shop", 5), ("blog", 3), ("shop", 1))):
        proj = tmp_path / name
        proj.mkdir(exist_ok=True)
        payload = place(proj, session_id=SIDS[i])
        when = time.time() - age * 86400
        os.utime(payload["transcript_path"], (when, when))
        out.append(payload)
    place(tmp_path / "shop", "headless.jsonl")
    return out


def test_dry_run_counts_and_prices_and_queues_nothing(isolated_home, tmp_path):
    _sessions(tmp_path)
    out = invoke("backfill", "--dry-run")
    assert out.code == 0, out
    assert out.out.startswith("3 session(s) since ") and "estimated cost $" in out.out
    assert [sid for sid in SIDS if sid in out.out] == SIDS  # listed oldest first
    assert queue.pending(paths.queue_dir()) == []


def test_queues_oldest_first_skipping_distilled_ones(isolated_home, tmp_path):
    payloads = _sessions(tmp_path)
    q = paths.queue_dir()
    queue.ensure_layout(q)
    queue.mark_done(q, SIDS[1], time.time(), time.time())  # already distilled
    with worker_lock_held(paths.claude_dir()):
        out = invoke("backfill", "--since", "30d")
        assert out.code == 0, out
        assert "2 session(s)" in out.out and "[1/2] queued" in out.out and "[2/2] queued" in out.out
        assert [t["session_id"] for t in tasks("")] == [SIDS[0], SIDS[2]]
        assert {t["event"] for t in tasks("")} == {"Backfill"}
        assert tasks("")[0]["session_jsonl"] == payloads[0]["transcript_path"]
        again = invoke("backfill")  # waiting ones are not queued twice
        assert again.out.startswith("0 session(s)")


def test_since_and_project_narrow_it_down(isolated_home, tmp_path):
    _sessions(tmp_path)
    assert invoke("backfill", "--dry-run", "--since", "2d").out.startswith("1 session(s)")
    out = invoke("backfill", "--dry-run", "--project", str(tmp_path / "shop"))
    assert out.out.startswith("2 session(s)") and SIDS[1] not in out.out


def test_stays_within_the_cap(isolated_home, tmp_path):
    configure(isolated_home, budget={"daily_usd": 0.05})
    _sessions(tmp_path)
    with worker_lock_held(paths.claude_dir()):
        out = invoke("backfill")
    assert out.code == 0, out
    queued = tasks("")
    assert 1 <= len(queued) < 3 and queued[0]["session_id"] == SIDS[0]
    assert f"{3 - len(queued)} session(s) left for later" in out.out
