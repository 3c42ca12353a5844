"""A learning from before keys were recorded that two projects of its name could own is in neither until
the person assigns it. ``lh memory search`` in either of them lists it when its words match, labelled
with the command that gives it to this project, rather than "no match": the person searching for it
finds it, as held and forgotten entries are found. A project of another name does not list it."""

import json

from tests.cli.lhrun import invoke
from tests.memory.test_owners import legacy_learning, project


def test_search_in_a_project_of_that_name_lists_it_with_the_assign_command(tmp_path):
    work, client = project(tmp_path / "work"), project(tmp_path / "clients", session="sess-c")
    legacy_learning()
    for root in (work, client):
        found = invoke("memory", "search", "staging", "--project", root)
        assert found.code == 0 and "stage-7" in found.out, found.out + found.err
        assert "lh memory assign" in found.out and f"--project {root}" in found.out, found.out
        [hit] = [json.loads(ln) for ln in invoke("memory", "search", "staging", "--json", "--project", root).out
                 .splitlines() if "stage-7" in ln]
        assert hit["state"] == "unassigned" and "project_only" not in hit, hit
    other = project(tmp_path / "web", name="web", session="sess-w")
    assert "stage-7" not in invoke("memory", "search", "staging", "--project", other).out
    lid = invoke("memory", "unassigned").out.split("lh memory assign ", 1)[1].split()[0]
    assert invoke("memory", "assign", lid, "--project", work).code == 0
    assert "lh memory assign" not in invoke("memory", "search", "staging", "--project", work).out
    assert "stage-7" not in invoke("memory", "search", "staging", "--project", client).out
