"""A remote that declines the push (its pre-receive hook: a quota, a protected branch) is not another
machine pushing first: the round stops at once with the remote's own reason, nothing is lost, and the
next round, once the remote takes pushes again, sends it. Real git, one bare remote on disk."""

import pytest

from lazy_harness import sync
from tests.test_sync import KEY, Machine, _git


def test_a_push_the_remote_declines_names_the_remotes_reason_and_the_next_round_sends_it(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use tox")
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'quota exceeded for this repository' >&2\nexit 1\n")
    hook.chmod(0o755)
    with pytest.raises(sync.SyncError) as err:
        a.sync()
    said = str(err.value)
    assert "\n" not in said
    assert "quota exceeded" in said
    assert "another machine" not in said
    assert "quota exceeded" in sync.status(a.cfg, a.env)["last_error"]
    hook.unlink()
    assert a.sync()["pushed"]
    assert "Use tox" in _git("--git-dir", str(remote), "show", f"main:projects/{KEY}/decisions.jsonl")


def test_a_push_that_finds_the_remotes_ref_locked_by_another_push_is_a_race_tried_again(tmp_path):
    """Two machines pushing at once to one remote: the second finds the ref locked or moved under it
    (git: ``[remote rejected] HEAD -> main (failed to update ref)``, ``cannot lock ref``). That is
    another machine first, tried again as one, not a refusal of the remote."""
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use tox")
    assert a.sync()["pushed"]
    a.add("decision", "Use nox")
    lock = remote / "refs" / "heads" / "main.lock"  # what a push under way holds
    lock.write_text("")
    with pytest.raises(sync.SyncError) as err:
        a.sync()
    assert f"push rejected {sync.rounds.PUSH_TRIES} times" in str(err.value), str(err.value)
    lock.unlink()
    assert a.sync()["pushed"]
    assert "Use nox" in _git("--git-dir", str(remote), "show", f"main:projects/{KEY}/decisions.jsonl")
