"""A learning whose frontmatter lost a closing quote by hand: the quote swallows its origin, scope and
status, so SessionStart and ``lh memory show`` leave it out and ``lh memory check`` names its line.
``lh memory search`` found it labelled ``[waiting: approve for other projects]``, inviting an approval
of a file no reader can tell the project of; it is labelled damaged, with the line, as check says."""

import json

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.hooks.test_trust import learning, start, write_as_session
from tests.memory.test_frontmatter_duplicates import edit_file, learning_file
from tests.support import memory_samples as ms


def test_search_labels_a_learning_with_a_quote_left_open_damaged(tmp_path):
    root = ms.make_project(tmp_path, "alpha")
    write_as_session(root, {"learnings": [learning("Vendoring the parser wheel avoids rebuilds",
                                                   "Pin the zebrafish wheel in the vendor folder.")]})
    path = learning_file()
    edit_file(path, "title: ", 'title: "')  # the closing quote never written
    assert "zebrafish" not in start(root, sid="s-x")[0]  # SessionStart leaves it out
    ms.index_now()
    found = invoke("memory", "search", "zebrafish", "--project", root)
    assert found.code == 0 and path in found.out, found.out
    assert "waiting: approve" not in found.out, found.out
    assert "line 3: title: its quote does not close" in found.out, found.out
    assert "shown to no session, lh memory check" in found.out, found.out
    [hit] = [json.loads(line) for line in invoke("memory", "search", "zebrafish", "--json", "--project",
                                                 root).out.splitlines() if line.strip()]
    assert hit["state"] == "damaged", hit
    assert paths.learnings_dir() in hit["file"]
