"""``lh logs`` as a person in trouble reads it: a huge line (a model answer or transcript text written
into the log) reaches the terminal bounded and escaped; a log that is missing or cannot be read is
said on one line, and the other log is still shown."""

import os

from lazy_harness import logfile
from tests.cli.lhrun import invoke


def _raw(name: str, text: str) -> str:
    """Write ``text`` into the log as an older release (or anyone) could have: raw, unescaped."""
    path = logfile.log_path(name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


def test_a_huge_log_line_is_cut_and_escaped(isolated_home):
    path = _raw(logfile.WORKER, "2026-12-04T08:00:00+00:00 task x: answer \x1b]52;c;aGk=\x07 " + "A" * 300_000
                + "\n2026-12-04T08:00:01+00:00 task x: processed\n")
    result = invoke("logs", "--worker")
    assert result.code == 0
    first, second = result.out.splitlines()
    assert "\x1b" not in result.out and "\\u001b]52" in first
    assert len(first) < 5_000 and first.endswith(f"more characters, whole in {path})")
    assert second.endswith("task x: processed")


def test_a_missing_log_is_said_and_the_other_still_shown(isolated_home):
    logfile.write(logfile.HOOKS, "Stop session=a queued x", now=1000.0)
    result = invoke("logs")
    assert result.code == 0 and result.out.endswith("Stop session=a queued x\n")
    said = f"lh: {logfile.log_path(logfile.WORKER)}: no such file"
    missing = [ln for ln in result.err.splitlines() if ln.startswith(said)]
    assert len(missing) == 1


def test_a_log_that_cannot_be_read_is_said_and_the_other_still_shown(isolated_home):
    logfile.write(logfile.HOOKS, "Stop session=a queued x", now=1000.0)
    os.mkdir(logfile.log_path(logfile.WORKER))  # why a folder: root reads a file of mode 000 anyway
    result = invoke("logs")
    assert result.code == 0 and result.out.endswith("Stop session=a queued x\n")
    start = f"lh: cannot read {logfile.log_path(logfile.WORKER)}: "
    said = [ln for ln in result.err.splitlines() if ln.startswith(start)]
    assert len(said) == 1
