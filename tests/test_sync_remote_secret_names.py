"""A remote file whose name holds a secret (an AWS key in a learning's file name): merged, its path is
printed by every listing that names the file (``lh memory show``, the page, sync's own messages), to
the person and to any agent that runs them, and no hold covers a name. The round refuses such a name,
shown through the redactor, and merges nothing; a name that is fine as text (``password-hunter2``)
merges. Every message of sync that names a remote path shows it through the redactor (docs/how/sync.md,
"A name that holds a secret"). Real git, one machine home, one bare remote, a plain clone."""

from pathlib import Path

import pytest

from lazy_harness import sync
from lazy_harness.sync import scan, sent_names
from tests.test_sync import Machine, _git
from tests.test_sync_remote_many_files import _push_paths

KEY_ID = "AKIAIOSFODNN7EXAMPLE"
MONTH = "knowledge/learnings/2026-01"


@pytest.fixture
def remote(tmp_path) -> Path:
    path = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(path))
    return path


def test_a_name_holding_a_secret_is_refused_and_shown_redacted(tmp_path, remote):
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use a file queue")
    a.sync()
    _push_paths(tmp_path, remote, [f"{MONTH}/2026-01-02-key-{KEY_ID}.md"])
    a.add("decision", "Made here meanwhile")
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    said = exc.value.message
    assert "refused, nothing merged" in said and "[REDACTED:aws-access-key]" in said, said
    assert KEY_ID not in said and KEY_ID not in (exc.value.hint or "")
    assert KEY_ID not in sync.status(a.cfg, a.env)["last_error"]
    assert not (a.data / MONTH).exists()
    _push_paths(tmp_path, remote, [], gone=f"{MONTH}/2026-01-02-key-{KEY_ID}.md")
    assert a.sync()["pushed"]


def test_a_name_that_is_fine_as_text_merges(tmp_path, remote):
    a = Machine(tmp_path, remote, "a")
    a.sync()
    _push_paths(tmp_path, remote, [f"{MONTH}/2026-01-02-password-hunter2.md"])
    a.sync()
    assert (a.data / MONTH / "2026-01-02-password-hunter2.md").exists()


def test_a_stranger_named_with_a_secret_is_refused_with_the_name_redacted(tmp_path, remote):
    """The older refusals name the remote's path too (a file that is not memory here)."""
    a = Machine(tmp_path, remote, "a")
    a.sync()
    _push_paths(tmp_path, remote, [f"notes-{KEY_ID}.txt"])
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    assert "[REDACTED:aws-access-key]" in exc.value.message and KEY_ID not in exc.value.message


def test_a_secret_name_this_machine_removed_goes_out_while_the_remote_moved_on(tmp_path, remote, monkeypatch):
    """The remote held the name when this machine last merged it (an earlier version pushed it, or
    merged it): no news. Removed here while another machine pushed, the round merges and sends the
    removal, rather than refuse the name it is taking out."""
    a = Machine(tmp_path, remote, "a")
    name = a.data / MONTH / f"2026-01-02-key-{KEY_ID}.md"
    name.parent.mkdir(parents=True)
    name.write_text("---\ntitle: Keys\nstatus: active\n---\nRotate them.\n")
    with monkeypatch.context() as older:  # a version before this one sent its own names as they were
        for module in (scan, sent_names):
            older.setattr(module, "secret_names", lambda names, extra=(): {})
        a.sync()
    assert KEY_ID in _git("ls-tree", "-r", "--name-only", "main", cwd=remote)
    _push_paths(tmp_path, remote, ["knowledge/learnings/2026-01/2026-01-03-other.md"])
    name.unlink()
    a.sync()
    held = _git("ls-tree", "-r", "--name-only", "main", cwd=remote)
    assert KEY_ID not in held and "2026-01-03-other.md" in held
