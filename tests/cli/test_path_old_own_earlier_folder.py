"""A project's own earlier memory folder (its path-keyed one, an alias once it gained an origin) is not
memory whose project is gone: ``lh memory path --old`` lists it as this project's, merged into its
current folder, and ``lh doctor`` counts it with its project, not as one more project."""

import os

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.memory.test_alias_owned import beta_and_report  # noqa: F401 (a fixture)

GONE = "whose project folder is gone or unknown"


def test_path_old_names_the_earlier_folder_as_this_projects_merged_into_its_key(beta_and_report):  # noqa: F811
    """report, which never ran a session, is still listed as memory whose folder is unknown, apart."""
    beta, old_key, report = beta_and_report
    listed = invoke("memory", "path", "--old", "--project", beta)
    assert listed.code == 0, listed.err
    new_key = os.path.basename(paths.memory_dir(beta))
    mine = f"this project's earlier memory folder(s), merged into {new_key}"
    assert mine in listed.out and GONE in listed.out, listed.out
    report_key = os.path.basename(paths.memory_dir(report))
    assert listed.out.index(mine) < listed.out.index(f"  {old_key}  (") < listed.out.index(GONE), listed.out
    assert f"lh memory adopt -- {old_key}" not in listed.out, listed.out
    assert listed.out.index(GONE) < listed.out.index(f"lh memory adopt -- {report_key}"), listed.out


def test_doctor_counts_a_projects_earlier_folder_with_it(beta_and_report):  # noqa: F811
    beta, _, _ = beta_and_report
    roots = paths.all_memory_dirs()
    assert len(roots) == 3  # beta's two folders and report's
    said = [ln for ln in invoke("doctor").out.splitlines() if "memory lines" in ln]
    assert said and "of 2 project(s)" in said[0], said
