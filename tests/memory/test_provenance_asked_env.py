"""``provenance.describe`` and ``provenance.arrived`` read the record of what ``lh sync`` brought in
(``paths.synced_in_file``) and this machine's user from the env they are given, as every other reader
of the store does: a command run for another profile (another ``CLAUDE_CONFIG_DIR``, a test's env)
said "session ... in api" of an entry that profile's sync brought in, reading the record of this
process's own environment."""

import os

from lazy_harness import paths
from lazy_harness.memory import ids, provenance

REC = {"summary": "Deploy the api with the blue green script", "via": "session", "session_id": "1a2b3c4d-5",
       "project_folder": "api", "project": "api", "machine": "", "author": "ana"}


def _profile(tmp_path) -> dict[str, str]:
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(tmp_path / "other-profile"), "USER": "bruno"}
    record = paths.synced_in_file(env)
    os.makedirs(os.path.dirname(record), exist_ok=True)
    with open(record, "w", encoding="utf-8") as fh:
        fh.write(ids.of_record(REC, "decision") + "\n")
    return env


def test_an_entry_that_profiles_sync_brought_in_is_said_synced(tmp_path):
    env = _profile(tmp_path)
    provenance.look_again()
    assert provenance.arrived(REC, "decision", env=env)
    assert provenance.describe(REC, "decision", env=env).startswith("sync from a machine it does not name (ana)")
    assert not provenance.arrived(REC, "decision")  # this process's own profile holds no such record
    assert provenance.describe(REC, "decision") == "session 1a2b3c4d in api"
    assert provenance.arrived(REC, "decision", env=env)  # the cache of one profile's record is not the other's


def test_an_item_that_profiles_sync_brought_in_is_said_synced(tmp_path):
    env = _profile(tmp_path)
    item = {"id": "h-0000abcd", "opened": "2026-01-02T03:04:05Z", "opened_by": "s-1", "opened_task": "t-1"}
    with open(paths.synced_in_file(env), "a", encoding="utf-8") as fh:
        fh.write(provenance.opening_key(item) + "\n")
    provenance.look_again()
    assert provenance.item_described(item, "session s-1", env=env).startswith("sync from")
    assert provenance.item_described(item, "session s-1") == "session s-1"


def test_the_author_is_the_given_envs(tmp_path):
    assert provenance.fields({"session_id": "s"}, {"USER": "bruno"})["author"] == "bruno"
