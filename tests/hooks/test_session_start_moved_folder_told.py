"""A project folder moved or renamed (no origin: its key is its path) starts with no memory, and its
earlier memory is taken over only when the person says so (``lh memory adopt``, ADR 0035). The first
start in the new folder asks them: when the worker's record of a root that is gone names the same
repository (the commit HEAD pointed at, its git folder, or the plain folder itself, which a move keeps),
the person is told where its memory was and the command that takes it over, once. Nothing is merged."""

import json
import os

from lazy_harness import paths
from tests.hooks.hookrun import SID, run_hook, spawned_workers_gone
from tests.memory.test_follows_project import TITLES, project_with_three, shown, start
from tests.support import memory_samples as ms


def started(root: str, sid: str = SID) -> dict:
    r = run_hook("SessionStart", {"session_id": sid, "cwd": root, "hook_event_name": "SessionStart",
                                  "source": "startup"})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    spawned_workers_gone(timeout=120)
    return json.loads(r.stdout) if r.stdout else {}


def test_the_first_start_in_a_moved_folder_names_its_earlier_memory_and_the_adopt_command(tmp_path):
    root = project_with_three(tmp_path)
    assert shown(start(root)) == 3  # the start keeps which repository is at root
    old_key = os.path.basename(paths.memory_dir(root))
    moved = str(tmp_path / "work" / "api-v2")
    os.rename(root, moved)
    said = started(moved).get("systemMessage", "")
    assert f"lh memory adopt -- {old_key}" in said and root in said, said
    assert all(t not in json.dumps(started(moved, sid="again")) for t in TITLES)  # nothing merged by itself
    assert "lh memory adopt" not in started(moved, sid="third").get("systemMessage", "")  # told once


def test_a_plain_folder_moved_is_named_too(tmp_path):
    root = str(tmp_path / "notes")
    os.makedirs(root)
    from tests.memory.test_follows_project import write_as_session

    write_as_session(root, {"decisions": [{"summary": "Notes are kept in markdown"}]})
    started(root)
    moved = str(tmp_path / "notes-2026")
    os.rename(root, moved)
    said = started(moved).get("systemMessage", "")
    assert f"lh memory adopt -- {os.path.basename(paths.memory_dir(root))}" in said, said


def test_another_project_and_a_copy_left_in_place_are_not_named(tmp_path):
    root = project_with_three(tmp_path)
    started(root)
    other = ms.make_project(tmp_path / "else", "api")
    assert "lh memory adopt" not in started(other).get("systemMessage", "")
    import shutil

    copy = str(tmp_path / "copy" / "api")
    shutil.copytree(root, copy)  # the original stays: its memory is its own
    assert "lh memory adopt" not in started(copy).get("systemMessage", "")


def test_a_folder_whose_sessions_left_only_learnings_is_named(tmp_path):
    """Its memory folder is empty: the learnings live in the learnings folder, under its key."""
    from tests.memory.test_follows_project import learning, write_as_session

    root = ms.make_project(tmp_path / "work", "site")
    write_as_session(root, {"learnings": [learning("The site builds with node 20")]})
    started(root)
    assert os.listdir(paths.memory_dir(root)) == []
    moved = str(tmp_path / "work" / "site-v2")
    os.rename(root, moved)
    said = started(moved).get("systemMessage", "")
    assert f"lh memory adopt -- {os.path.basename(paths.memory_dir(root))}" in said, said


def test_a_folder_moved_with_its_claude_code_folder_is_named_from_the_transcripts(tmp_path):
    """No record of the worker names the old folder (a version before kept roots, or another profile),
    but the person moved Claude Code's folder of the project too (to keep its sessions for --resume):
    its transcripts record the old folder, whose memory is named."""
    from lazy_harness.memory import last_key

    root = project_with_three(tmp_path)
    old_key = os.path.basename(paths.memory_dir(root))
    sessions = os.path.join(paths.projects_dir(), paths.project_key(root))
    os.makedirs(sessions)
    with open(os.path.join(sessions, "sess-a.jsonl"), "w") as fh:
        fh.write(json.dumps({"type": "user", "cwd": root, "sessionId": "sess-a"}) + "\n")
    for name in last_key.key_files(None):
        os.unlink(name)
    moved = str(tmp_path / "work" / "api-v2")
    os.rename(root, moved)
    os.rename(sessions, os.path.join(paths.projects_dir(), paths.project_key(moved)))
    said = started(moved).get("systemMessage", "")
    assert f"lh memory adopt -- {old_key}" in said and root in said, said


def test_lh_memory_show_in_the_moved_folder_names_the_earlier_memory_while_it_has_none(tmp_path):
    from tests.cli.lhrun import invoke

    root = project_with_three(tmp_path)
    started(root)
    old_key = os.path.basename(paths.memory_dir(root))
    moved = str(tmp_path / "work" / "api-v2")
    os.rename(root, moved)
    started(moved)  # told once there; show says it again, on stderr, while nothing is adopted
    shown = invoke("memory", "show", "--project", moved)
    assert shown.code == 0 and f"lh memory adopt -- {old_key}" in shown.err, shown.err
    assert not shown.out.startswith("lazy-harness")  # stdout starts with what the hook gives (scripts compare it)
    assert invoke("memory", "adopt", "--project", moved, "--", old_key).code == 0
    assert "lh memory adopt" not in invoke("memory", "show", "--project", moved).err
