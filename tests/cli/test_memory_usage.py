"""``lh memory usage``, its ``--json`` and ``--reset``, and the week's line in ``lh status`` (ADR 0036)."""

import json
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import usage_log
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
F, D, L = "f-00000001", "d-00000002", "l-00000003"


@pytest.fixture
def here(tmp_path, monkeypatch, isolated_home):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    mdir = paths.memory_dir(project)
    line = usage_log.line
    usage_log.append(mdir, [
        line("session", NOW - 3600, session="s1", chars=2000),
        line("shown", NOW - 3600, session="s1", id=F, chars=300),
        line("shown", NOW - 3600, session="s1", id=D, chars=900),
        line("shown", NOW - 3600, session="s1", id=L, chars=50),
        line("used", NOW - 3500, session="s1", id=F, evidence="make deploy"),
        line("session", NOW - 60, session="s2", chars=1500),
        line("shown", NOW - 60, session="s2", id=F, chars=300),
        line("shown", NOW - 60, session="s2", id=D, chars=900),
        line("recurred", NOW - 30, session="s2", id=F),
        line("session", NOW - 30 * 86400, session="old", chars=700),  # a month ago: not this week
    ])
    return project


def test_json_is_one_object_with_the_entries_and_totals_that_agree(here):
    r = invoke("memory", "usage", "--json")
    assert r.code == 0, r.err
    got = json.loads(r.out)
    assert set(got) == {"entries", "sessions", "shown", "used", "injected_chars", "recurrences"}
    rows = {e["id"]: e for e in got["entries"]}
    assert set(rows[F]) == {"id", "kind", "shown", "used", "recurred", "last_shown", "last_used"}
    assert (rows[F]["kind"], rows[F]["shown"], rows[F]["used"], rows[F]["recurred"]) == ("failure", 2, 1, 1)
    assert (rows[D]["shown"], rows[D]["used"], rows[D]["last_used"]) == (2, 0, None)
    assert rows[L]["kind"] == "learning"
    assert all(isinstance(got[k], int) for k in ("sessions", "shown", "used", "injected_chars", "recurrences"))
    assert got["shown"] == sum(e["shown"] for e in got["entries"]) == 5
    assert got["used"] == sum(e["used"] for e in got["entries"]) == 1
    assert got["recurrences"] == 1 and got["sessions"] == 3 and got["injected_chars"] == 4200
    assert rows[F]["last_shown"][:4].isdigit() and "T" in rows[F]["last_shown"]  # ISO 8601


def test_the_report_lists_entries_totals_and_what_costs_most_for_least_use(here):
    r = invoke("memory", "usage")
    assert r.code == 0, r.err
    assert "total: 3 session(s), 5 shown, 1 used, 4200 characters injected, 1 recurrence(s)" in r.out
    costly = r.out.split("most characters for the least use:")[1]
    assert costly.strip().splitlines()[0].startswith(D)  # 1800 characters, never used


def test_reset_starts_an_entrys_counts_over(here):
    r = invoke("memory", "usage", "--reset", D)
    assert r.code == 0 and "counts anew" in r.out
    rows = {e["id"]: e for e in json.loads(invoke("memory", "usage", "--json").out)["entries"]}
    assert D not in rows and rows[F]["shown"] == 2
    bad = invoke("memory", "usage", "--reset", "nonsense")
    assert bad.code == 1 and "not an id" in bad.err


def test_all_projects_adds_every_projects_usage(here, tmp_path):
    other = ms.make_project(str(tmp_path), "other")
    usage_log.append(paths.memory_dir(other), [usage_log.line("shown", NOW, session="s9", id=D, chars=10)])
    got = json.loads(invoke("memory", "usage", "--all-projects", "--json").out)
    # each project's D its own row (ids come from the text: two projects' entries can share one)
    rows = {(e["memory_dir"], e["id"]): e["shown"] for e in got["entries"]}
    assert (rows[paths.memory_dir(here), D], rows[paths.memory_dir(other), D]) == (2, 1)
    assert got["shown"] == 6


def test_status_has_one_line_for_the_week(here):
    r = invoke("status")
    assert r.code == 0, r.err
    line = next(ln for ln in r.out.splitlines() if ln.startswith("usage in the last 7 days:"))
    assert line.startswith("usage in the last 7 days: 5 shown, 1 used, 3500 characters injected in 2 session(s)")
