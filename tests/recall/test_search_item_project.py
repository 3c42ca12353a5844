"""``lh memory search`` names the project of every hit, open items too: an item carries no project of
its own, so it is its memory folder's (the current project's name for the current folder; for another
folder, with ``--all-projects``, the name the page gives it: its newest decision's or failure's, else
a learning's origin, else its handoff.md's, else the folder's key; memory/folder_names.py), in the text
lines and in ``--json`` alike."""

import json
import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = 1_790_000_000.0


@pytest.fixture
def two(tmp_path):
    shop, tool = ms.make_project(tmp_path, "shop"), ms.make_project(tmp_path, "tool")
    ms.write_handoff(paths.memory_dir(shop), ["backfill the converted amounts"], "s-shop", NOW - 60, project="shop")
    ms.write_handoff(paths.memory_dir(tool), ["handle Windows paths in the converter"], "s-tool", NOW - 50,
                     project="tool")
    ms.write_jsonl(os.path.join(paths.memory_dir(shop), files.DECISIONS),
                   [ms.decision(NOW - 3600, "Amounts are converted at the API edge", project="shop")])
    return shop, tool


def _project_of(lines: list[str], text: str) -> str:
    line = next(ln for ln in lines if text in ln)
    return line.split("  ")[3]


def test_an_open_item_is_listed_with_its_project(two):
    shop, _ = two
    got = invoke("memory", "search", "converted", "--project", shop)
    assert got.code == 0, got.err
    lines = got.out.splitlines()
    assert _project_of(lines, "backfill the converted amounts") == "shop"
    assert _project_of(lines, "Amounts are converted") == "shop"


def test_with_all_projects_each_open_item_names_its_own_project(two):
    shop, _ = two
    got = invoke("memory", "search", "converter", "converted", "--project", shop, "--all-projects")
    assert got.code == 0, got.err
    lines = got.out.splitlines()
    assert _project_of(lines, "backfill the converted amounts") == "shop"
    assert _project_of(lines, "handle Windows paths in the converter") == "tool"
    as_json = invoke("memory", "search", "converter", "converted", "--project", shop, "--all-projects", "--json")
    by_text = {o.get("summary"): o["project"] for o in map(json.loads, as_json.out.splitlines())}
    assert by_text["backfill the converted amounts"] == "shop"
    assert by_text["handle Windows paths in the converter"] == "tool"


def test_a_folder_without_a_named_handoff_takes_the_name_its_entries_carry(tmp_path):
    shop, tool = ms.make_project(tmp_path, "shop"), ms.make_project(tmp_path, "tool")
    mdir = paths.memory_dir(tool)
    os.makedirs(mdir)
    with open(os.path.join(mdir, files.HANDOFF), "w", encoding="utf-8") as fh:
        fh.write("- handle Windows paths in the converter\n")  # written by hand: no marker
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 3600, "Config is TOML", project="tool")])
    ms.write_jsonl(os.path.join(paths.memory_dir(shop), files.DECISIONS),
                   [ms.decision(NOW - 3600, "Amounts are converted at the API edge", project="shop")])
    got = invoke("memory", "search", "converter", "--project", shop, "--all-projects")
    assert got.code == 0, got.err
    assert _project_of(got.out.splitlines(), "handle Windows paths") == "tool"
