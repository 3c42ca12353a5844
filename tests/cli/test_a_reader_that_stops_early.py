"""``lh memory show | head -1``: the reader takes what it wants and closes the pipe. The command ends
quietly with exit 0: no "Exception ignored ... BrokenPipeError" on stderr, no exit 120. The pipe's
reading end is closed before ``lh`` starts, so every write it makes meets a pipe with no reader (no
race with a reader that is slow to leave)."""

import os
import subprocess
import time

import pytest

from lazy_harness import paths
from tests.cli.lhrun import lh_script
from tests.support import memory_samples as ms


@pytest.mark.parametrize("args", [("memory", "show"), ("config", "show"), ("memory", "search", "cents")])
def test_a_listing_into_a_pipe_whose_reader_left_ends_quietly(tmp_path, args):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    os.makedirs(mdir)
    ms.write_jsonl(os.path.join(mdir, "decisions.jsonl"),
                   [ms.decision(time.time() - 3600, f"Keep prices in integer cents, rule {n}") for n in range(40)])
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([*lh_script(), *args], stdout=write, stderr=subprocess.PIPE, text=True,
                              cwd=root, env=dict(os.environ), timeout=60)
    finally:
        os.close(write)
    assert done.stderr == ""
    assert done.returncode == 0
