"""A log record is capped when written (``logfile.MAX_LINE_CHARS``): an exception message carrying a
whole model answer became one line of megabytes, which ``lh logs`` hid (a line past ``MAX_LINE`` is
not read) and the page's tail of hooks.log cut in half. The cut keeps the record's start and end (the
hook's event and session, its decision and time), says how much went, and stays one line that every
reader of hooks.log and worker.log still parses."""

import re

from lazy_harness import logfile
from tests.cli.lhrun import invoke

CUT = re.compile(r" … \[cut (\d+) chars\] … ")


def _lines(name: str) -> list[str]:
    with open(logfile.log_path(name), encoding="utf-8") as fh:
        return fh.read().split("\n")[:-1]


def _message(line: str) -> str:
    return line.split(" ", 1)[1]


def test_a_huge_record_is_one_line_cut_in_its_middle_saying_how_much():
    middle = "".join(f"answer word {i} " for i in range(20_000))  # ~290,000 characters
    record = f"SessionStart session=s-1 source=startup error {middle} (12.5 ms)"
    logfile.write(logfile.HOOKS, record)
    [line] = _lines(logfile.HOOKS)
    message = _message(line)
    assert len(message) <= logfile.MAX_LINE_CHARS
    m = CUT.search(message)
    assert m, message[-400:]
    head, tail = message[:m.start()], message[m.end():]
    assert record.startswith(head) and record.endswith(tail)
    assert len(head) + int(m.group(1)) + len(tail) == len(record)  # N is exactly what went
    assert message.startswith("SessionStart session=s-1 source=startup") and message.endswith(" (12.5 ms)")


def test_a_record_at_the_bound_is_kept_whole():
    record = "x" * logfile.MAX_LINE_CHARS
    logfile.write(logfile.WORKER, record)
    logfile.write(logfile.WORKER, record + "y")
    whole, cut = _lines(logfile.WORKER)
    assert _message(whole) == record
    assert CUT.search(_message(cut)) and len(_message(cut)) <= logfile.MAX_LINE_CHARS


def test_the_cut_never_splits_an_escape():
    """The bound holds for the line as written (escapes counted); an escape ``\\u001b`` is kept or
    dropped whole on either side of the cut."""
    record = "worker 1: failed: " + "\x1b[31m" * 20_000 + " end"
    logfile.write(logfile.WORKER, record)
    [line] = _lines(logfile.WORKER)
    message = _message(line)
    assert len(message) <= logfile.MAX_LINE_CHARS
    m = CUT.search(message)
    head, tail = message[:m.start()], message[m.end():]
    assert "\x1b" not in message
    # what is left once the whole escapes go is the record's own text: no piece of an escape
    assert set(re.sub(r"\\u001b", "", head.removeprefix("worker 1: failed: "))) <= set("[31m"), head[-20:]
    assert set(re.sub(r"\\u001b", "", tail.removesuffix(" end"))) <= set("[31m"), tail[:20]


def test_the_readers_still_parse_a_cut_line(isolated_home):
    """``lh logs`` shows it (cut again for the terminal), ``lh hooks status`` finds the event's last
    run, the page reads what it injected."""
    logfile.write(logfile.HOOKS, "UserPromptSubmit session=s-2 terms=3 candidates=1 passed=1 error "
                  + "z" * 50_000 + " injected 1 (90/1500 chars): d-1234abcd (3.0 ms)")
    # why past 1 MiB: lh logs reads no line longer than memory.lines.MAX_LINE; such a line was not shown
    logfile.write(logfile.WORKER, "worker 7: model call 1/3 failed (failed): " + "q" * (1 << 21))
    out = invoke("logs", "-n", "5").out
    assert "UserPromptSubmit session=s-2" in out and "worker 7: model call 1/3 failed" in out
    status = invoke("hooks", "status").out
    assert re.search(r"UserPromptSubmit: \S+ session=s-2 ", status), status[:2000]

    from lazy_harness.ui import hook_log

    m = hook_log._LINE.match(_lines(logfile.HOOKS)[0])
    assert m and m.group(2) == "UserPromptSubmit" and m.group(3) == "s-2" and m.group(5) == "3.0"
    assert hook_log._INJECTED.search(m.group(4)).group(1) == "d-1234abcd"
