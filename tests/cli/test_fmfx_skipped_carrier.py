"""Forgetting an id whose only line every reader skips (``"summary": 42``, a lost quote) names the
file and line that carries it and why it is skipped, not only "no decision"."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import damage, files
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time() - 3600
LINES = [b'{"type": "decision", "id": "d-22222222", "summary": 42, "rationale": "x"}',
         b'{"type": "decision", "id": "d-33333333", "summary": "Hand added: use uv, "rationale": "fast"}']


@pytest.fixture
def mdir(tmp_path) -> str:
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    path = os.path.join(mdir, files.DECISIONS)
    ms.write_jsonl(path, [ms.decision(NOW, "Keep the queue on disk", "fewer parts")])
    with open(path, "ab") as fh:
        fh.write(b"\n".join(LINES) + b"\n")
    return mdir


@pytest.mark.parametrize(("eid", "line", "why"), [("d-22222222", 2, "summary is not text"),
                                                   ("d-33333333", 3, "not JSON")])
def test_the_refusal_names_the_skipped_line_that_carries_the_id(mdir, eid, line, why):
    path = os.path.join(mdir, files.DECISIONS)
    said = damage.no_entry(mdir, eid, "decision")
    assert f"{path}:{line} carries it" in said.message and why in said.message, said.message
    assert path in (said.hint or "")


def test_an_id_no_line_carries_is_refused_as_before(mdir):
    said = damage.no_entry(mdir, "d-44444444", "decision")
    assert said.message == f"no decision d-44444444 in {mdir}" and said.hint == "lh memory show"


def test_forget_names_the_line(mdir, tmp_path):
    done = invoke("memory", "forget", "d-22222222", "--project", os.path.join(str(tmp_path), "proj"))
    assert done.code == 1 and f"{files.DECISIONS}:2 carries it" in done.err, done.err
