"""A memory file that cannot be read (a folder in its place): ``lh doctor`` names it, as ``lh memory
check`` does, and ``lh memory search`` still finds the rest of memory."""

import os
import time

from lazy_harness import paths
from lazy_harness.memory import files
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms


def test_doctor_warns_of_a_memory_file_that_is_a_folder(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.FAILURES), [ms.failure(time.time(), "a fine failure")])
    os.makedirs(os.path.join(mdir, files.DECISIONS))
    found = [ln for ln in invoke("doctor").out.splitlines() if "memory files:" in ln]
    assert len(found) == 1 and found[0].startswith("warn"), found
    assert os.path.join(mdir, files.DECISIONS) in found[0] and "a folder" in found[0]


def test_search_finds_the_rest_of_memory_beside_a_folder_in_a_files_place(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.FAILURES), [ms.failure(time.time(), "kafka consumer stalls")])
    os.makedirs(os.path.join(mdir, files.DECISIONS))
    r = invoke("memory", "search", "kafka", "--project", root)
    assert r.code == 0 and "kafka consumer stalls" in r.out, r.out + r.err


def test_doctor_names_ten_damaged_learning_files_then_counts_the_rest(isolated_home):
    """A sync brought 10,000 learning files whose frontmatter is not closed: lh doctor named each on its
    own line (10,000 lines). It names ten, then how many more, and lh memory check still lists each."""
    ldir = paths.learnings_dir()
    month = os.path.join(ldir, "2026-01")
    os.makedirs(month)
    for i in range(10_000):
        with open(os.path.join(month, f"2026-01-02-open-{i:05}.md"), "w", encoding="utf-8") as fh:
            fh.write(f"---\ntitle: Open block {i}\n\n## Learning\n\nbody\n")
    out = invoke("doctor").out
    named = [ln for ln in out.splitlines() if ln.startswith("warn  learning files:")]
    assert len(named) == 12, len(named)  # the count, ten files, how many more
    assert named[0].split(": ", 1)[1].startswith("10,000 damaged learning file(s)"), named[0]
    assert "9,990 more" in named[-1] and "lh memory check --all-projects" in named[-1], named[-1]
