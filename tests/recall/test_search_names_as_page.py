"""``lh memory search --all-projects`` names another project's open items as the page names that
project: by the name its newest decisions were written under (a project renamed keeps an older
handoff.md marker until its next session ends), else by the origin of the learnings written under
its key, then by its handoff.md's marker, then by its key."""

import os

from lazy_harness import config, paths
from lazy_harness.memory import files
from lazy_harness.ui import reading
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = 1_790_000_000.0


def _column(out: str, text: str) -> str:
    """The project column of the line listing ``text``."""
    line = next(ln for ln in out.splitlines() if text in ln)
    return line.split("  ")[3]


def _page_names(cwd: str) -> dict[str, str]:
    return {p.key: p.name for p in reading.projects(cwd, config.load(), os.environ)}


def _here(tmp_path) -> str:
    """The project the search runs in, with a decision of its own."""
    here = ms.make_project(tmp_path, "desk")
    ms.write_jsonl(os.path.join(paths.memory_dir(here), files.DECISIONS),
                   [ms.decision(NOW - 3600, "Tickets are numbered per desk", project="desk")])
    return here


def test_a_renamed_project_is_named_by_its_newest_decisions_not_its_older_handoff_marker(tmp_path):
    here, shop = _here(tmp_path), ms.make_project(tmp_path, "shop")
    mdir = paths.memory_dir(shop)
    ms.write_handoff(mdir, ["backfill the converted amounts"], "s-shop", NOW - 7200, project="shop")
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS),
                   [ms.decision(NOW - 9000, "Prices are kept in cents", project="shop"),
                    ms.decision(NOW - 60, "Orders are split per warehouse", project="shop-v2")])

    assert _page_names(here)[os.path.basename(mdir)] == "shop-v2"
    got = invoke("memory", "search", "backfill", "--project", here, "--all-projects")
    assert got.code == 0, got.err
    assert _column(got.out, "backfill the converted amounts") == "shop-v2"


def test_a_folder_with_only_learnings_is_named_by_their_origin(tmp_path):
    here, billing = _here(tmp_path), ms.make_project(tmp_path, "billing")
    mdir = paths.memory_dir(billing)
    os.makedirs(mdir)
    with open(os.path.join(mdir, files.HANDOFF), "w", encoding="utf-8") as fh:
        fh.write("- reconcile the refunds ledger\n")  # written by hand: no marker
    key = os.path.basename(mdir)
    ms.write_learning(paths.learnings_dir(), "Refunds settle a day late", "billing-api", NOW - 600,
                      scope="project", project_folder=key)

    assert _page_names(here)[key] == "billing-api"
    got = invoke("memory", "search", "reconcile", "--project", here, "--all-projects")
    assert got.code == 0, got.err
    assert _column(got.out, "reconcile the refunds ledger") == "billing-api"
