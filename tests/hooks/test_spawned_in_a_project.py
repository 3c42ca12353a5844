"""The processes a hook starts run the same whatever folder the session is in: Claude Code runs hooks
in the project's folder, and ``python -m`` would put that folder first on the import path, so a
project's own ``json.py`` or ``fcntl.py`` would be imported by the worker (and by the sync and the
resident answerer, started the same way: ``detach.module_argv``)."""

import json
import os
import subprocess
import sys
from pathlib import Path

from lazy_harness import detach, paths, queue, settings
from tests.hooks.hookrun import enable_loop, hook_log, spawned_workers_gone
from tests.support import fake_claude
from tests.support import memory_samples as ms
from tests.support.sessions import place, wait_finished

SID = "5d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f40"


def test_the_worker_a_hook_starts_never_imports_the_projects_own_modules(tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch)
    enable_loop(os.environ["HOME"])
    project = Path(ms.make_project(tmp_path, "proj"))
    marker = tmp_path / "imported-from-the-project"
    for name in ("json.py", "fcntl.py", "types.py"):
        (project / name).write_text(f"open({str(marker)!r}, 'a').write({name!r})\n")
    payload = place(project, session_id=SID)
    hook = settings.command_for("SessionEnd", sys.executable)
    done = subprocess.run(["sh", "-c", hook], cwd=project, input=json.dumps(payload).encode(), capture_output=True,
                          env=dict(os.environ), timeout=60)
    assert done.returncode == 0 and done.stdout == b"" and done.stderr == b"", done
    assert "worker pid" in hook_log(paths.claude_dir())[-1]
    [finished] = wait_finished(paths.queue_dir())
    spawned_workers_gone()
    assert not marker.exists(), marker.read_text()
    assert queue.read_task(finished)["outcome"] == "processed"
    assert len(fake_claude.calls(fake)) == 1


def test_every_process_we_start_runs_without_its_folder_on_the_import_path():
    argv = detach.module_argv("lazy_harness.worker", "--once", python="/usr/bin/python3")
    assert argv == ["/usr/bin/python3", "-P", "-m", "lazy_harness.worker", "--once"]
    from lazy_harness.queue import submit

    assert submit.worker_argv()[1:3] == ["-P", "-m"]
