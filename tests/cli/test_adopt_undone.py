"""``lh memory adopt`` is a journalled run like every other command that changes memory: ``lh memory
history`` lists it and ``lh memory undo`` puts both folders back as they were, the earlier folder's
files, this folder's entries and its record of the alias."""

import os
import shutil

from lazy_harness import paths
from lazy_harness.memory import aliases
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import project_with_three


def _tree(folder: str, derived: bool = True) -> dict[str, bytes]:
    """The folder's files, less journals and locks; ``derived=False``: less handoff.md and the caches
    rendered from the log too (an undo renders handoff.md again from handoff.jsonl)."""
    out = {}
    for base, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "journal"]
        for name in names:
            if not name.endswith(".lock") and (derived or not (name.startswith(".") or name == "handoff.md")):
                with open(os.path.join(base, name), "rb") as fh:
                    out[os.path.relpath(os.path.join(base, name), folder)] = fh.read()
    return out


def _moved(tmp_path) -> tuple[str, str, str]:
    root = project_with_three(tmp_path)  # keyed by its path: a move leaves its memory under the old key
    old = paths.memory_dir(root)
    moved = str(tmp_path / "new" / "api")
    os.makedirs(os.path.dirname(moved))
    shutil.move(root, moved)
    return moved, old, paths.memory_dir(moved)


def test_adopt_is_listed_and_undone(tmp_path):
    moved, old, here = _moved(tmp_path)
    os.makedirs(here, exist_ok=True)
    before_old, before_here = _tree(old), _tree(here, derived=False)
    done = invoke("memory", "adopt", "--project", moved, "--", os.path.basename(old))
    assert done.code == 0, done.out + done.err
    assert _tree(here) != before_here and os.path.basename(old) in aliases.owned(here).keys
    history = invoke("memory", "history", "--project", moved)
    assert any(" adopt " in f" {line} " and "lh memory undo" in line for line in history.out.splitlines()), history.out
    undone = invoke("memory", "undo", "--project", moved)
    assert undone.code == 0, undone.out + undone.err
    assert "(adopt)" in undone.out, undone.out
    assert _tree(old) == before_old
    assert _tree(here, derived=False) == before_here
    assert os.path.basename(old) not in aliases.owned(here).keys


def test_undo_keeps_what_a_session_wrote_since(tmp_path):
    from lazy_harness.memory import files
    from tests.memory.test_follows_project import write_as_session

    moved, old, here = _moved(tmp_path)
    before_old = _tree(old)
    assert invoke("memory", "adopt", "--project", moved, "--", os.path.basename(old)).code == 0
    write_as_session(moved, {"decisions": [{"summary": "Cache the catalogue for a minute"}]})
    undone = invoke("memory", "undo", "--project", moved)
    assert undone.code == 0, undone.out + undone.err
    assert _tree(old) == before_old
    summaries = [r["summary"] for r in files.read_entries(os.path.join(here, files.DECISIONS))]
    assert summaries == ["Cache the catalogue for a minute"], summaries
