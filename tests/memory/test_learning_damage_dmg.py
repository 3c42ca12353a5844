"""A damaged learning file (bytes that are not UTF-8 text, frontmatter that is no mapping of keys, a
title or date that cannot be read) is still read leniently, but ``lh memory check`` and ``lh doctor``
name it, one line each."""

import os
import random
from pathlib import Path


from lazy_harness import paths
from lazy_harness.memory import learning_damage
from lazy_harness.recall.readback import learnings as heads
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = 1_760_000_000.0

DAMAGE = {
    "binary": (random.Random(3).randbytes(3000), "text"),
    "nul": (b"---\ntitle: x\n---\n\0\0\0\0\n", "NUL"),
    "list": (b"---\n- a\n- b\n---\n\n## Learning\n\nbody\n", "not a mapping"),
    "yaml": (b"---\ntitle: [unclosed\ncreated: 2026-13-45\n---\n\n## Learning\n\nbody\n", "not a date"),
    "date": (b"---\ntitle: A fine title\ncreated: 2026-13-45\n---\n\n## Learning\n\nbody\n", "created: not a date"),
    "title": (b"---\ntitle:\n  - one\n  - two\ncreated: 2026-01-02\n---\n\nbody\n", "title"),
}


def _learnings(tmp_path: Path) -> tuple[str, dict[str, str], str]:
    ldir = paths.learnings_dir()
    good = ms.write_learning(ldir, "A healthy learning", "proj", NOW)
    bad = {}
    for n, (kind, (data, _)) in enumerate(sorted(DAMAGE.items())):
        path = ms.write_learning(ldir, f"Damaged {kind}", "proj", NOW - 60 * (n + 1))
        Path(path).write_bytes(data)
        bad[kind] = path
    return ldir, bad, good


def test_each_damaged_learning_is_named_once_and_a_healthy_one_not(tmp_path):
    ldir, bad, good = _learnings(tmp_path)
    lines = learning_damage.unclosed_learnings(ldir)
    for kind, path in bad.items():
        named = [ln for ln in lines if ln.startswith(f"{path}: ")]
        assert len(named) == 1, (kind, lines)
        assert DAMAGE[kind][1] in named[0], named
        assert heads.read_head(path) is not None  # reading stays lenient
    assert not any(good in ln for ln in lines)
    assert len(lines) == len(bad)


def test_a_learning_with_unclosed_frontmatter_is_still_named_as_before(tmp_path):
    ldir = paths.learnings_dir()
    path = ms.write_learning(ldir, "Open block", "proj", NOW)
    Path(path).write_text(Path(path).read_text().replace("\n---\n\n## Learning", "\n\n## Learning", 1))
    assert learning_damage.unclosed_learnings(ldir) == [f"{path}: frontmatter not closed"]


def test_check_and_doctor_name_each_damaged_learning(tmp_path):
    _, bad, _ = _learnings(tmp_path)
    check = invoke("memory", "check", "--all-projects")
    for path in bad.values():
        assert sum(path in ln for ln in check.out.splitlines()) == 1, check.out
    doctor = invoke("doctor")
    text = doctor.out + doctor.err
    for path in bad.values():
        assert os.path.basename(path) in text, text


def test_check_exits_1_for_a_damaged_learning(tmp_path):
    _learnings(tmp_path)
    assert invoke("memory", "check", "--all-projects").code == 1
