"""A general learning written in another project of the same folder name (``~/clients/api`` beside
``~/work/api``) crosses as another project's does, and says so: ``in api`` alone read as this project's
own entry."""

from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop
from tests.memory.test_follows_project import start, write_as_session
from tests.support import memory_samples as ms

TIP = "Zstandard level 19 makes the nightly wombat archive three times smaller"
SAID = "another project of this name"


def _two_apis(tmp_path, isolated_home, digest_learnings: int = 3) -> tuple[str, str]:
    config = enable_loop(isolated_home)
    with open(config, "a", encoding="utf-8") as fh:
        fh.write(f'cross_projects = "auto"\n[context]\nlearnings = {digest_learnings}\n')
    # why the branch: another project's learning takes a place at the start only when it is about this one
    work = ms.make_project(tmp_path / "work", "api", branch="nightly-archive")
    write_as_session(work, {"decisions": [{"summary": "The work api deploys on Tuesdays"}]})
    clients = ms.make_project(tmp_path / "clients", "api")
    write_as_session(clients, {"learnings": [{"title": TIP, "learning": f"{TIP}; decompression stays fast.",
                                              "context": "Archiving the wombat logs.", "scope": "general",
                                              "tags": ["zstd", "archive"]}]}, session="sess-c")
    return work, clients


def test_the_start_names_a_same_named_projects_learning_as_another_projects(tmp_path, isolated_home):
    work, clients = _two_apis(tmp_path, isolated_home)
    text = start(work, sid="w-1")
    [line] = [ln for ln in text.splitlines() if TIP in ln]
    assert SAID in line
    own = start(clients, sid="c-1")
    [line] = [ln for ln in own.splitlines() if TIP in ln]
    assert SAID not in line  # in the project that wrote it, it is its own


def test_prompt_recall_names_it_too(tmp_path, isolated_home):
    work, clients = _two_apis(tmp_path, isolated_home, digest_learnings=0)  # the prompt, not the start, shows it
    out = invoke("memory", "show", "--prompt", "zstandard level for the nightly wombat archive", "--project", work)
    assert out.code == 0, out.err
    [line] = [ln for ln in out.out.splitlines() if TIP in ln and ln.startswith("- ")]
    assert SAID in line


def test_it_needs_one_matched_group_more_as_another_projects_learning_does():
    from lazy_harness.recall.prompt import rank

    own = {"kind": "learning", "origin": "api"}
    assert rank.groups_needed({**own, "same_name": True}, "api") == rank.groups_needed({**own, "origin": "web"}, "api")
    assert rank.groups_needed({**own, "same_name": True}, "api") > rank.groups_needed(own, "api")
