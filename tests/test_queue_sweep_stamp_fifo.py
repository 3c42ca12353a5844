"""A FIFO in place of the idle sweep's stamp (``<queue>/state/.sweep``), older than a sweep's period:
SessionStart (and every hook that sweeps) read the rotation cursor in it with a plain ``open`` and
waited there for a writer until Claude Code killed the hook. It is read as no cursor now: a sweep is
due and starts from the first session."""

import os

from lazy_harness.queue import sweep
from tests.support.fifo_wait import call_beside


def test_a_fifo_in_place_of_the_sweep_stamp_reads_as_no_cursor(tmp_path):
    stamp = str(tmp_path / ".sweep")
    os.mkfifo(stamp)
    os.utime(stamp, (1_000_000, 1_000_000))
    assert call_beside([stamp], sweep._sweep_due, stamp, 2_000_000.0, 60.0) == (True, "")


def test_a_fifo_in_place_of_the_plugins_settings_cache_reads_as_none(isolated_home, tmp_path):
    """The cache of the settings files a plugin's run looked at (``<queue>/state/plugin-twice.json``),
    read by every hook the plugin runs: a FIFO there held it in open() for good."""
    from lazy_harness import paths
    from lazy_harness.hooks import entry

    cache = os.path.join(paths.state_dir(), entry.TWICE_FILE)
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    os.mkfifo(cache)
    said = call_beside([cache], entry.settings_register, "Stop", {"cwd": str(tmp_path)}, dict(os.environ), 0.0)
    assert said is False and os.path.exists(cache)
