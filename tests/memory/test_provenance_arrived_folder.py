"""The record of what ``lh sync`` brought in (``paths.synced_in_file``) is read at most once a second per
process, and read again sooner when the folder it is in changes. That folder was told by the raw
``CLAUDE_CONFIG_DIR`` and ``HOME``: a relative ``CLAUDE_CONFIG_DIR`` (Claude Code reads it against its
folder, and so does lh) names another folder once the process works in another one, while its text
stays the same; within the second the first folder's record was served for the second, so an entry
brought in there read as synced here, and one brought in here as this machine's own. It is now keyed by
the record's path as lh resolves it (``paths.synced_in_file``)."""

from lazy_harness.memory import ids, provenance

REC = {"type": "decision", "summary": "Deploy straight from main", "rationale": "r"}


def record(folder, keys):
    state = folder / "cfg" / "queue" / "state"
    state.mkdir(parents=True)
    (state / "synced-in").write_text("".join(k + "\n" for k in keys))


def test_a_relative_claude_dir_in_another_folder_is_that_folders_record(isolated_home, tmp_path, monkeypatch):
    monkeypatch.setattr(provenance, "LOOK_AGAIN", 1e9)  # why: every read within the window, no clock involved
    eid = ids.of_record(REC, "decision")
    record(tmp_path / "a", [eid])
    record(tmp_path / "b", ["d-00000000"])
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "cfg")
    monkeypatch.chdir(tmp_path / "a")
    provenance.look_again()
    assert provenance.arrived(REC, "decision")
    monkeypatch.chdir(tmp_path / "b")
    assert not provenance.arrived(REC, "decision")

