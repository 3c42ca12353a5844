"""A learning whose frontmatter lost a closing quote by hand is read by no session: SessionStart counts
it as damaged and leaves it out, whatever ``[trust] cross_projects`` says (its origin, scope and status
are swallowed by the quote). With ``cross_projects = "auto"`` the prompt hook still injected it, from
the index, which held it as an active learning; the index now holds it hidden, as a learning not active."""

from tests.hooks.test_trust import ask, cross_projects, learning, start, write_as_session
from tests.memory.test_frontmatter_duplicates import edit_file, learning_file
from tests.support import memory_samples as ms

PROMPT = "how do I pin the zebrafish wheel in the vendor folder"


def test_the_prompt_hook_leaves_out_a_learning_with_a_quote_left_open(tmp_path):
    root = ms.make_project(tmp_path, "alpha")
    write_as_session(root, {"learnings": [learning("Vendoring the parser wheel avoids rebuilds",
                                                   "Pin the zebrafish wheel in the vendor folder.")]})
    cross_projects("auto")
    assert "zebrafish" in ask(root, PROMPT, sid="7a1e0c55-3b2d-4e6f-9a8b-000000000001")  # whole, it is recalled
    edit_file(learning_file(), "title: ", 'title: "')  # the closing quote never written
    assert "zebrafish" not in start(root, sid="s-x")[0]
    assert "zebrafish" not in ask(root, PROMPT, sid="7a1e0c55-3b2d-4e6f-9a8b-000000000002")


def test_the_quote_closed_again_brings_it_back(tmp_path):
    root = ms.make_project(tmp_path, "alpha")
    write_as_session(root, {"learnings": [learning("Vendoring the parser wheel avoids rebuilds",
                                                   "Pin the zebrafish wheel in the vendor folder.")]})
    cross_projects("auto")
    path = learning_file()
    edit_file(path, "title: ", 'title: "')
    assert "zebrafish" not in ask(root, PROMPT, sid="7a1e0c55-3b2d-4e6f-9a8b-000000000003")
    edit_file(path, 'title: "', "title: ")  # mended by hand: an active learning again
    assert "zebrafish" in ask(root, PROMPT, sid="7a1e0c55-3b2d-4e6f-9a8b-000000000004")
