"""``lh memory usage --all-projects`` with one project: its header named that project's folder next to
"every project", as though the one folder were all of them."""

import time

from lazy_harness import paths
from lazy_harness.memory import usage_log
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()


def test_every_project_with_one_folder_says_how_many_folders_not_which(tmp_path, monkeypatch):
    here = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(here)
    usage_log.append(paths.memory_dir(here), [usage_log.line("session", NOW - 300, session="s1", chars=20)])
    r = invoke("memory", "usage", "--all-projects")
    assert r.code == 0, r
    assert r.out.splitlines()[0] == "memory usage of every project (1 memory folder)", r.out
    alone = invoke("memory", "usage")  # one project asked for: its folder is named
    assert alone.out.splitlines()[0].endswith(f"({paths.memory_dir(here)})"), alone.out


def test_every_project_with_two_folders_counts_them(tmp_path, monkeypatch):
    here, other = ms.make_project(str(tmp_path), "app"), ms.make_project(str(tmp_path), "other")
    monkeypatch.chdir(here)
    for project in (here, other):
        usage_log.append(paths.memory_dir(project), [usage_log.line("session", NOW - 300, session="s1", chars=20)])
    r = invoke("memory", "usage", "--all-projects")
    assert r.out.splitlines()[0] == "memory usage of every project (2 memory folders)", r.out
