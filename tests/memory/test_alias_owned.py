"""A folder a live project took over (an alias in its ``aliases.jsonl``) is that project's memory:
``lh memory path --old`` run in another project names its owner instead of offering it, and ``lh
memory adopt`` refuses it without ``--force`` (docs/how/project-key.md, ADR 0035).

Two projects: beta, whose repository gains an origin (its path-keyed folder becomes an alias of its
new one), and report, an unrelated project on the same machine."""

import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import aliases
from tests.cli.lhrun import invoke
from tests.memory.test_aliases_unassigned_agree import sessions_in
from tests.memory.test_follows_project import TITLES, add_origin, learning, shown, start, write_as_session
from tests.support import memory_samples as ms


@pytest.fixture
def beta_and_report(tmp_path):
    """(beta's root, its old path key, report's root): beta's learnings and decision were written under
    its path key, then it gained an origin and its first start migrated them."""
    beta = ms.make_project(tmp_path / "w", "beta")
    write_as_session(beta, {"learnings": [learning(t) for t in TITLES],
                            "decisions": [{"summary": "Beta serves its docs with Caddy"}]})
    old_key = os.path.basename(paths.memory_dir(beta))
    sessions_in(beta)  # Claude Code's folder of the old path key: "was <beta>" in the listing
    add_origin(beta, "https://github.com/acme/beta")
    assert shown(start(beta)) == 3  # the migration: the path key is an alias of beta's new folder now
    assert old_key in aliases.owned(paths.memory_dir(beta)).keys
    report = ms.make_project(tmp_path / "w", "report")
    write_as_session(report, {"decisions": [{"summary": "Report renders PDFs with weasyprint"}]}, session="r-1")
    return beta, old_key, report


def test_path_old_in_another_project_names_the_owner_and_offers_no_adopt(beta_and_report):
    beta, old_key, report = beta_and_report
    listed = invoke("memory", "path", "--old", "--project", report)
    assert listed.code == 0, listed.err
    assert f"lh memory adopt -- {old_key}" not in listed.out, listed.out
    assert f"alias of {beta}" in listed.out, listed.out
    own = invoke("memory", "path", "--old", "--project", beta)  # beta itself: its own alias, as before
    assert "already this project's (alias)" in own.out and f"alias of {beta}" not in own.out, own.out


def test_adopt_refuses_a_live_projects_alias_without_force_and_names_it(beta_and_report):
    beta, old_key, report = beta_and_report
    refused = invoke("memory", "adopt", "--project", report, "--", old_key)
    assert refused.code == 1, refused.out
    said = refused.out + refused.err
    assert beta in said and "--force" in said, said
    assert not os.path.exists(os.path.join(paths.memory_dir(report), aliases.FILE))
    assert shown(start(report, sid="r-start")) == 0 and "Caddy" not in start(report, sid="r-again")
    assert shown(start(beta, sid="b-after")) == 3  # beta keeps its memory


def test_adopt_with_force_still_takes_it_and_beta_may_adopt_its_own_alias_again(beta_and_report):
    beta, old_key, report = beta_and_report
    again = invoke("memory", "adopt", "--project", beta, "--", old_key)  # its own alias: nothing to refuse
    assert again.code == 0, again.out + again.err
    forced = invoke("memory", "adopt", "--force", "--project", report, "--", old_key)
    assert forced.code == 0, forced.out + forced.err
    assert old_key in aliases.owned(paths.memory_dir(report)).keys
