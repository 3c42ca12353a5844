"""``lh status`` "usage in the last 7 days" counts a failure consolidation merged into another for the one it
was merged into, as ``lh memory usage`` does (memory/usage_log.py ``this_week`` with the folder's
merges): a session shown both counts once."""

import json
import os
import time

from lazy_harness import paths
from lazy_harness.atomic import append_line
from lazy_harness.memory import marks, usage_log
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
DROPPED, KEPT = "f-0000000a", "f-0000000b"


def _project(tmp_path, monkeypatch) -> str:
    project = ms.make_project(str(tmp_path), "alpha")
    monkeypatch.chdir(project)
    mdir = paths.memory_dir(project)
    os.makedirs(mdir, exist_ok=True)
    append_line(marks.path_of(mdir), json.dumps({"op": "merge", "id": DROPPED, "by": KEPT, "reason": "duplicate",
                                                 "ts": usage_log.stamp(NOW - 3600), "run": "r1"}))
    return mdir


def _week_line() -> str:
    r = invoke("status")
    assert r.code == 0, r.out + r.err
    return next(ln for ln in r.out.splitlines() if ln.startswith("usage in the last 7 days:"))


def _whole(mdir: str) -> dict:
    return usage_log.tally(usage_log.read(mdir), since=NOW - usage_log.WEEK,
                           into=usage_log.merged_into(mdir)).totals()


def test_the_week_counts_a_merged_failure_as_the_one_it_was_merged_into(isolated_home, tmp_path, monkeypatch):
    mdir = _project(tmp_path, monkeypatch)
    recs = []
    for n, sid in enumerate(("s1", "s2")):
        at = NOW - 7200 + n
        recs += [usage_log.line("session", at, session=sid, chars=400),
                 usage_log.line("shown", at, session=sid, id=DROPPED, chars=100),
                 usage_log.line("shown", at, session=sid, id=KEPT, chars=100),
                 usage_log.line("used", at + 10, session=sid, id=DROPPED, evidence="make stop-dev"),
                 usage_log.line("used", at + 10, session=sid, id=KEPT, evidence="make stop-dev")]
    usage_log.append(mdir, recs)
    whole = _whole(mdir)
    assert (whole["shown"], whole["used"]) == (2, 2)
    assert usage_log.this_week(mdir, NOW) == whole
    assert _week_line().startswith("usage in the last 7 days: 2 shown, 2 used, 800 characters injected in 2 session(s)")


def test_a_reset_of_the_kept_failure_drops_a_use_of_the_merged_one_shown_before_the_week(isolated_home, tmp_path,
                                                                                        monkeypatch):
    """The merged failure shown nine days ago, the kept one reset since, the session's use this week:
    it does not count, as in the whole record."""
    mdir = _project(tmp_path, monkeypatch)
    old = NOW - 9 * 86400
    usage_log.append(mdir, [usage_log.line("session", old, session="s9", chars=300),
                            usage_log.line("shown", old, session="s9", id=DROPPED, chars=100),
                            usage_log.line("reset", NOW - 5 * 86400, id=KEPT),
                            usage_log.line("used", NOW - 600, session="s9", id=DROPPED, evidence="make stop-dev")])
    assert usage_log.this_week(mdir, NOW) == _whole(mdir)
    assert _whole(mdir)["used"] == 0
