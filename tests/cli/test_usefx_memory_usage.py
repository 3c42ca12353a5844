"""``lh memory usage`` after review r4 (ADR 0036): an entry the audit cannot measure shows "-" for used
and stays off the costly list; an id no longer in memory is marked so, not left with a blank title;
``--all-projects`` adds one session's characters injected across folders."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import entries, files, ids, usage_log
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
STAGING = {"summary": "Keep the staging database on the same minor version as production"}
REDIS = {"summary": "Sessions were cached in the wrong place", "rationale": "keep them in redis_cluster_main"}
GONE = "d-0000dead"  # shown, then deleted from decisions.jsonl by hand


def _write(mdir: str, item: dict) -> str:
    os.makedirs(mdir, exist_ok=True)
    with open(os.path.join(mdir, files.DECISIONS), "a") as fh:
        fh.write(entries.json_line(entries.record("decision", item, {"project": "p", "session_id": "e", "task_id": "t"},
                                                  1.0)) + "\n")
    return ids.entry_id("decision", item["summary"])


@pytest.fixture
def here(tmp_path, monkeypatch, isolated_home):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    mdir = paths.memory_dir(project)
    staging, redis = _write(mdir, STAGING), _write(mdir, REDIS)
    rows = []
    for k in range(3):
        sid, at = f"s{k}", NOW - 3600 + k
        rows += [usage_log.line("session", at, session=sid, chars=3000),
                 usage_log.line("shown", at, session=sid, id=staging, chars=900, measurable=False),
                 usage_log.line("shown", at, session=sid, id=redis, chars=200),
                 usage_log.line("shown", at, session=sid, id=GONE, chars=450)]
    usage_log.append(mdir, rows)
    return project, staging, redis


def test_an_unmeasurable_entry_shows_a_dash_for_used_and_is_not_among_the_costly(here):
    _, staging, redis = here
    r = invoke("memory", "usage")
    assert r.code == 0, r.err
    row = next(ln for ln in r.out.splitlines() if ln.startswith(staging))
    assert row.split()[2:4] == ["3", "-"]
    assert next(ln for ln in r.out.splitlines() if ln.startswith(redis)).split()[2:4] == ["3", "0"]
    costly = r.out.split("most characters for the least use:")[1]
    assert staging not in costly and redis in costly
    got = {e["id"]: e for e in json.loads(invoke("memory", "usage", "--json").out)["entries"]}
    assert got[staging]["measurable"] is False and "measurable" not in got[redis]
    assert got[staging]["used"] == 0


def test_an_id_no_longer_in_memory_is_marked_in_the_costly_list(here):
    _, _, redis = here
    costly = invoke("memory", "usage").out.split("most characters for the least use:")[1].splitlines()
    gone = next(ln for ln in costly if GONE in ln)
    assert gone.rstrip().endswith("(no longer in memory)")
    assert next(ln for ln in costly if redis in ln).rstrip().endswith(REDIS["summary"])


def test_all_projects_adds_one_sessions_characters_injected_in_two_folders(here, tmp_path):
    other = ms.make_project(str(tmp_path), "other")
    usage_log.append(paths.memory_dir(other), [usage_log.line("session", NOW - 3600, session="s0", chars=570),
                                               usage_log.line("shown", NOW - 3600, session="s0", id=GONE, chars=5)])
    one = json.loads(invoke("memory", "usage", "--json").out)["injected_chars"]
    both = json.loads(invoke("memory", "usage", "--json", "--all-projects").out)
    assert both["injected_chars"] == one + 570 and both["sessions"] == 3
