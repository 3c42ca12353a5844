"""Frontmatter a person writes by hand reads, in every reader, as ``yaml.safe_load`` reads it: the
commands' reader (``read_frontmatter_values``), the block reader (``parse_frontmatter``) and the
SessionStart reader (``read_head``) give each key the readers use the value YAML gives (a value YAML
types as a number, a date or a boolean: its text, as the scalar's text). Comments (a ``#`` after a
blank, outside quotes), block scalars, plain and quoted scalars over several lines, flow and block
lists, anchors and tags, CRLF line ends and a byte order mark included. A construct the fast reader
does not decode itself is read by YAML, imported only then: a learning the worker wrote never
imports it (the hooks' hot path)."""

import subprocess
import sys

import pytest
import yaml

from lazy_harness.memory import frontmatter, learnings
from lazy_harness.recall.readback import learnings as heads

READ = ("id", "title", "origin", "scope", "status", "deprecated_by", "deprecated_reason", "created", "tags",
        "project_folder", "origin_session")

# each a frontmatter block as a person may write it; every one is valid YAML
VARIANTS = {
    "folded block": "title: >\n  Retry uploads with\n  exponential backoff\norigin: proj",
    "literal block": "title: |\n  line one\n  line two\norigin: proj",
    "folded strip": "title: >-\n  folded\n  and stripped\nscope: general",
    "literal keep": "origin: proj\ntitle: |+\n  kept\n\nstatus: held",
    "folded paragraphs": "title: >\n  first\n\n  second\n    indented\nstatus: active",
    "folded, lines indented further": "title: >\n  a\n   b\n  c\n\n\n  d\t \n\n\nstatus: active",
    "literal, blank lines around": "title: |\n\n  a  \n\n   b\n    \n  c\n # a comment\nstatus: held",
    "literal keep, last key": "origin: proj\ntitle: |+\n  kept\n\n",
    "folded strip, comment": "title: >- # why\n  folded\n  stripped\norigin: proj",
    "indentation indicator": "title: |2\n    indented text\norigin: proj",
    "block holding keys": "notes: |\n  title: not a key\n  origin: nor this\ntitle: The real title\norigin: proj",
    "comment after plain": "title: Pin the ruff version   # keep in sync with CI\norigin: proj",
    "hash without blank": "title: C# tips #1\norigin: a#b",
    "comment after single": "title: 'quoted # not a comment'  # but this is\norigin: proj",
    "comment after double": 'title: "double # inside" # comment\norigin: proj',
    "comment after quote, no blank": "title: 'it''s'#c\norigin: proj",
    "comment only": "title: # nothing here\norigin: proj",
    "status with comment": "title: x\nstatus: active  # still true\nscope: general #c",
    "quoted status with comment": "title: x\nstatus: \"held\" # why",
    "reason with comment": "title: x\ndeprecated_reason: approved by hand # and a note",
    "comment lines": "# a comment\ntitle: x\n  # an indented comment\n# another\norigin: proj",
    "plain over two lines": "title: Plain title that\n  continues on the next line\norigin: proj",
    "plain with an empty line": "title: Plain\n\n  with an empty line\norigin: proj",
    "plain over three lines, comment": "title: three\n  lines\n  of text  # and a comment\norigin: proj",
    "plain continued by a dash": "title: a\n  - b\norigin: proj",
    "plain on the next line": "title:\n  On the next line\norigin: proj",
    "double over two lines": 'title: "double quoted\n  over two lines"\norigin: proj',
    "single with a blank line": "title: 'single quoted\n\n  with a blank'\norigin: proj",
    "line separator in plain": "title: a\u2028  b\norigin: proj",
    "escapes": 'title: "tab\\there \\u00e9"\norigin: proj',
    "odd plain": "title: a :b -c ?d\norigin: -tmp-proj",
    "flow list": "title: x\ntags: [a, b c, d-e]",
    "flow list quoted": "title: x\ntags: [a, 'b, c', \"d\"]",
    "flow list, trailing comma": "title: x\ntags: [a, b,]",
    "empty flow list": "title: x\ntags: []",
    "block list with comments": "title: x\ntags:\n  - one\n  - two  # comment\norigin: proj",
    "indentless list": "title: x\ntags:\n- one\n- 'two'\norigin: proj",
    "list after an empty line": "title: x\ntags:\n\n  - a\norigin: proj",
    "anchor and alias": "title: &t Anchored title\norigin: *t",
    "tagged": "title: !!str 2026\norigin: proj",
    "typed plain scalars": "title: yes\ncreated: 2026-05-12T10:00:00Z\norigin: 42",
    "nulls": "title: x\ndeprecated_by: ~\ndeprecated_reason:\nstatus: null",
    "flow mapping elsewhere": "meta: {a: 1, b: [2]}\ntitle: x",
    "spaced key": "title : Spaced key\norigin: proj",
    "quoted key": "\"title\": Quoted key\norigin: proj",
    "explicit key": "? title\n: Explicit\norigin: proj",
    "merge key": "<<: {title: Merged}\norigin: proj",
    "anchored key": "&a title: anchored key\norigin: proj",
    "key given twice": "title: x\ntitle: y\norigin: proj",
    "spaces around a value": "title:   spaced value   \norigin: proj",
    "quote of another key over lines": "notes: 'a\ntitle: fake'\ntitle: real\norigin: proj",
    "double quote of another key over lines": "notes: \"a\ntitle: fake\"\ntitle: real\norigin: proj",
    "quoted item over lines": "tags:\n- 'a\ntitle: fake'\ntitle: real\norigin: proj",
    "flow list of another key over lines": "notes: [a,\n  b]\ntitle: x\norigin: proj",
}


def _text(block: str) -> str:
    return f"---\n{block}\n---\n\n## Learning\n\nbody\n"


def _want(block: str) -> dict:
    """What the readers must give: YAML's value, its text where YAML types it (not a string)."""
    block += "\n"  # as the writer reads it: up to the line break before ``---``
    typed, text = yaml.safe_load(block), yaml.load(block, Loader=yaml.BaseLoader)  # noqa: S506
    return {k: v if v is None or isinstance(v, (str, list)) else text[k] for k, v in typed.items() if k in READ}


def _as_read(key: str, value: object) -> object:
    return frontmatter.canonical(key, value)


def _files(tmp_path, name: str) -> list[tuple[str, str]]:
    """(how it is saved, path) of the variant saved with LF, CRLF and a BOM."""
    text = _text(VARIANTS[name])
    out = []
    for how, data in (("lf", text), ("crlf", text.replace("\n", "\r\n")), ("bom", "\ufeff" + text)):
        path = tmp_path / f"2026-05-12-{how}.md"
        path.write_bytes(data.encode("utf-8"))
        out.append((how, str(path)))
    return out


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_block_reader_reads_what_yaml_reads(tmp_path, name):
    want = _want(VARIANTS[name])
    for how, path in _files(tmp_path, name):
        with open(path, encoding="utf-8", newline="") as fh:
            meta, body = frontmatter.parse_frontmatter(fh.read())
        assert {k: meta.get(k) for k in want} == {k: _as_read(k, v) for k, v in want.items()}, how
        assert body.strip() == "## Learning\n\nbody".replace("\n", "\r\n" if how == "crlf" else "\n")
        head = heads.read_head(path)
        assert {k: head.get(k) for k in want} == {k: _as_read(k, v) for k, v in want.items()}, how


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_commands_reader_reads_what_yaml_reads(tmp_path, name):
    want = _want(VARIANTS[name])
    for how, path in _files(tmp_path, name):
        got = frontmatter.read_frontmatter_values(path, READ)
        for key, value in want.items():
            if isinstance(value, str):
                assert got.get(key) == _as_read(key, value), (how, key)
            elif value is None:  # a null: its text, as the reader always gave it
                assert got.get(key, "") in frontmatter.NULLS, (how, key)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_id_is_the_one_yaml_gives(tmp_path, name):
    want = _want(VARIANTS[name])
    for _, path in _files(tmp_path, name):
        expect = learnings.ids.of_learning({k: want.get(k) for k in ("id", "title", "origin")}, path=path)
        assert learnings.id_of(path) == expect
        assert heads.brief(heads.read_head(path))["id"] == expect


@pytest.mark.parametrize(("line", "value"), [
    ("title: a#b", "a#b"), ("title: a #b", "a"), ("title: a\t#b", "a"), ("title: 'a #b'", "a #b"),
    ("title: \"a #b\"  # c", "a #b"), ("title: #b", None), ("title: http://x/#frag", "http://x/#frag"),
])
def test_a_hash_starts_a_comment_only_after_a_blank_and_outside_quotes(line, value):
    meta, _ = frontmatter.parse_frontmatter(_text(line + "\norigin: proj"))
    if "\t" not in line:  # why: YAML refuses a tab there; the reader reads it as a blank
        assert yaml.safe_load(line)["title"] == value
    assert meta["title"] == value and meta["origin"] == "proj"


_PROBE = """
import sys
from lazy_harness.memory import frontmatter
from lazy_harness.recall.readback import learnings as heads
for path in sys.argv[1:]:
    heads.read_head(path)
    frontmatter.read_frontmatter_values(path, ("id", "title", "origin", "status", "scope"))
print("yaml" in sys.modules)
"""


def _probe(paths_: list[str]) -> str:
    """Whether reading ``paths_`` as the hooks do imports ``yaml``. why not ``-S`` as the hooks run: PyYAML
    must be importable here, or a reader that tried to import it would pass unseen."""
    done = subprocess.run([sys.executable, "-c", _PROBE, *paths_], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


TITLES = ["Plain title", "Colon: then text", "C# and #hash tags", "it's 'quoted' and \"double\"", "- leading dash",
          "yes", "2026", "null", "tab\there", "über ünïcödé → arrows", "trailing space ", "[not] a {flow}",
          "&anchor *alias !tag |pipe >fold", "a" * 300, "line\nbreak squeezed"]


def test_a_learning_the_worker_wrote_never_imports_yaml(tmp_path):
    made = []
    for n, title in enumerate(TITLES):
        item = {"title": title, "learning": "text", "tags": ["t#1", "x: y"] if n % 2 else [], "scope": "general"}
        path = tmp_path / f"2026-05-12-w{n}.md"
        path.write_text(learnings.render(item, {"project": "proj", "session_id": "s-1"}, 1.7e9), encoding="utf-8")
        made.append(str(path))
        meta = yaml.safe_load(path.read_text(encoding="utf-8").split("---\n")[1])
        assert frontmatter.read_frontmatter_values(str(path), ("title",))["title"] == meta["title"]
    assert _probe(made) == "False"


# what a person writes often: read without YAML too
BY_HAND = ("folded block", "literal block", "folded strip", "literal keep", "folded paragraphs", "comment after plain",
           "status with comment", "plain over two lines", "plain with an empty line", "block list with comments",
           "flow list", "double over two lines")


def test_hand_written_blocks_comments_and_folded_lines_never_import_yaml(tmp_path):
    made = []
    for n, name in enumerate(BY_HAND):
        path = tmp_path / f"2026-05-12-h{n}.md"
        path.write_text(_text(VARIANTS[name]), encoding="utf-8")
        made.append(str(path))
    assert _probe(made) == "False"


def test_an_anchor_is_read_by_yaml_imported_then(tmp_path):
    path = tmp_path / "2026-05-12-anchor.md"
    path.write_text(_text(VARIANTS["anchor and alias"]), encoding="utf-8")
    assert _probe([str(path)]) == "True"
