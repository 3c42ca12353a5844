"""The page is a long-running process: the processes its actions start (the sync a forget starts, the
worker) are its children, and each one that ended stayed a zombie until the page was closed. The server
reaps the ones it started (``detach.reap_started``) in its loop."""

import os
import sys

from lazy_harness import detach
from tests.support.child_events import gone


def _state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def test_the_servers_loop_reaps_a_child_an_action_started(server, tmp_path):
    pid = detach.spawn([sys.executable, "-c", "pass"], str(tmp_path / "spawn.log"), dict(os.environ))
    assert gone(pid, timeout=60)  # ended: a zombie until someone waits for it
    server.service_actions()  # what serve_forever runs at each turn of its loop (the thread runs it too)
    assert _state(pid) is None


def test_reap_started_reaps_only_what_ended(tmp_path):
    pid = detach.spawn([sys.executable, "-c", "pass"], str(tmp_path / "spawn.log"), dict(os.environ))
    assert gone(pid, timeout=60)
    assert _state(pid) == "Z"
    detach.reap_started()
    assert _state(pid) is None
