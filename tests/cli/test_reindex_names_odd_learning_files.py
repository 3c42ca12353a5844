"""``lh memory reindex`` over a learnings folder holding a FIFO, a folder and a link to nothing where
learning files should be: it indexes the rest, names each such file in one line, and never waits on
the FIFO."""

import os
import subprocess
import time

from lazy_harness import paths
from tests.cli.lhrun import lh_script
from tests.support import memory_samples as ms

NOW = time.time()


def test_reindex_names_each_learning_file_it_cannot_read_and_goes_on(tmp_path, isolated_home):
    ldir = paths.learnings_dir()
    ms.write_learning(ldir, "Regenerate protobuf stubs after a schema change", "app", NOW - 60, slug="stubs")
    month = os.path.join(ldir, time.strftime("%Y-%m", time.localtime(NOW)))
    fifo, folder, dangling = (os.path.join(month, f"2020-01-0{i}-{name}.md")
                              for i, name in ((1, "pipe"), (2, "folder"), (3, "gone")))
    os.mkfifo(fifo)
    os.mkdir(folder)
    os.symlink(os.path.join(month, "nowhere.md"), dangling)
    # why a bound and not a sleep: a reindex that opened the FIFO would wait for a writer for good
    done = subprocess.run([*lh_script(), "memory", "reindex"], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert "indexed" in done.stdout
    odd = ((fifo, "not a regular file"), (folder, "a folder, not a file"), (dangling, "which does not exist"))
    for path, why in odd:
        named = [ln for ln in done.stderr.splitlines() if path in ln]
        assert len(named) == 1 and why in named[0], done.stderr
