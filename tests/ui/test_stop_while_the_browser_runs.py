"""``lh ui`` waits for a console browser (w3m, lynx, a $BROWSER command) to exit before it says it
serves: a stop signal that lands just before that wait blocks must still stop it."""

import os
import signal
import subprocess
import sys

import pytest

from tests.support import stop_race

# The browser command up (its file written) and the main thread asleep waiting for it to exit, then the
# signal's flag set with no call interrupted: what a Ctrl-C that lands between the main thread's last
# bytecode and its blocking call leaves behind.
_TRIPPED_WHILE_THE_BROWSER_RUNS = stop_race.TRIP + """
import types
from lazy_harness.cli import ui
signal.signal(signal.SIGINT, signal.default_int_handler)
started = sys.argv[1]
start_trip(signal.SIGINT, lambda: os.path.exists(started))
server = types.SimpleNamespace(url="http://127.0.0.1:9/secret/?token=t", opener=None)
try:
    ui._open_browser(server)
except KeyboardInterrupt:
    sys.exit(7)
"""

BROWSER = """#!{python}
import os, sys, time
for fd in (1, 2):  # why: the test waits for lh ui's output to end, not for the browser's
    os.dup2(os.open(os.devnull, os.O_WRONLY), fd)
open({started!r} + ".tmp", "w").write(str(os.getpid()))
os.replace({started!r} + ".tmp", {started!r})
time.sleep(120)
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads the main thread's state in /proc")
def test_a_ctrl_c_that_lands_just_before_the_wait_for_a_console_browser_stops_lh_ui(tmp_path):
    """Python's webbrowser waits for a console browser until it exits; a Ctrl-C (or SIGTERM) that arrived
    just before that wait blocked only set a flag, and lh ui went on until the person quit the browser."""
    started = tmp_path / "browser.pid"
    browser = tmp_path / "console-browser"
    browser.write_text(BROWSER.format(python=sys.executable, started=str(started)))
    browser.chmod(0o755)
    try:
        done = subprocess.run([sys.executable, "-c", _TRIPPED_WHILE_THE_BROWSER_RUNS, str(started)],
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "BROWSER": str(browser)})
    finally:
        if started.exists():
            try:
                os.kill(int(started.read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert done.returncode == 7, done.stderr
