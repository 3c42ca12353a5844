"""The memory readers that still opened their file with a plain ``open`` (or ``os.open`` without
``O_NONBLOCK``): a FIFO in the file's place held each there until a writer came. The worker's persist
(``entries.recorded``, ``taken_ids``, ``ids_by_digest``, ``heal_tail`` on decisions.jsonl: every task
of every session after it waited), the earlier path-keyed folder's first line (SessionStart, for a
project known by its remote), ``lh memory check``, ``forget`` and the views (``damage``,
``learning_damage``, ``changes``) and a persist's undo record (``intent``). Each now opens the file as
every memory reader does (``regular_file``): a reader that can go on reads it as no file, one that
cannot raises the error naming it, and nothing is written in its place."""

import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import changes, damage, entries, intent, learning_damage, migrate
from lazy_harness.regular_file import NotRegularFile
from tests.support.fifo_wait import HUNG, call_beside


@pytest.fixture
def fifo(tmp_path):
    path = str(tmp_path / "decisions.jsonl")
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("read", [
    lambda p: entries.recorded(p, {"ship it"}),
    lambda p: entries.taken_ids(p, "decision", {"ship it"}),
    lambda p: entries.ids_by_digest(p, "decision", {"abc"}),
    entries.heal_tail,
], ids=["recorded", "taken_ids", "ids_by_digest", "heal_tail"])
def test_the_persists_readers_of_an_entries_file_name_a_fifo_without_waiting(fifo, read):
    with pytest.raises(NotRegularFile) as caught:
        call_beside([fifo], read, fifo)
    assert caught.value.filename == fifo


def test_the_earlier_folders_first_line_reads_a_fifo_as_no_entry(tmp_path, fifo):
    assert call_beside([fifo], migrate._written_for, str(tmp_path), str(tmp_path / "demo")) is True


def test_claude_codes_index_in_a_fifo_is_neither_read_nor_rewritten(tmp_path):
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path)}
    index = os.path.join(paths.claude_memory_dir("k", env), migrate.INDEX)
    os.makedirs(os.path.dirname(index))
    os.mkfifo(index)
    assert call_beside([index], migrate.drop_stale_lines, index) is None
    assert call_beside([index], migrate.stale_index, "k", None, env) == []


def test_check_names_a_fifo_put_in_place_after_its_look(fifo, monkeypatch):
    for module in (damage, learning_damage):  # the FIFO came between the look and the read
        monkeypatch.setattr(module, "unreadable", lambda path: None)
    found = call_beside([fifo], damage.check_file, fifo)
    assert found != HUNG and found.unreadable == "not a regular file"
    assert call_beside([fifo], learning_damage.learning_damage, fifo) is None


def test_a_fifo_in_a_learnings_place_has_no_fields_before_a_run(tmp_path):
    learning = str(tmp_path / "wheel.md")
    os.mkfifo(learning)
    assert call_beside([learning], changes.fields_before_deprecation, str(tmp_path / "mem"), learning) is None
    with pytest.raises(NotRegularFile):
        call_beside([learning], changes._read_learning, learning)


def test_a_fifo_in_place_of_an_undo_record_is_named_without_waiting(tmp_path):
    record = str(tmp_path / "1700000000-1.jsonl")
    os.mkfifo(record)
    assert call_beside([record], intent.pending, record, "p") is False
    with pytest.raises(NotRegularFile):
        call_beside([record], intent.rollback_file, record)
    assert os.path.exists(record)


def test_the_views_and_the_start_read_a_fifo_in_a_memory_files_place_as_none(tmp_path, fifo, isolated_home):
    """``holds`` (lh memory path --old, the page), a learning's head (SessionStart, the views) and the
    list of undo runs made here (``lh memory undo``)."""
    from lazy_harness import paths
    from lazy_harness.memory import owners, runs_here, state

    learning = str(tmp_path / "wheel.md")
    os.mkfifo(learning)
    assert call_beside([fifo], owners.holds, str(tmp_path), str(tmp_path / "none"))["decisions"] == 0
    assert call_beside([learning], state.no_frontmatter, {"path": learning}) == ""
    runs = os.path.join(paths.state_dir(), runs_here.RUNS_FILE)
    os.makedirs(os.path.dirname(runs), exist_ok=True)
    os.mkfifo(runs)
    made_here = call_beside([runs], runs_here.made_here)
    assert made_here != HUNG and not made_here({"run": "r1"})


def test_the_usage_weeks_and_a_migrations_merge_name_a_fifo_without_waiting(tmp_path, fifo):
    from lazy_harness.memory import migrate_merge, usage_log

    for read in (lambda p: usage_log._week_rows(p, 0.0), migrate_merge._lines, migrate_merge._read):
        with pytest.raises(NotRegularFile):
            call_beside([fifo], read, fifo)
