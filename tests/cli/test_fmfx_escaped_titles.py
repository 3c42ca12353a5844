"""A learning without an ``id`` whose title holds a character YAML writes as an escape (``\\e``,
``\\a``, ``\\0``, ``\\x7F`` ...): the id ``lh memory show`` lists is the one ``lh memory forget``
accepts, as the readers that parse the frontmatter read its title."""

import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import frontmatter, ids, learnings
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time() - 3600
# each of YAML's double-quoted escapes a title can carry through yaml.safe_dump
ESCAPED = {"esc": "\x1b", "bel": "\a", "nul": "\0", "del": "\x7f", "bs": "\b", "vt": "\v", "ff": "\f",
           "nel": "\x85", "nbsp": "\xa0", "ls": "\u2028", "ps": "\u2029", "c1": "\x9b", "bom": "\ufeff",
           "astral": "\U0001d11e", "quote": '"', "backslash": "\\"}


def _learning(ldir: str, name: str, ch: str) -> str:
    path = ms.write_learning(ldir, f"Escaped {name} {ch}in the title", "proj", NOW, slug=f"escaped-{name}")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    assert "id:" not in text.split("\n---", 1)[0]  # derived from the title, as for a file written by hand
    return path


@pytest.mark.parametrize("name", sorted(ESCAPED))
def test_the_id_read_without_a_parser_is_the_id_readers_show(tmp_path, name):
    path = _learning(paths.learnings_dir(), name, ESCAPED[name])
    with open(path, encoding="utf-8") as fh:
        meta, _ = frontmatter.parse_frontmatter(fh.read())
    assert meta["title"] == f"Escaped {name} {ESCAPED[name]}in the title"
    assert frontmatter.read_frontmatter_values(path, ("title",))["title"] == meta["title"]
    assert learnings.id_of(path) == ids.of_learning(meta, path=path)


def test_every_id_show_lists_is_one_forget_accepts(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    ldir = paths.learnings_dir()
    for name, ch in ESCAPED.items():
        _learning(ldir, name, ch)
    shown = invoke("memory", "show", "--section", "learnings", "--project", root)
    assert shown.code == 0, shown.err
    listed = [line.split()[0] for line in shown.out.splitlines()[1:] if line.startswith("  l-")]
    assert len(listed) == len(ESCAPED), shown.out
    for lid in listed:
        done = invoke("memory", "forget", lid, "--project", root)
        assert done.code == 0 and done.out.startswith(f"forgot {lid}"), (lid, done.out, done.err)
