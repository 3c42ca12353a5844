"""A FIFO in place of the learning-heads cache (``<cache>/learning-heads.json``: a restore, a tool's
named pipe): SessionStart read it with a plain ``open`` and waited there for a writer until Claude
Code killed the hook, so every session started without memory. It is read as no cache now."""

import os
import subprocess
import time

from lazy_harness import paths
from tests.hooks.test_readback_review_damaged import _start
from tests.support import memory_samples as ms

NOW = time.time()


def test_a_fifo_in_place_of_the_heads_cache_does_not_hold_the_start(isolated_home, tmp_path):
    project = ms.make_project(tmp_path, "demo")
    ms.write_learning(paths.learnings_dir(None), "ledger exports are idempotent", "demo", NOW - 100)
    cache = paths.learning_heads_file()
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    if os.path.lexists(cache):
        os.unlink(cache)
    os.mkfifo(cache)
    try:
        text = _start(project)
    except subprocess.TimeoutExpired:  # why caught: the hook held in open() until its timeout
        text = None
    assert text is not None and "ledger exports are idempotent" in text
