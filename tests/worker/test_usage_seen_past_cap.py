"""A session whose showings file (``<state>/<session>.seen``) grows past 1 MiB between two
distillations. The worker's accounting dates a ``session`` line at each showing with the characters
injected up to it since the session began: it reads the whole file, so the totals are the session's
(not a window's counted from 0), and the second distillation adds no line the first wrote (a
window-relative total is a new ``chars`` and was appended again)."""

import os
import time

from lazy_harness import paths
from lazy_harness.memory import usage, usage_log
from lazy_harness.worker import usage as accounting

SID = "dddddddd-1111-4111-8111-00000000000a"
IDS = [f"d-{i:08x}" for i in range(40)]
N = 3000  # showings in each part: 1000 characters each, 20 entries of 50 characters


def _note(n: int, t0: float, mdir: str) -> None:
    for k in range(n):
        usage.note(None, SID, "prompt", 1000, [(IDS[(k + j) % 40], 50) for j in range(20)], t0 + k, mdir)


def test_a_session_past_one_mib_distilled_twice_counts_each_character_once(isolated_home, tmp_path):
    mdir = os.path.join(paths.data_dir(), "projects", "demo-1234abcd")
    os.makedirs(mdir)
    ldir, transcript = str(tmp_path / "learn"), str(tmp_path / "t.jsonl")
    os.makedirs(ldir)
    open(transcript, "w").close()
    now = time.time()
    _note(N, now - 10 * 86400, mdir)  # ten days ago, distilled then
    assert os.path.getsize(usage.seen_file(None, SID)) < usage.MAX_SEEN
    accounting.account(SID, transcript, {}, mdir, ldir, None, now - 10 * 86400 + 4000)
    _note(N, now - 5000, mdir)  # resumed today, distilled again
    assert os.path.getsize(usage.seen_file(None, SID)) > usage.MAX_SEEN
    accounting.account(SID, transcript, {}, mdir, ldir, None, now)
    records = usage_log.read(mdir)
    chars = [r["chars"] for r in records if r["op"] == "session"]
    assert len(chars) == len(set(chars)) == 2 * N, (len(chars), len(set(chars)))  # one per showing, none twice
    assert sorted(chars) == [1000 * (k + 1) for k in range(2 * N)]  # counted from the session's start
    assert usage_log.tally(records).totals()["injected_chars"] == 2 * N * 1000
    assert usage_log.this_week(mdir, now)["injected_chars"] == N * 1000
