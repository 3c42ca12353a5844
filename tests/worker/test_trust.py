"""task_trust.check_trust: a task's memory folder must be <memory root>/<key>, whatever the config moves."""

import os

import pytest

from lazy_harness import paths
from lazy_harness.errors import TaskError
from lazy_harness.worker import task_trust


@pytest.fixture
def task(tmp_path):
    transcript = os.path.join(paths.projects_dir(), "-p", "s.jsonl")
    os.makedirs(os.path.dirname(transcript))
    open(transcript, "w").close()
    return {"session_jsonl": transcript, "memory_dir": paths.memory_dir(str(tmp_path / "p"))}


def test_the_default_and_a_configured_root_are_trusted(task, tmp_path):
    task_trust.check_trust(task, None)
    root = str(tmp_path / "mem")
    task_trust.check_trust({**task, "memory_dir": os.path.join(root, "-p")}, None, root)
    with pytest.raises(TaskError):  # the default folder is not trusted once the config moved the root
        task_trust.check_trust(task, None, root)


def test_forged_memory_folders_are_refused(task, tmp_path):
    root = paths.memory_root()
    os.makedirs(root)
    os.makedirs(tmp_path / "outside")
    os.symlink(tmp_path / "outside", os.path.join(root, "-linked"))
    forged = [root, os.path.join(root, "-p", "sub"), os.path.join(root, "-p", ".."),
              os.path.join(root, "..", "knowledge"), os.path.join(root, "-linked"), str(tmp_path / "outside"),
              paths.claude_memory_dir("-p"), ""]
    for memory in forged:
        with pytest.raises(TaskError, match="untrusted task: memory_dir"):
            task_trust.check_trust({**task, "memory_dir": memory}, None)


def test_store_refuses_the_same_folders(task, tmp_path):
    from lazy_harness.memory import store

    root = str(tmp_path / "mem")
    store.check_memory_dir(os.path.join(root, "-p"), None, root)
    for memory in (root, os.path.join(root, "-p", "x"), task["memory_dir"], paths.claude_memory_dir("-p")):
        with pytest.raises(TaskError, match="not inside"):
            store.check_memory_dir(memory, None, root)


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_task_from_a_hook_with_another_transcripts_folder_is_trusted_when_that_folder_is_the_users(
        tmp_path, agent):
    """The hook ran with another CLAUDE_CONFIG_DIR or CODEX_HOME than the worker that takes its task
    (started by a session of the other agent or profile): the folder the task records is trusted when
    it is an agent's transcripts folder of the user's own, closed to others' writes; else refused."""
    from lazy_harness import queue

    home = tmp_path / "other-profile"
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(home / "claude"), "CODEX_HOME": str(home / "codex")}
    folder = home / ("codex" if agent == "codex" else "claude") / ("sessions" if agent == "codex" else "projects")
    transcript = folder / "2026" / "s.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_text("{}\n")
    folder.chmod(0o700)
    payload = {"session_id": "s", "transcript_path": str(transcript), "cwd": str(tmp_path / "p")}
    if agent == "codex":
        payload["lh_agent"] = "codex"
    fields = queue.task_fields(payload, "SessionEnd", True, env)
    assert fields["transcripts"] == str(folder)
    fields["memory_dir"] = paths.memory_dir(str(tmp_path / "p"))  # the worker's own memory root
    task_trust.check_trust(fields, dict(os.environ))  # the worker's environment: the default folders
    folder.chmod(0o777)
    with pytest.raises(TaskError, match="untrusted task: session_jsonl"):
        task_trust.check_trust(fields, dict(os.environ))
    folder.chmod(0o700)
    for forged in (str(tmp_path), "relative/" + folder.name):
        with pytest.raises(TaskError, match="untrusted task: session_jsonl"):
            task_trust.check_trust({**fields, "transcripts": forged}, dict(os.environ))
