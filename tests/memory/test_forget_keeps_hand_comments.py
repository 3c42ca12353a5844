"""A learning a person wrote by hand, with YAML comments and a flow list in its frontmatter: ``lh memory
forget`` and ``lh memory approve`` change only the lines of the fields they set. Before, the whole
frontmatter was written out again: the comments went and ``tags: [a, b]`` became a block list. A value
that spans lines, or a key given twice, still has the frontmatter written whole, and reads the same."""

import os

from lazy_harness import paths
from lazy_harness.memory import frontmatter, status_fields
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

HEAD = """---
# written by hand after the outage
title: SQLite WAL mode keeps readers unblocked  # keep this
origin: {name}
project_folder: {key}
scope: {scope}
tags: [sqlite, wal]   # searched
created: 2026-12-01
---

Readers never block the writer in WAL mode; checkpoint after large writes.
"""
KEPT = ("# written by hand after the outage", "title: SQLite WAL mode keeps readers unblocked  # keep this",
        "tags: [sqlite, wal]   # searched")


def hand_written(root: str, scope: str = "project") -> str:
    folder = os.path.join(paths.learnings_dir(), "2026-12")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "2026-12-01-wal-mode.md")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(HEAD.format(name=os.path.basename(root), key=paths.project_key(root), scope=scope))
    return path


def learning_id(root: str) -> str:
    found = invoke("memory", "search", "sqlite", "--project", root)
    assert found.code == 0, found.out + found.err
    return found.out.split()[1]


def test_forget_changes_only_the_status_lines_and_undo_puts_the_file_back(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    path = hand_written(root)
    with open(path, encoding="utf-8") as fh:
        before = fh.read()
    lid = learning_id(root)
    assert invoke("memory", "forget", lid, "--project", root).code == 0
    with open(path, encoding="utf-8") as fh:
        after = fh.read()
    for line in KEPT:
        assert line in after.splitlines(), after
    assert frontmatter.read_frontmatter_values(path, ("status",))["status"] == "forgotten"
    assert after.endswith(before.split("---\n", 2)[2])  # the body as it was
    assert f"{lid}  2026-12-01  SQLite WAL mode keeps readers unblocked" in (shown := invoke(
        "memory", "show", "--project", root).out) and "[forgotten]" in shown, shown
    assert invoke("memory", "undo", "--project", root).code == 0
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == before


def test_approve_keeps_the_comments_and_the_approval_counts(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    path = hand_written(root, scope="general")  # a general learning written by hand waits for approval
    lid = learning_id(root)
    assert invoke("memory", "approve", lid, "--project", root).code == 0, lid
    with open(path, encoding="utf-8") as fh:
        after = fh.read()
    for line in KEPT:
        assert line in after.splitlines(), after
    assert "approved by hand" in frontmatter.read_frontmatter_values(path, ("deprecated_reason",))["deprecated_reason"]
    held = invoke("memory", "held", "--project", root).out
    assert lid not in held, held


def test_a_value_over_lines_or_a_key_twice_is_written_whole_and_reads_the_same():
    over_lines = "---\ntitle: T\nstatus: >\n  active\ntags: [a, b]  # c\n---\nbody\n"
    twice = "---\ntitle: T\nstatus: active\nstatus: active\n---\nbody\n"
    quoted = '---\ntitle: T\n"status": active\n---\nbody\n'
    for text in (over_lines, twice, quoted):
        out = status_fields.with_fields(text, "x.md", {"status": "forgotten"})
        assert status_fields.fields_of(out, "x.md")["status"] == "forgotten", out
        assert out.count("status") == 1 and out.endswith("---\nbody\n"), out
    crlf = "---\r\ntitle: T  # mine\r\nstatus: active\r\n---\r\nbody\r\n"
    out = status_fields.with_fields(crlf, "x.md", {"status": "forgotten", "deprecated_reason": "forgotten by hand"})
    assert out == ("---\r\ntitle: T  # mine\r\nstatus: forgotten\r\ndeprecated_reason: forgotten by hand\r\n"
                   "---\r\nbody\r\n")
