"""A resumed session whose project memory is all its own (distilled while it ran) is told nothing, as ADR
0034 wants, and hooks.log says why: the start found only this session's own entries. It said "no memory
for proj", which a person debugging the start reads as nothing written."""

import os

from lazy_harness import paths, queue
from tests.hooks.hookrun import run_hook
from tests.hooks.test_own_session import ANSWER, _own_ids
from tests.support import fake_claude
from tests.support.sessions import place
from tests.worker.spendrig import configure, run_worker


def _last_start() -> str:
    with open(os.path.join(paths.logs_dir(), "hooks.log"), encoding="utf-8") as fh:
        return [ln for ln in fh if "SessionStart" in ln][-1]


def test_a_resume_of_a_session_whose_memory_is_all_its_own(isolated_home, tmp_path, monkeypatch, project):
    fake_claude.use(tmp_path, monkeypatch, answer=ANSWER)
    configure(isolated_home)
    payload = place(project)
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "handoff-now", True))
    assert run_worker().processed == 1
    sid = payload["session_id"]
    own = _own_ids(paths.memory_dir(str(project)), sid)
    resumed = run_hook("SessionStart", {"session_id": sid, "cwd": str(project), "source": "resume",
                                        "hook_event_name": "SessionStart"})
    assert resumed.returncode == 0 and resumed.stdout == b"", resumed.stdout
    line = _last_start()
    assert "no memory for" not in line, line
    # the decision, the failure and the open item (the learning is its own section's, not counted here)
    assert "but this session's own 3 entries, never told back to it" in line, (line, own)
    fresh = run_hook("SessionStart", {"session_id": "a-new-session", "cwd": str(project), "source": "startup",
                                      "hook_event_name": "SessionStart"})
    assert fresh.stdout and "this session's own" not in _last_start(), _last_start()  # a new one is told all
