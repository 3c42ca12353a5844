"""The title a learning without one takes from its file's name: the date the store puts first is not
part of it, and a name a person gave without that date is kept whole."""

import pytest

from lazy_harness.memory import ids


@pytest.mark.parametrize(("path", "title"), [
    ("/k/learnings/2026-04/2026-04-13-use-x.md", "use x"),
    ("/k/learnings/2026-04/2026-04-13-use-x-2.md", "use x 2"),
    ("/k/learnings/2026-04/notes-on-walrus.md", "notes on walrus"),
    ("/k/learnings/2026-04/2026-retro.md", "2026 retro"),
    ("/k/learnings/2026-04/2026-04-13.md", ""),
])
def test_the_title_a_file_name_gives(path, title):
    assert ids.title_of_file(path) == title


def test_the_id_of_an_undated_learning_comes_from_its_whole_name():
    front = {"origin": "proj"}
    assert ids.of_learning(front, path="/k/notes-on-walrus.md") == ids.learning_id("proj", "notes on walrus")
