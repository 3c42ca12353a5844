"""A project's own learning and another project's general learning of one title (spelt as it may be,
``ids.title_words``) are one subject at the session start: the project's own text is shown, the other
project's is left out there (ADR 0063). A title only this other project has is shown as before."""

from tests.hooks.hookrun import enable_loop
from tests.memory.test_follows_project import start, write_as_session
from tests.support import memory_samples as ms

TITLE = "Retries on the nightly wombat export"
OWN = "The wombat export retries three times, then pages on-call; the queue drops nothing."
OTHER = "The wombat export never retries: a failed night is re-run by hand from the admin page."
ONLY_THERE = "Zstandard level 19 keeps the nightly wombat archive small"


def _item(title: str, text: str, scope: str) -> dict:
    return {"title": title, "learning": text, "context": "Running the nightly wombat export.", "scope": scope,
            "tags": ["wombat", "export"]}


def _two(tmp_path, isolated_home) -> tuple[str, str]:
    config = enable_loop(isolated_home)
    with open(config, "a", encoding="utf-8") as fh:
        fh.write('cross_projects = "auto"\n[context]\nlearnings = 5\n')
    # why the branch: another project's learning takes a place at the start only when it is about this one
    here = ms.make_project(tmp_path / "work", "api", branch="nightly-wombat-export")
    there = ms.make_project(tmp_path / "work", "billing")
    write_as_session(there, {"learnings": [_item(TITLE.lower().replace(" ", "-"), OTHER, "general"),
                                           _item(ONLY_THERE, f"{ONLY_THERE}; decompression stays fast.", "general")]},
                     session="sess-b")
    write_as_session(here, {"learnings": [_item(TITLE, OWN, "project")]}, session="sess-a")
    return here, there


def test_the_projects_own_text_of_a_title_is_the_one_shown(tmp_path, isolated_home):
    here, there = _two(tmp_path, isolated_home)
    text = start(here, sid="h-1")
    assert "three times" in text and "re-run by hand" not in text
    assert ONLY_THERE in text  # another project's learning of another title still reaches the start


def test_in_the_other_project_its_own_text_is_shown(tmp_path, isolated_home):
    here, there = _two(tmp_path, isolated_home)
    text = start(there, sid="t-1")
    assert "re-run by hand" in text
