import os

import pytest

from lazy_harness import paths
from tests.hooks.hookrun import SID


@pytest.fixture
def session(isolated_home, tmp_path):
    """A Stop payload (shaped like Claude Code 2.1.328's) for a project whose folder name has a space
    and a dot, with its transcript where Claude Code keeps it."""
    project = tmp_path / "my project.v2"
    project.mkdir()
    folder = os.path.join(paths.projects_dir(), paths.project_key(str(project)))
    os.makedirs(folder)
    transcript = os.path.join(folder, f"{SID}.jsonl")
    with open(transcript, "w") as fh:
        fh.write('{"type":"permission-mode","permissionMode":"default"}\n')
    return {"session_id": SID, "transcript_path": transcript, "cwd": str(project), "hook_event_name": "Stop",
            "permission_mode": "default", "stop_hook_active": False, "last_assistant_message": "done"}
