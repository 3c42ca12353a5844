"""``lh memory usage --all-projects`` counts each memory folder on its own: a folder's merges, forgets
and resets apply to its lines only (ids come from an entry's text, so two projects' entries can share
one), and each row names its project (docs/how/usage.md)."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import changes, entries, ids, journal, usage_log
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
X_TEXT, Y_TEXT = "npm install fails behind the proxy", "The proxy breaks `npm ci`"
X, Y = ids.entry_id("failure", X_TEXT), ids.entry_id("failure", Y_TEXT)


def _write(mdir: str, project: str, summaries: list[str]) -> None:
    os.makedirs(mdir, exist_ok=True)
    with open(os.path.join(mdir, "failures.jsonl"), "a", encoding="utf-8") as fh:
        for n, text in enumerate(summaries):
            rec = entries.record("failure", {"summary": text}, {"project": project, "session_id": f"s{n}",
                                                                   "task_id": "t"}, NOW - 9000 + n)
            fh.write(entries.json_line(rec) + "\n")


def _mark(mdir: str, op: str, target: str, by: str | None) -> None:
    j = journal.Journal(mdir, "consolidate", os.path.basename(mdir), NOW)
    changes.add_mark(mdir, j, op, target, by, "same", NOW - 100)
    j.save()


@pytest.fixture
def two(tmp_path, monkeypatch, isolated_home):
    """alpha merged X into Y and was shown both in one session; beta has its own X, shown in three."""
    alpha, beta = ms.make_project(str(tmp_path), "alpha"), ms.make_project(str(tmp_path), "beta")
    ma, mb = paths.memory_dir(alpha), paths.memory_dir(beta)
    _write(ma, "alpha", [X_TEXT, Y_TEXT])
    _write(mb, "beta", [X_TEXT])
    line = usage_log.line
    usage_log.append(ma, [line("session", NOW - 5000, session="a1", chars=100),
                          line("shown", NOW - 5000, session="a1", id=X, chars=50),
                          line("shown", NOW - 5000, session="a1", id=Y, chars=50)])
    for s in ("b1", "b2", "b3"):
        usage_log.append(mb, [line("session", NOW - 4000, session=s, chars=60),
                              line("shown", NOW - 4000, session=s, id=X, chars=60)])
    _mark(ma, "merge", X, Y)
    monkeypatch.chdir(tmp_path)
    return alpha, beta, ma, mb


def _json(*args: str) -> dict:
    r = invoke("memory", "usage", "--json", *args)
    assert r.code == 0, r.err
    return json.loads(r.out)


def test_one_projects_merge_leaves_anothers_entry_of_the_same_id_alone(two):
    alpha, beta, ma, mb = two
    got = _json("--all-projects")
    rows = {(e["project"], e["id"]): e["shown"] for e in got["entries"]}
    assert rows == {("beta", X): 3, ("alpha", Y): 1}
    assert (got["shown"], got["sessions"]) == (4, 4)


def test_every_projects_rows_are_each_projects_own_rows_labelled(two):
    alpha, beta, ma, mb = two
    both = _json("--all-projects")["entries"]
    for folder, mdir in ((alpha, ma), (beta, mb)):
        alone = _json("--project", folder)["entries"]
        assert all("project" not in e and "memory_dir" not in e for e in alone)  # one project: as before
        mine = [{k: v for k, v in e.items() if k not in ("project", "memory_dir")}
                for e in both if e["memory_dir"] == mdir]
        assert mine == alone


def test_the_text_report_names_each_rows_project(two):
    r = invoke("memory", "usage", "--all-projects")
    assert r.code == 0, r.err
    table = r.out.split("total:")[0].splitlines()
    assert next(ln for ln in table if ln.startswith(X)).split()[-1] == "beta"
    assert next(ln for ln in table if ln.startswith(Y)).split()[-1] == "alpha"
    assert table[1].split()[-1] == "project"
    one = invoke("memory", "usage", "--project", two[1]).out.splitlines()
    assert one[1].endswith("last used") and one[2].startswith(X) and not one[2].endswith("beta")  # as before


def test_a_forget_in_one_project_keeps_anothers_costly_entry(two):
    alpha, beta, ma, mb = two
    _mark(ma, "forget", Y, None)
    usage_log.append(ma, [usage_log.line("shown", NOW - 3000, session="a2", id=X, chars=999)])
    costly = invoke("memory", "usage", "--all-projects").out.split("most characters for the least use:")[1]
    lines = [ln.split() for ln in costly.strip().splitlines()]
    assert [(ln[0], ln[1]) for ln in lines] == [(X, "beta")]  # alpha's X is merged, its Y forgotten


def test_a_reset_in_one_project_keeps_anothers_counts(two):
    alpha, beta, ma, mb = two
    r = invoke("memory", "usage", "--reset", Y, "--project", alpha)
    assert r.code == 0, r.err
    usage_log.append(mb, [usage_log.line("shown", NOW - 4000, session="b4", id=Y, chars=5)])
    rows = {(e["project"], e["id"]): e["shown"] for e in _json("--all-projects")["entries"]}
    assert rows == {("beta", X): 3, ("beta", Y): 1}


def test_every_project_is_listed_from_a_folder_deleted_under_the_shell(two, tmp_path, monkeypatch):
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    r = invoke("memory", "usage", "--all-projects", "--json")
    assert r.code == 0, r.err
    assert {(e["project"], e["id"]) for e in json.loads(r.out)["entries"]} == {("beta", X), ("alpha", Y)}
