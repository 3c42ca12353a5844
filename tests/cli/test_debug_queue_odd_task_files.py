"""Task files a person finds damaged in the queue: every debug command still runs, names the file
on one line and moves or deletes nothing."""

import os
import subprocess

from lazy_harness import paths, queue
from tests.cli.lhrun import invoke, lh_script
from tests.hooks.hookrun import enable_loop


def _tree(q: str) -> dict[str, tuple[int, int]]:
    """The task files of every queue folder (the commands may write their own state beside them)."""
    out = {}
    for which in (queue.PENDING, queue.PROCESSING, queue.DONE, queue.FAILED):
        root = queue.folder(q, which)
        for name in (n for n in os.listdir(root) if queue.SUFFIX in n):
            st = os.lstat(os.path.join(root, name))
            out[os.path.join(root, name)] = (st.st_mode, st.st_mtime_ns)
    return out


def test_a_fifo_named_like_a_task_does_not_hang_status_or_doctor(isolated_home, tmp_path):
    # why a FIFO: opening one to read waits for a writer that never comes; lh status hung forever
    # (its Codex line read every task file, this one too)
    q = paths.queue_dir()
    queue.ensure_layout(q)
    os.mkfifo(os.path.join(q, queue.FAILED, "1796371461394759174-99999999.task"))
    before = _tree(q)
    for command in ("status", "doctor", "queue"):
        # why a timeout: it is the failure this test guards (a hang), not a measure of speed
        result = subprocess.run([*lh_script(), command], capture_output=True, text=True, timeout=60,
                                cwd=tmp_path)
        assert result.returncode in (0, 1), result.stderr
        assert "Traceback" not in result.stderr
    assert _tree(q) == before


def test_a_task_file_that_is_not_a_task_says_so_in_the_listing(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    monkeypatch.chdir(tmp_path)
    q = paths.queue_dir()
    queue.ensure_layout(q)
    binary = os.path.join(q, queue.FAILED, "1796371461394759168-aaaaaaaa.task")
    with open(binary, "wb") as fh:
        fh.write(b"\x00\xff\xfe\x1b[31m\x89PNG" * 50)
    truncated = os.path.join(q, "1796371461394759169-bbbbbbbb.task")
    with open(truncated, "w") as fh:
        fh.write("cwd=/tmp/proj\nsession_jsonl=/tmp/pro")
    os.symlink("/etc/passwd", os.path.join(q, "1796371461394759171-dddddddd.task"))
    before = _tree(q)
    result = invoke("queue")
    assert result.code == 0
    rows = {line.split()[0][-8:]: line for line in result.out.splitlines() if line.startswith("  1796")}
    assert "not a task" in rows["aaaaaaaa"] and "lh queue show 1796371461394759168-aaaaaaaa" in rows["aaaaaaaa"]
    assert "not a task" in rows["bbbbbbbb"] and "session_id" in rows["bbbbbbbb"]
    assert "symbolic link" in rows["dddddddd"] and "/etc/passwd" in rows["dddddddd"]
    show = invoke("queue", "show", "dddddddd")
    assert show.code == 0 and "symbolic link to /etc/passwd" in show.out
    assert "root:" not in show.out  # what the link points at is not ours to print
    assert _tree(q) == before


def test_status_names_a_folder_named_like_a_task_once(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    q = paths.queue_dir()
    queue.ensure_layout(q)
    stray = os.path.join(q, queue.FAILED, "1796371461394759170-cccccccc.task")
    os.mkdir(stray)
    for command in ("status", "doctor"):
        result = invoke(command)
        said = [line for line in result.err.splitlines() if stray in line]
        assert len(said) == 1 and "not a regular file" in said[0], (command, result.err)
    # counted as lh queue counts it: a folder is no failed task
    assert "failed tasks: none" in invoke("doctor").out
    queue_line = next(line for line in invoke("hooks", "status").out.splitlines() if line.startswith("queue:"))
    assert " 0 failed " in queue_line, queue_line
    assert os.path.isdir(stray)


def test_a_file_in_a_queue_folders_place_is_named_and_every_command_goes_on(isolated_home, tmp_path):
    # why: lh doctor stopped at "queue: 0 pending" (lh: .../processing: Not a directory), the checks after
    # it unprinted; lh status and lh queue stopped as early
    q = paths.queue_dir()
    queue.ensure_layout(q)
    processing = queue.folder(q, queue.PROCESSING)
    os.rmdir(processing)
    with open(processing, "w", encoding="utf-8") as fh:
        fh.write("a person's note\n")
    runs = {command: subprocess.run([*lh_script(), command], capture_output=True, text=True, timeout=60,
                                    cwd=tmp_path) for command in ("doctor", "status", "queue")}
    for command, result in runs.items():
        assert "Not a directory" not in result.stderr and "Traceback" not in result.stderr, (command, result.stderr)
        assert f"lh: skipped {processing}: not a folder" in result.stderr, (command, result.stderr)
    doctor = runs["doctor"].stdout
    assert f"fail  queue: {processing} is not a folder: no task can be distilled" in doctor, doctor
    assert "failed tasks: none" in doctor and "spend:" in doctor, doctor  # the checks after the queue's ran
    assert runs["status"].returncode == 0 and runs["queue"].returncode == 0
    with open(processing, encoding="utf-8") as fh:
        assert fh.read() == "a person's note\n"  # named, never moved or emptied


def test_a_task_named_with_a_time_past_the_clocks_range_is_listed_as_queued_at_a_question_mark(
        isolated_home, tmp_path, monkeypatch):
    # why: its OverflowError (only ValueError was caught) ended lh queue and lh status with a traceback
    enable_loop(isolated_home)
    monkeypatch.chdir(tmp_path)
    q = paths.queue_dir()
    queue.ensure_layout(q)
    name = "9" * 30 + "-eeeeeeee"
    with open(os.path.join(q, queue.FAILED, name + queue.SUFFIX), "w", encoding="utf-8") as fh:
        fh.write(queue.format_task({"session_id": "s-1", "cwd": str(tmp_path), "event": "Stop"}))
    listing = invoke("queue")
    assert listing.code == 0, listing.err
    row = next(line for line in listing.out.splitlines() if name in line)
    assert row.split()[:2] == [name, "?"]
    assert invoke("status").code in (0, 1)
    assert "Traceback" not in invoke("status").err
