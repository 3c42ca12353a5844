"""hooks.log gives the digest's size as the budget counts it: in UTF-16 units, as Claude Code does (an
emoji is 2), not in code points."""

import os
import time

from tests.support import memory_samples as ms
from lazy_harness import config, paths
from lazy_harness.memory import fence, files
from lazy_harness.recall.readback import digest, prepared

NOW = time.time()


def test_the_logged_size_is_in_utf16_units(tmp_path):
    project = ms.make_project(tmp_path, "proj", branch="main")
    mdir = paths.memory_dir(project, os.environ)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [
        ms.decision(NOW - i * ms.DAY, "\U0001f525" * (90 + i), "\U0001f4a5" * 150) for i in range(8)])
    cfg = config.defaults()
    cfg["context"]["max_chars"] = 1500
    text, stats = digest.build_context(project, cfg, os.environ, NOW, "startup")
    assert text is not None and fence.units(text) > len(text)  # the emoji count twice
    assert stats["units"] == fence.units(text) <= 1500
    assert prepared.describe(stats).startswith(f"context {fence.units(text)}/1500 chars, "), prepared.describe(stats)
