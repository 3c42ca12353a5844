"""``lh memory search`` without click (recall/search.py, lazy_harness/__main__.py): the same lines as
the click command, click never loaded, and every argument the quick parse is unsure of left to click."""

import subprocess
import sys

import pytest

from lazy_harness import paths
from lazy_harness.recall import search
from tests.cli.lhrun import invoke
from tests.cli.test_memory import DAY, NOW, search_memory
from tests.support import memory_samples as ms


def quick(*args: str) -> subprocess.CompletedProcess:
    """``python -m lazy_harness ARGS``, as the ``lh`` script runs it."""
    return subprocess.run([sys.executable, "-m", "lazy_harness", *args], capture_output=True, text=True, timeout=60)


@pytest.fixture
def memory(project, tmp_path):
    search_memory(project)
    other = ms.make_project(tmp_path, "other")
    ms.write_learning(paths.learnings_dir(), "Queue workers need a heartbeat", "other", NOW - 2 * DAY, slug="hb",
                      scope="project")
    return str(project), other


CASES = [
    ("queue",),
    ("queue", "--json"),
    ("queue", "-n", "2"),
    ("--kind", "learning", "queue"),
    ("queue", "--kind=failure", "--kind", "decision"),
    ("queue", "--since", ms.iso(NOW - 2 * DAY)[:10]),
    ("queue", "--all-projects", "--json"),
    ("queue", "--all"),
    ("nothing", "matches", "this"),
]


@pytest.mark.parametrize("args", CASES, ids=lambda a: " ".join(a))
def test_the_same_lines_with_and_without_click(memory, args):
    project, _ = memory
    assert search.parse([*args, "--project", project]) is not None  # the quick path takes these
    fast = quick("memory", "search", *args, "--project", project)
    slow = invoke("memory", "search", *args, "--project", project)  # click's own parse and command
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.code, slow.out, slow.err)
    if args[0] != "nothing":
        assert fast.stdout.count("\n") >= 1 and fast.returncode == 0
    else:
        assert fast.returncode == 1 and "no match for: nothing matches this" in fast.stderr  # as grep


def test_the_quick_path_does_not_load_click(memory, tmp_path):
    project, _ = memory
    probe = tmp_path / "modules.txt"
    code = ("import sys\nfrom lazy_harness.__main__ import main\n"
            f"try:\n    main(['memory', 'search', 'queue', '--project', {project!r}])\nexcept SystemExit:\n    pass\n"
            f"open({str(probe)!r}, 'w').write('\\n'.join(sorted(sys.modules)))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "Queue stuck" in r.stdout, r.stderr
    loaded = probe.read_text().split("\n")
    assert "click" not in loaded and "lazy_harness.cli" not in loaded
    assert "lazy_harness.recall.search" in loaded


@pytest.mark.parametrize("args", [
    ["--help"], ["queue", "--help"], ["queue", "-n", "0"], ["queue", "-n5"], ["queue", "-n=5"],
    ["queue", "--kind", "bogus"], ["queue", "--since", "yesterday"], [], ["--json"], ["queue", "--"],
    ["queue", "--bogus"], ["queue", "-x"], ["queue", "--project"], ["queue", "-n", "\u00b2"],
    ["queue", "-n", "1" * 5000],
])
def test_what_the_quick_parse_is_unsure_of_goes_to_click(memory, args):
    project, _ = memory
    assert search.parse(args) is None
    fast = quick("memory", "search", *args)
    slow = invoke("memory", "search", *args)
    assert fast.returncode == slow.code
    assert (fast.stdout, fast.stderr) == (slow.out, slow.err) or slow.code == 0  # --help: click's own text


def test_a_file_given_as_the_project_is_clicks_to_refuse(memory, tmp_path):
    path = tmp_path / "a-file"
    path.write_text("x")
    assert search.parse(["queue", "--project", str(path)]) is None
    r = quick("memory", "search", "queue", "--project", str(path))
    assert r.returncode == 2 and "is a file" in r.stderr


def test_a_project_only_learning_of_another_project_needs_all_projects(memory):
    project, other = memory
    here = quick("memory", "search", "heartbeat", "--project", project)
    assert "Queue workers need a heartbeat" not in here.stdout
    everywhere = quick("memory", "search", "heartbeat", "--project", project, "--all-projects")
    assert "Queue workers need a heartbeat" in everywhere.stdout and "[project-only: other]" in everywhere.stdout


def test_kind_and_date_find_a_weak_match_behind_many_strong_ones(tmp_path):
    """250 decisions hold the word in their summary and tags, one failure only in its prevention: the
    failure is found by ``--kind failure`` and by a ``--since`` that leaves only it (the kinds are
    part of the search; the pool for a date filter is wider)."""
    import os

    from lazy_harness.memory import files

    root = ms.make_project(tmp_path, "otters")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - 400 * DAY + i, f"otter otter rule {i}", "otter", tags=["otter"]) for i in range(250)])
    ms.write_jsonl(os.path.join(mem, files.FAILURES), [
        ms.failure(NOW - DAY, "Build broke on the lambda step", "pin the otter version")])
    for args in (["--kind", "failure"], ["--since", ms.iso(NOW - 30 * DAY)[:10]]):
        r = invoke("memory", "search", "otter", *args, "--project", root)
        assert r.code == 0 and "Build broke on the lambda step" in r.out, (args, r.out, r.err)


@pytest.mark.parametrize("day", ["2025-02-30", "2025-04-31", "2025-02-29", "2025/03/01"])
def test_a_date_that_does_not_exist_is_refused(day):
    assert not search.valid_since(day)
    assert search.valid_since("2024-02-29") and search.valid_since("2025-03-01")


@pytest.mark.parametrize("typed", ["pars", "parse", "front", "stream"])
def test_the_start_of_a_word_finds_it_when_its_stem_is_shorter(tmp_path, typed):
    """The help promises a word starting as typed: "pars" finds "Parsing" although the index holds
    Porter's "pars" and the typed prefix stems to "par" (no list of 3-letter prefixes)."""
    import os

    from lazy_harness.memory import files

    root = ms.make_project(tmp_path, "parser")
    ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS), [
        ms.decision(NOW - DAY, "Parsing YAML front matter with a streaming reader", "speed"),
        ms.decision(NOW - DAY, "Partial refunds go through the ledger", "audit")])
    r = invoke("memory", "search", typed, "--project", root)
    assert r.code == 0 and "Parsing YAML" in r.out and "Partial refunds" not in r.out, (r.out, r.err)
