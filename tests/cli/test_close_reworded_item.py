"""``lh memory close ID`` (and ``forget ID``) of an open handoff item the person reworded by hand in
handoff.md since ``lh memory show`` listed it: the line kept its ``[h-...]`` tag, so the person closes
it by that id. A reworded item is a new item (its id is its text's), so the old id is closed; the
answer said only "no open handoff item", which the file, listing the reworded line, contradicts. It now
says, on one line, that the item was reworded and which id it is open as; nothing is written."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, handoff, journal, store
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()


@pytest.fixture
def root(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    meta = {"project": "proj", "session_id": "s1", "task_id": "t1", "cwd": root, "session_time": NOW - 100}
    store.persist({"handoff": ["pin the invoice renderer", "check the fonts"]}, paths.memory_dir(root),
                  paths.learnings_dir(), meta, NOW - 100)
    return root


def _reword(root: str, old: str, new: str) -> str:
    """Reword item ``old`` in handoff.md as an editor saves it (the tag kept); returns its id as shown."""
    mdir = paths.memory_dir(root)
    [hid] = [i["id"] for i in handoff.open_items(handoff.load(mdir)[0]) if i["text"] == old]
    md = os.path.join(mdir, files.HANDOFF)
    with open(md, encoding="utf-8") as fh:
        text = fh.read()
    assert f"[{hid}] {old}\n" in text
    with open(md, "w", encoding="utf-8") as fh:
        fh.write(text.replace(f"[{hid}] {old}\n", f"[{hid}] {new}\n"))
    return hid


def _snapshot(root: str) -> dict[str, bytes]:
    mdir = paths.memory_dir(root)
    out = {}
    for name in sorted(os.listdir(mdir)):
        if os.path.isfile(os.path.join(mdir, name)) and not name.endswith(".lock"):
            with open(os.path.join(mdir, name), "rb") as fh:
                out[name] = fh.read()
    return out


@pytest.mark.parametrize("command", ["close", "forget"])
def test_closing_a_reworded_item_by_its_old_id_names_the_id_it_is_open_as(root, command):
    old = _reword(root, "pin the invoice renderer", "pin the invoice renderer to 1.4 (1.5 breaks the fonts)")
    said = invoke("memory", command, old, "--project", root)
    [now_open] = [i for i in handoff.open_items(handoff.load(paths.memory_dir(root))[0])
                  if i["text"].startswith("pin the invoice renderer to 1.4")]
    assert said.code == 1 and said.out == ""
    [line] = said.err.splitlines()
    assert f"{old} was reworded by hand in handoff.md" in line and f"open as {now_open['id']}" in line, line
    assert f"lh memory {command} {now_open['id']}" in line, line
    before = _snapshot(root)
    assert invoke("memory", command, old, "--project", root).code == 1
    assert _snapshot(root) == before  # nothing written by the refusal
    assert journal.runs(paths.memory_dir(root)) == []
    assert now_open["id"] in invoke("memory", "show", "--project", root, "--section", "handoff").out


def test_the_reworded_item_closes_by_its_new_id_and_history_says_it_was_reworded(root):
    old = _reword(root, "check the fonts", "check the fonts on the A4 template")
    invoke("memory", "show", "--project", root)  # the read that finds the edit (imported by the next write)
    r = invoke("memory", "close", "check the fonts on the A4 template", "--project", root)
    assert r.code == 0, r.err
    hist = invoke("memory", "show", "--project", root, "--section", "handoff", "--history").out
    assert any(old in ln and "reworded" in ln for ln in hist.splitlines()), hist
