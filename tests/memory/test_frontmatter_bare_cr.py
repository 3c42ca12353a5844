"""A learning saved with bare CR line ends (``\\r`` only: classic Mac OS editors, some tools' exports)
reads as the same file saved with LF ends: its title, status, scope, origin and text, in the SessionStart
reader (``read_head``, which decodes bytes itself), ``parse_frontmatter`` and the damage check. Before,
its frontmatter was taken as one unclosed line: no keys, every session shown an untitled learning, a
forgotten or project-scoped one included. CRLF files already read so; they are checked here too."""

import os
import time

import pytest

from lazy_harness.memory import frontmatter, learning_damage
from lazy_harness.recall.readback import learnings as heads
from tests.support import memory_samples as ms

NOW = time.time()
ENDS = {"crlf": b"\r\n", "cr": b"\r"}


def _saved_with(path: str, end: bytes) -> str:
    """A copy of the learning at ``path`` with every LF line end replaced by ``end``."""
    with open(path, "rb") as fh:
        data = fh.read()
    copy = path[:-len(".md")] + "-" + end.hex() + ".md"
    with open(copy, "wb") as fh:
        fh.write(data.replace(b"\n", end))
    return copy


@pytest.fixture
def learning(tmp_path) -> str:
    path = ms.write_learning(str(tmp_path / "learnings"), "Rename is the enqueue: 'tmp' then \"new\"", "shop", NOW,
                             tags=["queue", "maildir"], scope="project", learning="Write in tmp/.\nRename into new/.")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    with open(path, "w", encoding="utf-8") as fh:  # a learning the person forgot: no session may see it
        fh.write(text.replace("status: active", "status: forgotten"))
    return path


@pytest.mark.parametrize("name", ENDS)
def test_the_session_start_reader_reads_it_as_the_lf_file(learning, name):
    want = heads.read_head(learning)
    assert want["title"] == "Rename is the enqueue: 'tmp' then \"new\"" and want["status"] == "forgotten"
    got = heads.read_head(_saved_with(learning, ENDS[name]))
    for key in ("title", "status", "scope", "origin", "tags", "created", "learning"):
        assert got.get(key) == want[key], key
    assert not frontmatter.is_active(got)


@pytest.mark.parametrize("name", ENDS)
def test_parse_frontmatter_reads_its_keys_and_body(learning, name):
    with open(learning, encoding="utf-8", newline="") as fh:
        lf = fh.read()
    text = lf.replace("\n", ENDS[name].decode())
    meta, body = frontmatter.parse_frontmatter(text)
    want_meta, want_body = frontmatter.parse_frontmatter(lf)
    assert meta == want_meta
    assert body.replace("\r\n", "\n").replace("\r", "\n") == want_body
    assert not frontmatter.not_closed(text) and frontmatter.open_quote(text) is None
    assert frontmatter.repeated_keys(text) == []


@pytest.mark.parametrize("name", ENDS)
def test_the_damage_check_finds_nothing_wrong(learning, name):
    copy = _saved_with(learning, ENDS[name])
    assert learning_damage.learning_damage(copy) is None
    assert learning_damage.refusal(copy) is None
    assert frontmatter.file_not_closed(copy) is False


def test_a_bare_cr_file_with_no_frontmatter_stays_one_without(tmp_path):
    path = os.path.join(str(tmp_path), "2026-01-02-note.md")
    with open(path, "wb") as fh:
        fh.write(b"# A note\rNo frontmatter here.\r---\rtitle: not a key\r")
    assert frontmatter.parse_frontmatter(open(path, encoding="utf-8", newline="").read()) is None
    assert heads.read_head(path).get("title") is None


def test_forget_and_its_undo_keep_the_bare_cr_ends(tmp_path):
    from lazy_harness import paths
    from lazy_harness.memory import learnings
    from tests.cli.lhrun import invoke

    root = ms.make_project(tmp_path, "proj")
    lf = ms.write_learning(paths.learnings_dir(), "Rename is the enqueue", "proj", NOW - 60, learning="Write in tmp/.")
    with open(lf, "rb") as fh:
        data = fh.read().replace(b"\n", b"\r")
    with open(lf, "wb") as fh:
        fh.write(data)
    lid = learnings.id_of(lf)
    r = invoke("memory", "forget", lid, "--project", root)
    assert r.code == 0, r.out + r.err
    with open(lf, "rb") as fh:
        forgotten = fh.read()
    assert b"\n" not in forgotten and b"\rstatus: forgotten\r" in forgotten
    assert forgotten.endswith(data[data.index(b"\r---\r"):])  # the text after the frontmatter, byte for byte
    assert heads.read_head(lf)["status"] == "forgotten"
    assert invoke("memory", "undo", "--project", root).code == 0
    with open(lf, "rb") as fh:
        assert fh.read() == data
