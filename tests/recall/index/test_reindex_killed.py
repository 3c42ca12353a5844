"""``lh memory reindex`` killed (SIGKILL) after it cleared the index and committed a part of the new one:
the index is short, and nothing in the files changed. The next SessionStart must find it behind and ask
the worker, which brings it back whole; before, the writer's records (``seen/``) still said "up to date"
and the index stayed short until the files next changed."""

import os
import re
import signal
import subprocess
import sys

from lazy_harness import paths
from lazy_harness.recall.index import writer
from tests.hooks.hookrun import hook_log, run_hook
from tests.recall.index.test_writer import big_memory, rows, wait_for
from tests.support.child_events import gone

# A reindex that stops after its first part is committed (at the second part's word lists), says so
# (a file) and waits there to be killed.
STOPPED_REINDEX = """
import sys, time
from lazy_harness import paths
from lazy_harness.recall.index import lexical_write, writer
real = lexical_write.flush
calls = []
def stopping(conn, pending):
    calls.append(1)
    if len(calls) == 2:  # the first part is committed
        open(sys.argv[2], "w").close()
        time.sleep(600)
    return real(conn, pending)
lexical_write.flush = stopping
writer.update(paths.recall_index_file(), [sys.argv[1]], None, fresh=True)
"""


def test_a_reindex_killed_mid_way_is_found_behind_at_the_next_start_and_healed(tmp_path):
    root, mem = big_memory(tmp_path, 4500)  # three parts
    path = paths.recall_index_file()
    assert writer.update(path, [mem], paths.learnings_dir())[0] == 4500
    assert not writer.behind(os.environ, mem, paths.learnings_dir())
    ready = str(tmp_path / "cleared")
    proc = subprocess.Popen([sys.executable, "-c", STOPPED_REINDEX, mem, ready], env=dict(os.environ),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for(ready, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert 0 < rows(path)[0] < 4500  # cleared, then a part of the new index committed
    assert writer.behind(os.environ, mem, paths.learnings_dir())
    start = run_hook("SessionStart", {"session_id": "s-2", "cwd": root, "hook_event_name": "SessionStart",
                                      "source": "startup"})
    assert start.returncode == 0
    last = hook_log(paths.claude_dir())[-1]
    pid = re.search(r"index behind the memory files: index task queued, worker pid (\d+)", last)
    assert pid, last
    assert gone(int(pid.group(1)), 120)
    assert rows(path)[:2] == (4500, 4500)
