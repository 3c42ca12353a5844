"""A learning written by hand is dated and titled alike by ``lh memory show`` and ``lh memory search``.
Before, one without ``created:`` (or with one that is no time) was dated by its file name in show
(``2026-12-06``) and ``undated`` in search (the index kept its empty ``created`` as its time); a YAML
list as its title (``title: [a, b]``) was printed in Python's notation by show (``['a', 'b']``) and
as ``a b`` by search; one without a title was listed untitled by show, titled by its file name in
search."""

import os

import pytest

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

# the file's name, its frontmatter lines besides origin, scope and project, the title both print
LEARNINGS = [
    ("2026-12-06-handwritten.md", "title: CRLF learning\n", "CRLF learning"),
    ("2026-12-02-list.md", "title: [alpha, beta]\n", "alpha beta"),
    ("2026-12-04-kept-by-hand.md", "", "kept by hand"),
    ("2026-12-03-later.md", "title: Later note\ncreated: yesterday\n", "Later note"),
]


def _write(root: str, name: str, head: str, newline: str) -> None:
    """A learning as a person writes it: no ``id``, no time of writing; its project named by its key."""
    key = os.path.basename(paths.memory_dir(root))
    folder = os.path.join(paths.learnings_dir(), "2026-12")
    os.makedirs(folder, exist_ok=True)
    text = f"---\n{head}origin: proj\nscope: project\nproject_folder: {key}\n---\n\nhandwritten body words.\n"
    with open(os.path.join(folder, name), "w", encoding="utf-8", newline="") as fh:
        fh.write(text.replace("\n", newline))


def _show(root: str) -> dict[str, tuple[str, str]]:
    """``{id: (day, title)}`` of ``lh memory show --section learnings``."""
    r = invoke("memory", "show", "--section", "learnings", "--project", root)
    assert r.code == 0, r.err
    out = {}
    for line in r.out.splitlines():
        if line.startswith("  l-"):
            lid, day, rest = line.strip().split("  ", 2)
            out[lid] = (day, rest.rsplit("  (learnings/", 1)[0].strip())
    return out


def _search(root: str) -> dict[str, tuple[str, str]]:
    """``{id: (day, title)}`` of the learnings ``lh memory search`` finds (kind, id, day, origin, title)."""
    ms.index_now()
    r = invoke("memory", "search", "handwritten", "--project", root)
    assert r.code == 0, r.err
    out = {}
    for line in r.out.splitlines():
        kind, lid, day, origin, rest = line.split(maxsplit=4)
        assert (kind, origin) == ("learning", "proj"), line
        out[lid] = (day, rest.rsplit("  ", 1)[0].split("  [", 1)[0].strip())
    return out


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_show_and_search_agree_on_date_and_title(tmp_path, newline):
    root = ms.make_project(tmp_path, "proj")
    for name, head, _ in LEARNINGS:
        _write(root, name, head, newline)
    shown = _show(root)
    assert sorted(shown.values()) == sorted((name[:10], title) for name, _, title in LEARNINGS), shown
    assert _search(root) == shown
