"""``lh memory show --prompt`` of a prompt whose words only a project learning of another project (or of
none yet) holds: it receives nothing, and the reason names those learnings and the command that lists
them, not "no entry holds any of its words", which the person reads as a search that found nothing."""

from tests.cli.lhrun import invoke
from tests.memory.test_owners import legacy_learning, project

PROMPT = "what is the staging host name"


def test_a_learning_of_no_project_yet_is_named_not_denied(tmp_path):
    work, client = project(tmp_path / "work"), project(tmp_path / "clients", session="sess-c")
    legacy_learning()  # two projects named api could own it: it is in neither until assigned
    said = invoke("memory", "show", "--prompt", PROMPT, "--project", work)
    assert said.code == 0, said.err
    assert "receives nothing" in said.out, said.out
    assert "no entry holds any of its words" not in said.out, said.out
    assert "1 learning(s) holding its words" in said.out and "lh memory unassigned" in said.out, said.out
    lid = invoke("memory", "unassigned").out.split("lh memory assign ", 1)[1].split()[0]
    assert invoke("memory", "assign", lid, "--project", work).code == 0
    # assigned: the other project of the name still gets nothing, and is told why
    other = invoke("memory", "show", "--prompt", PROMPT, "--project", client)
    assert "1 learning(s) holding its words" in other.out, other.out


def test_a_prompt_no_entry_matches_still_says_so(tmp_path):
    work = project(tmp_path / "work")
    said = invoke("memory", "show", "--prompt", "why is the quokka sleeping", "--project", work)
    assert "no entry holds any of its words" in said.out, said.out
