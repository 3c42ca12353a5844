"""Whether an ``alias`` line counts is read from the machine state of the environment that asks
(memory/aliases.py ``owned(memory_dir, env)``): the resident answerer answers a prompt hook with the
hook's environment, not its own, so a hook run with ``$XDG_STATE_HOME`` set reads the records kept
there, and the question the hook sends carries that variable."""

import os

from lazy_harness import paths
from lazy_harness.memory import aliases, last_key
from lazy_harness.recall.resident import client
from tests.memory.test_alias_records_shared_by_profiles import synced_alias, two_projects


def test_the_records_of_the_askers_state_folder_decide(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    app, billing, bkey = two_projects(tmp_path)
    asker = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state-elsewhere"))
    last_key.remember_key(billing, paths.memory_dir(billing), asker)  # billing is live where the asker keeps state
    synced_alias(paths.memory_dir(app), bkey)
    assert bkey not in aliases.owned(paths.memory_dir(app), asker).keys
    assert bkey in aliases.owned(paths.memory_dir(app)).keys  # this process's own (empty) state: no live project


def test_the_question_to_the_answerer_carries_the_state_folder(tmp_path):
    env = {"HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"), "ANTHROPIC_API_KEY": "sk-x"}
    kept = client.question_env(env, cfg={"memory": {"path": ""}, "knowledge": {"path": ""}})
    assert kept["XDG_STATE_HOME"] == str(tmp_path / "state") and "ANTHROPIC_API_KEY" not in kept
