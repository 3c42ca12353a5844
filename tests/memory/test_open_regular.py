"""One opener for every reader of a memory file (memory/lines.open_regular): a FIFO never holds the reader
in open(), a folder is IsADirectoryError, anything else that is no regular file NotRegularFile. The index
writer's read of the entry files had no such guard: a FIFO named decisions.jsonl held the worker for good."""

import os
import subprocess
import sys

import pytest

from lazy_harness.memory import lines


def test_the_opener_tells_a_file_a_folder_a_fifo_and_nothing_apart(tmp_path):
    regular = tmp_path / "decisions.jsonl"
    regular.write_bytes(b'{"summary": "a"}\n')
    fd, st = lines.open_regular(str(regular))
    try:
        assert os.read(fd, 100) == b'{"summary": "a"}\n' and st.st_size == 17
    finally:
        os.close(fd)
    assert lines.read_regular(str(regular), 5, 2) == b"summa"
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(lines.NotRegularFile) as caught:
        lines.open_regular(str(tmp_path / "fifo"))
    assert caught.value.filename == str(tmp_path / "fifo")
    with pytest.raises(IsADirectoryError):
        lines.open_regular(str(tmp_path))
    with pytest.raises(FileNotFoundError):
        lines.open_regular(str(tmp_path / "missing"))


def _read_in_child(path: str, kind: str) -> subprocess.CompletedProcess:
    code = ("import sys\nfrom lazy_harness.recall.index import sources\n"
            "try:\n    print(sources.read_jsonl(sys.argv[1], sys.argv[2])[:2])\n"
            "except OSError as exc:\n    print('raised', type(exc).__name__)\n")
    # why the timeout: a guard that ends the child if it hangs, as the old open() did; no time is asserted
    return subprocess.run([sys.executable, "-c", code, path, kind], capture_output=True, text=True, timeout=60)


def test_the_index_writer_passes_over_a_fifo_named_as_an_entry_file(tmp_path):
    os.mkfifo(tmp_path / "decisions.jsonl")
    done = _read_in_child(str(tmp_path / "decisions.jsonl"), "decision")
    assert done.returncode == 0 and done.stdout.strip() == "([], [])", done.stdout + done.stderr


def test_the_index_writer_stops_at_a_fifo_named_marks_jsonl_without_waiting(tmp_path):
    """Without the marks, nothing may be read as shown: the read raises, as for a folder there."""
    os.mkfifo(tmp_path / "marks.jsonl")
    done = _read_in_child(str(tmp_path / "marks.jsonl"), "mark")
    assert done.returncode == 0 and done.stdout.strip() == "raised NotRegularFile", done.stdout + done.stderr
