"""The command readers that still opened a file by its name with a plain ``open``: a FIFO in its place
held the command there until a writer came. A failed task's ``.error`` (``lh queue show``), the note of a
folder ``lh hooks install`` made (uninstall), the program a hook command runs (``lh doctor``), a session
file (``lh distill``, ``lh sessions``, ``lh knowledge``). Each now opens it without waiting and names it."""

import os

import pytest

from lazy_harness import paths, settings_write
from lazy_harness.cli import distill, doctor_hooks, hooks_install, sessions
from lazy_harness.regular_file import NotRegularFile
from tests.cli.lhrun import invoke
from tests.support.fifo_wait import HUNG, call_beside


def test_queue_show_names_a_fifo_in_place_of_a_failed_tasks_error(isolated_home):
    failed = os.path.join(paths.queue_dir(), "failed")
    os.makedirs(failed)
    open(os.path.join(failed, "50-bbbb.task"), "w").close()
    fifo = os.path.join(failed, "50-bbbb.task.error")
    os.mkfifo(fifo)

    shown = call_beside([fifo], invoke, "queue", "show", "50-bbbb")

    assert shown != HUNG
    assert shown.code == 0, shown.err
    assert f"error: cannot read {fifo}: not a regular file" in shown.out.splitlines()


def test_uninstall_names_a_fifo_in_place_of_the_made_folder_note_and_keeps_the_folder(isolated_home, tmp_path,
                                                                                      capsys):
    target = tmp_path / "proj" / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    note = settings_write.made_folder_file(str(target))
    os.makedirs(os.path.dirname(note), exist_ok=True)
    os.mkfifo(note)

    assert call_beside([note], hooks_install.remove_made_folder, str(target)) is None

    assert target.parent.is_dir()
    assert f"warning: cannot read {note}: not a regular file; {target.parent} left in place" in capsys.readouterr().out


def test_doctor_takes_a_fifo_named_as_a_hooks_program_for_one_that_cannot_run(tmp_path):
    fifo = str(tmp_path / "lh-hook")
    os.mkfifo(fifo, 0o755)
    assert call_beside([fifo], doctor_hooks._runnable, fifo) is False


def test_a_fifo_named_as_a_session_has_no_folder(tmp_path):
    fifo = str(tmp_path / "5d0c7a41-2b3e-4f6a-8c9d-0e1f2a3b4c5d.jsonl")
    os.mkfifo(fifo)
    assert call_beside([fifo], sessions.session_cwd, fifo) is None
    assert call_beside([fifo], sessions.last_turn_cwd, fifo) is None


def test_distill_refuses_a_fifo_put_in_a_transcripts_place_after_it_was_looked_at(tmp_path):
    fifo = str(tmp_path / "5d0c7a41-2b3e-4f6a-8c9d-0e1f2a3b4c5d.jsonl")
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile):
        call_beside([fifo], distill._no_record, fifo)
