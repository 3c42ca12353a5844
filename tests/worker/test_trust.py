"""pipeline.check_trust: a task's memory folder must be <memory root>/<key>, whatever the config moves."""

import os

import pytest

from lazy_harness import paths
from lazy_harness.errors import TaskError
from lazy_harness.worker import pipeline


@pytest.fixture
def task(tmp_path):
    transcript = os.path.join(paths.projects_dir(), "-p", "s.jsonl")
    os.makedirs(os.path.dirname(transcript))
    open(transcript, "w").close()
    return {"session_jsonl": transcript, "memory_dir": paths.memory_dir(str(tmp_path / "p"))}


def test_the_default_and_a_configured_root_are_trusted(task, tmp_path):
    pipeline.check_trust(task, None)
    root = str(tmp_path / "mem")
    pipeline.check_trust({**task, "memory_dir": os.path.join(root, "-p")}, None, root)
    with pytest.raises(TaskError):  # the default folder is not trusted once the config moved the root
        pipeline.check_trust(task, None, root)


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
            pipeline.check_trust({**task, "memory_dir": memory}, None)


def test_store_refuses_the_same_folders(task, tmp_path):
    from lazy_harness.memory import store

    root = str(tmp_path / "mem")
    store.check_memory_dir(os.path.join(root, "-p"), None, root)
    for memory in (root, os.path.join(root, "-p", "x"), task["memory_dir"], paths.claude_memory_dir("-p")):
        with pytest.raises(TaskError, match="not inside"):
            store.check_memory_dir(memory, None, root)
