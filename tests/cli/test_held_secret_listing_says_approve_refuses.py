"""``lh memory held`` of an entry held because its text holds a secret: the line under it says what
``lh memory approve`` says of it (it is refused, and the file and line to edit the secret out of),
where the heading's "lh memory approve ID releases one" was untrue of it. An entry held for another
reason is listed as before, approvable. The page gives the same words (tests/ui)."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.errors import LhError
from lazy_harness.memory import by_hand, files, ids
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.ui.test_held_states import POISON

NOW = time.time()
AWS = "AKIA" + "Q3EGRIYTZ6VX2N4M"


def test_the_secret_one_says_approve_refuses_it_the_other_does_not(tmp_path, monkeypatch, isolated_home):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    path = os.path.join(mdir, files.DECISIONS)
    ms.write_jsonl(path, [ms.decision(NOW - 60, f"Use key {AWS} for the deploy bucket", "it works"),
                          ms.decision(NOW - 30, "Setup step", POISON)])
    secret, poisoned = (ids.entry_id("decision", s) for s in (f"Use key {AWS} for the deploy bucket", "Setup step"))
    monkeypatch.chdir(root)
    listed = invoke("memory", "held")
    assert listed.code == 0, listed.err
    assert AWS not in listed.out, listed.out
    with pytest.raises(LhError) as refused:
        by_hand.approve(mdir, paths.learnings_dir(), "proj", [secret], "approved by hand", NOW)
    mine, other = _block(listed.out, secret), _block(listed.out, poisoned)
    assert f"lh memory approve refuses it: {refused.value}" in " ".join(mine.split()), mine
    assert f"edit the secret out of {path}:1 " in mine, mine
    assert "refuses" not in other, other


def _block(out: str, eid: str) -> str:
    """The lines ``lh memory held`` prints of entry ``eid``: its own, then those indented under it."""
    lines = out.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith(f"  {eid}"))
    under = [ln for ln in lines[at + 1:] if ln.startswith("      ")]
    return "\n".join([lines[at], *under[:len(lines)]]) if under else lines[at]


def _heading(out: str) -> str:
    return next(ln for ln in out.splitlines() if " held (not shown to sessions;" in ln)


def test_the_heading_offers_approve_only_for_what_approve_takes(tmp_path, monkeypatch, isolated_home):
    root = ms.make_project(tmp_path, "proj")
    path = os.path.join(paths.memory_dir(root), files.DECISIONS)
    ms.write_jsonl(path, [ms.decision(NOW - 60, f"Use key {AWS} for the deploy bucket", "it works")])
    monkeypatch.chdir(root)
    alone = invoke("memory", "held")
    assert alone.code == 0, alone.err
    assert "approve ID releases one" not in _heading(alone.out), alone.out
    assert "held for a secret" in _heading(alone.out), alone.out
    ms.write_jsonl(path, [ms.decision(NOW - 60, f"Use key {AWS} for the deploy bucket", "it works"),
                          ms.decision(NOW - 30, "Setup step", POISON)])
    both = invoke("memory", "held")
    assert both.code == 0, both.err
    assert "approve ID releases one not held for a secret" in _heading(both.out), both.out
