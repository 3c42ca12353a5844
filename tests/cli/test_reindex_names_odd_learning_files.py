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


def test_reindex_names_five_unreadable_files_then_counts_the_rest(tmp_path, isolated_home):
    """A synced learnings folder of 10,000 links to nothing: lh memory reindex named each on its own line
    (10,000 lines); it names five, then how many more, and indexes the rest."""
    from tests.cli.lhrun import invoke

    ldir = paths.learnings_dir()
    ms.write_learning(ldir, "Regenerate protobuf stubs after a schema change", "app", NOW - 60, slug="stubs")
    month = os.path.join(ldir, time.strftime("%Y-%m", time.localtime(NOW)))
    for i in range(10_000):
        os.symlink(os.path.join(month, "nowhere.md"), os.path.join(month, f"2020-01-01-gone-{i:05}.md"))
    done = invoke("memory", "reindex")
    assert done.code == 0, done.err
    assert "indexed 1 entries" in done.out, done.out
    said = done.err.splitlines()
    assert len(said) == 6, said[:8]
    assert sum("which does not exist" in ln for ln in said) == 5, said
    assert "9,995 more" in said[-1] and "cannot be read" in said[-1], said[-1]
