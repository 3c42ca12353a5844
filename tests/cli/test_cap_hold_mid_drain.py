"""A cap nearly reached partway through the queue: the worker stops before a call that would pass it;
every task left waiting says why, in `lh status` and `lh queue`, not "not distilled yet"."""

import pytest

from tests.cli.lhrun import invoke
from tests.worker.spendrig import nearly_reached, tasks

# why: spend written at the wall clock, "today" taken by the code's own clock: one local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")


def test_each_task_left_by_a_cap_nearly_reached_names_the_cap(isolated_home, tmp_path, monkeypatch):
    project = nearly_reached(isolated_home, tmp_path, monkeypatch, sessions=4)

    assert len(tasks("done")) == 2 and len(tasks("")) == 2  # $0.80 spent; the next call (~$0.41) would pass $1
    monkeypatch.chdir(project)
    status = invoke("status").out
    waiting = [line for line in status.splitlines() if line.startswith("  ") and "aaaaaaaa  waiting" in line]
    assert len(waiting) == 2 and all("daily cap $1.00 nearly reached" in line for line in waiting), status
    listed = invoke("queue").out
    pending = [line for line in listed.splitlines() if "-aaaaaaaa" in line and " pending " in line]
    assert len(pending) == 2 and all("daily cap $1.00 nearly reached" in line for line in pending), listed
