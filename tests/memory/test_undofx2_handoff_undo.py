"""``lh memory undo`` of a run that changed handoff.md: a hand edit of handoff.md saved after the run
is recorded before the undo and kept (docs/how/consolidation.md, "Undo, forget, close"), and with
nothing changed since, handoff.md gets its previous bytes back."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, handoff, handoff_answer, journal
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import SID, run_hook
from tests.support import memory_samples as ms

NAME = "undo.proj"


@pytest.fixture
def project(tmp_path, isolated_home) -> tuple[str, str]:
    """A project whose session left two open items (rendered by the worker's writer, with its project)."""
    root = ms.make_project(tmp_path, NAME, branch="main")
    mdir = paths.memory_dir(root)
    os.makedirs(mdir, exist_ok=True)
    at = time.time() - 3600
    handoff_answer.apply_answer(mdir, ["xray task", "yankee task"], [],
                         {"project": NAME, "session_id": "sess-1", "task_id": "t-1"}, at, at)
    return root, mdir


def md_path(mdir: str) -> str:
    return os.path.join(mdir, files.HANDOFF)


def read_md(mdir: str) -> bytes:
    with open(md_path(mdir), "rb") as fh:
        return fh.read()


def open_lines(root: str) -> list[str]:
    """The open item lines the real SessionStart hook gives a session."""
    result = run_hook("SessionStart", {"session_id": SID, "transcript_path": f"/nowhere/{SID}.jsonl", "cwd": root,
                                       "hook_event_name": "SessionStart", "source": "startup"})
    assert result.returncode == 0, result.stderr
    ctx = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    return [line for line in ctx.splitlines() if line.startswith("- open item")]


def test_a_hand_edit_saved_after_a_close_survives_its_undo(project):
    root, mdir = project
    assert invoke("memory", "close", "xray task", "--project", root).code == 0
    with open(md_path(mdir), "a", encoding="utf-8") as fh:
        fh.write("- zulu added by hand\n")
    r = invoke("memory", "undo", "--project", root)
    assert r.code == 0, r.err
    shown = open_lines(root)
    assert any(line.endswith(": zulu added by hand") for line in shown), shown
    assert any(line.endswith(": xray task") for line in shown), shown  # the close is undone
    assert any(line.endswith(": yankee task") for line in shown), shown
    text = read_md(mdir).decode()
    assert "zulu added by hand" in text and "xray task" in text and f"project={NAME}" in text
    assert [i["text"] for i in handoff.open_items(handoff.load(mdir)[0])] == [
        "xray task", "yankee task", "zulu added by hand"]
    assert handoff.load(mdir)[1] == []  # the edit is in the log, not pending
    assert "1 file(s) restored" in r.out
    [run] = journal.runs(mdir)
    assert run["undone"]  # the close is undone whole: nothing is left to put back


def test_a_hand_deletion_saved_after_a_close_stays_a_close(project):
    root, mdir = project
    assert invoke("memory", "close", "xray task", "--project", root).code == 0
    text = read_md(mdir).decode()
    kept = [line for line in text.splitlines(keepends=True) if "yankee task" not in line]
    with open(md_path(mdir), "w", encoding="utf-8") as fh:
        fh.write("".join(kept))
    assert invoke("memory", "undo", "--project", root).code == 0
    shown = open_lines(root)
    assert [line.rsplit(": ", 1)[1] for line in shown] == ["xray task"], shown


def test_an_undo_with_nothing_changed_since_gives_handoff_md_its_bytes_back(project):
    root, mdir = project
    before = read_md(mdir)
    assert invoke("memory", "close", "xray task", "--project", root).code == 0
    assert read_md(mdir) != before
    r = invoke("memory", "undo", "--project", root)
    assert r.code == 0, r.err
    assert read_md(mdir) == before
    assert handoff.load(mdir)[1] == [] and not handoff.edited_since_render(mdir)
    assert [line.rsplit(": ", 1)[1] for line in open_lines(root)] == ["xray task", "yankee task"]


def test_a_render_after_an_undo_names_the_project(project):
    root, mdir = project
    assert invoke("memory", "close", "xray task", "--project", root).code == 0
    # a later writer changed the log (another item opened): the bytes of before no longer show it
    handoff_answer.apply_answer(mdir, ["whiskey task"], [], {"project": NAME, "session_id": "sess-2", "task_id": "t-2"},
                         time.time(), time.time())
    assert invoke("memory", "undo", "--project", root).code == 0
    text = read_md(mdir).decode()
    assert f"project={NAME} -->" in text and "session=undo" in text
    assert "xray task" in text and "whiskey task" in text
