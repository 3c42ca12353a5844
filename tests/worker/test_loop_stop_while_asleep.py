"""A worker asleep (lingering for a waiting task, or between two tries of a model call) stops on
SIGTERM at once, however the signal lands."""

import os
import subprocess
import sys

import pytest

from tests.support import stop_race

# The worker's SIGTERM handler set, then its own sleep (loop.run's default); once the main thread is
# asleep, the signal's flag set with no call interrupted: what a kill that lands between the main
# thread's last bytecode and its blocking call leaves behind.
_TRIPPED_WHILE_ASLEEP = stop_race.TRIP + """
import inspect
from lazy_harness.worker import loop
sleep = inspect.signature(loop.run).parameters["sleep"].default
with loop._stopped_by_sigterm():
    start_trip(signal.SIGTERM)  # why here: the handler is set
    sleep(3600)
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads the main thread's state in /proc")
def test_a_sigterm_that_lands_just_before_the_workers_sleep_still_stops_it():
    """A lingering worker sleeps until the next waiting task's time (up to ten minutes between probes
    of a full disk, longer for a usage limit); a SIGTERM that arrived just before the sleep blocked only
    set a flag, and the worker stayed until it woke. It sleeps in short steps."""
    done = subprocess.run([sys.executable, "-c", _TRIPPED_WHILE_ASLEEP], capture_output=True, text=True, timeout=60)
    assert done.returncode == 143, done.stderr
