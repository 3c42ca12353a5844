"""``lh memory approve ID`` refused says why, instead of "is not held and waits for no approval" with a
hint to undo a forget whatever the id was: a learning approved already (the person approves it twice)
waits for nothing; an id that names no entry says so and where it looked; a forgotten one is sent to
``lh memory undo``."""

import time

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()


def _one_waiting(root: str) -> str:
    ms.write_learning(paths.learnings_dir(), "Pin the linter version", "web", NOW - 60, slug="pin",
                      learning="Pin the linter version.")
    [lid] = [ln.split()[0] for ln in invoke("memory", "held", "--project", root).out.splitlines()
             if ln.startswith("  l-")]
    return lid


def test_approving_twice_says_it_is_approved_already(tmp_path):
    root = ms.make_project(tmp_path, "live")
    lid = _one_waiting(root)
    assert invoke("memory", "approve", lid, "--project", root).code == 0
    again = invoke("memory", "approve", lid, "--project", root)
    assert again.code == 1
    said = again.err.strip()
    assert said.startswith(f"lh: {lid} waits for no approval: "), said
    assert "approved already" in said, said
    assert "undo" not in said and "forgotten" not in said, said
    assert len(said.splitlines()) == 1


def test_an_id_of_no_entry_says_there_is_none(tmp_path):
    root = ms.make_project(tmp_path, "live")
    for eid, kind in (("l-0badc0de", "learning"), ("d-0badc0de", "decision"), ("h-0badc0de", "handoff item")):
        out = invoke("memory", "approve", eid, "--project", root)
        assert out.code == 1
        said = out.err.strip()
        assert said.startswith(f"lh: no {kind} {eid} in "), said
        assert "undo" not in said, said


def test_a_forgotten_learning_is_sent_to_undo(tmp_path):
    root = ms.make_project(tmp_path, "live")
    lid = _one_waiting(root)
    assert invoke("memory", "forget", lid, "--project", root).code == 0
    out = invoke("memory", "approve", lid, "--project", root)
    assert out.code == 1
    said = out.err.strip()
    assert said.startswith(f"lh: {lid} is forgotten"), said
    assert f"lh memory undo {lid}" in said, said
