"""The records that decide whether an ``alias`` line counts (memory/aliases.py ``counted``) guard the
memory, which every Claude Code profile (``$CLAUDE_CONFIG_DIR``) on a machine shares: the key each
project was last written under (memory/last_key.py) and the aliases this machine wrote. They are
kept once per machine (``$XDG_STATE_HOME/lazy-harness``), whichever profile wrote them; those an
earlier version kept in a profile's ``<queue>/state`` still count there."""

import json
import os
import stat

import pytest

from lazy_harness import paths
from lazy_harness.memory import aliases, last_key
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import add_origin, learning, set_origin, start, write_as_session
from tests.support import memory_samples as ms

REFUND = "Billing refunds go through the finance-approvals queue"
WORK = ".claude-work"  # the second profile's folder


@pytest.fixture(autouse=True)
def _state_home(monkeypatch):
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)  # why: resolved into the test's HOME, as the XDG dirs are


def profile(monkeypatch, name: str | None) -> None:
    """Run what follows under the default profile (None: ``~/.claude``) or the one named ``name``."""
    if name is None:
        monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    else:
        monkeypatch.setenv("CLAUDE_CONFIG_DIR", os.path.join(paths.home(), name))


def synced_alias(mdir: str, key: str) -> None:
    """An alias line as a round's merge leaves it: appended by another clone, nothing noted here."""
    os.makedirs(mdir, exist_ok=True)
    with open(os.path.join(mdir, aliases.FILE), "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"op": "alias", "folder": key, "why": "synced", "ts": "2026-11-21T00:00:00Z"}) + "\n")


def two_projects(tmp_path) -> tuple[str, str, str]:
    """(app's root, billing's root, billing's key): billing wrote a project-only learning."""
    app = ms.make_project(tmp_path / "w", "app")
    write_as_session(app, {"decisions": [{"summary": "App renders with htmx"}]})
    billing = ms.make_project(tmp_path / "w", "billing")
    write_as_session(billing, {"learnings": [learning(REFUND)]}, session="b-1")
    return app, billing, os.path.basename(paths.memory_dir(billing))


def test_a_project_live_under_one_profile_is_live_under_the_other(tmp_path, monkeypatch):
    app, billing, bkey = two_projects(tmp_path)
    profile(monkeypatch, WORK)
    assert REFUND in start(billing, sid="b-2")  # billing runs only under the second profile
    profile(monkeypatch, None)
    start(app, sid="a-1")
    synced_alias(paths.memory_dir(app), bkey)
    assert bkey not in aliases.owned(paths.memory_dir(app)).keys
    assert REFUND not in start(app, sid="a-2")
    profile(monkeypatch, WORK)
    assert REFUND not in start(app, sid="a-3")


def test_adopt_under_one_profile_counts_under_the_other(tmp_path, monkeypatch):
    app, billing, bkey = two_projects(tmp_path)
    profile(monkeypatch, WORK)
    last_key.remember_key(billing, paths.memory_dir(billing))  # as the worker keeps it after a task
    profile(monkeypatch, None)
    forced = invoke("memory", "adopt", "--force", "--project", app, "--", bkey)
    assert forced.code == 0, forced.out + forced.err
    assert bkey in aliases.owned(paths.memory_dir(app)).keys
    profile(monkeypatch, WORK)
    assert bkey in aliases.owned(paths.memory_dir(app)).keys
    assert REFUND in start(app, sid="a-4")


def test_records_are_kept_for_the_machine_in_a_private_folder(tmp_path, monkeypatch):
    app, billing, bkey = two_projects(tmp_path)
    last_key.remember_key(billing, paths.memory_dir(billing))
    assert invoke("memory", "adopt", "--force", "--project", app, "--", bkey).code == 0
    machine = os.path.join(paths.home(), ".local", "state", "lazy-harness")
    assert os.path.isfile(os.path.join(machine, "keys", paths.project_key(billing)))
    assert os.path.isfile(os.path.join(machine, "aliases", os.path.basename(paths.memory_dir(app))))
    for folder in (machine, os.path.join(machine, "keys"), os.path.join(machine, "aliases")):
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert not os.path.exists(os.path.join(paths.state_dir(), "keys"))
    assert not os.path.exists(os.path.join(paths.state_dir(), "aliases"))


def test_a_consent_in_a_folder_others_may_write_does_not_count(tmp_path):
    app, billing, bkey = two_projects(tmp_path)
    last_key.remember_key(billing, paths.memory_dir(billing))
    synced_alias(paths.memory_dir(app), bkey)
    forged = os.path.join(paths.home(), ".local", "state", "lazy-harness", "aliases")
    os.makedirs(forged)
    os.chmod(forged, 0o777)
    with open(os.path.join(forged, os.path.basename(paths.memory_dir(app))), "w", encoding="utf-8") as fh:
        fh.write(bkey + "\n")
    assert bkey not in aliases.owned(paths.memory_dir(app)).keys


# --- what an earlier version kept in the profile's <queue>/state -----------------------------------

def old_key_record(root: str, key: str) -> str:
    """A last-key record where the version before kept it: ``<queue>/state/keys/<path key>``."""
    path = os.path.join(paths.state_dir(), "keys", paths.project_key(root))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"{key}\n{root}\n{last_key.identity(root)}\n")
    return path


def old_consent(app: str, billing: str, bkey: str) -> None:
    """billing's last-key record and app's consent to billing's key where the version before kept
    them (what `lh memory adopt --force` noted), with a synced alias line naming billing's key in app."""
    old_key_record(billing, bkey)
    synced_alias(paths.memory_dir(app), bkey)
    old = os.path.join(paths.state_dir(), "aliases", os.path.basename(paths.memory_dir(app)))
    os.makedirs(os.path.dirname(old))
    with open(old, "w", encoding="utf-8") as fh:
        fh.write(bkey + "\n")


def test_an_old_key_record_of_the_profile_still_makes_its_project_live(tmp_path):
    app, billing, bkey = two_projects(tmp_path)
    old_key_record(billing, bkey)
    synced_alias(paths.memory_dir(app), bkey)
    assert bkey not in aliases.owned(paths.memory_dir(app)).keys
    assert (bkey, billing) in last_key.recorded_roots()


def test_an_old_consent_of_the_profile_still_counts(tmp_path):
    app, billing, bkey = two_projects(tmp_path)
    old_consent(app, billing, bkey)
    assert bkey in aliases.owned(paths.memory_dir(app)).keys
    assert REFUND in start(app, sid="a-5")


def test_an_origin_change_recorded_before_the_upgrade_is_taken_over_at_the_first_start(tmp_path):
    root = ms.make_project(tmp_path / "w", "api")
    add_origin(root, "git@github.com:team/api.git")
    write_as_session(root, {"learnings": [learning(REFUND)],
                            "decisions": [{"summary": "Deploy the api with the blue green script"}]})
    first = paths.memory_dir(root)
    old_key_record(root, os.path.basename(first))  # the worker of the version before, after a task
    set_origin(root, "git@github.com:team/api-renamed.git")
    assert paths.memory_dir(root) != first
    text = start(root, sid="r-1")
    assert REFUND in text and "blue green" in text
    assert os.path.basename(first) in aliases.owned(paths.memory_dir(root)).keys
    assert last_key.read(paths.last_key_file(root))[0] == os.path.basename(paths.memory_dir(root))


def test_an_origin_change_recorded_before_the_upgrade_survives_a_first_start_under_another_profile(
        tmp_path, monkeypatch):
    root = ms.make_project(tmp_path / "w", "api")
    add_origin(root, "git@github.com:team/api.git")
    write_as_session(root, {"decisions": [{"summary": "Deploy the api with the blue green script"}]})
    first = paths.memory_dir(root)
    old_key_record(root, os.path.basename(first))  # kept by the version before, under the default profile
    set_origin(root, "git@github.com:team/api-renamed.git")
    profile(monkeypatch, WORK)
    start(root, sid="r-w")  # the first start after the upgrade: the other profile, which kept no record
    profile(monkeypatch, None)
    assert "blue green" in start(root, sid="r-1")
    assert os.path.basename(first) in aliases.owned(paths.memory_dir(root)).keys
    kept_before = os.path.join(paths.profile_records_dir("keys"), os.path.basename(paths.last_key_file(root)))
    assert not os.path.exists(kept_before)  # taken over: the machine's record stands for it now


def test_an_old_consent_read_under_its_profile_counts_under_the_other_after(tmp_path, monkeypatch):
    app, billing, bkey = two_projects(tmp_path)
    old_consent(app, billing, bkey)  # under the default profile
    assert bkey in aliases.owned(paths.memory_dir(app)).keys  # read once under its own profile
    profile(monkeypatch, WORK)
    last_key.remember_key(billing, paths.memory_dir(billing))  # billing is live under this profile too
    assert bkey in aliases.owned(paths.memory_dir(app)).keys
