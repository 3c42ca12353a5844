"""A field holding U+2028 or U+2029 (a path, a payload's field, a model's text quoted in a log line)
stays on its log line: editors, ``str.splitlines`` and the commands that read hooks.log break a line
there, and the second half read as a line of its own. Shown as its escape, as a control character is."""

from lazy_harness import logfile, paths


def test_a_line_separator_in_a_logged_field_stays_on_its_line():
    logfile.write(logfile.HOOKS, "Stop session=s-1 cwd=/tmp/a\u2028b\u2029c decision=queued")
    with open(logfile.log_path(logfile.HOOKS), encoding="utf-8") as fh:
        text = fh.read()
    assert len(text.splitlines()) == 1, repr(text)
    assert "/tmp/a\\u2028b\\u2029c" in text, text
    assert paths.logs_dir() in logfile.log_path(logfile.HOOKS)


def test_the_terminal_sees_the_separators_escaped():
    assert logfile.terminal_safe("one\u2028two") == "one\\u2028two"
    assert logfile.terminal_safe("plain text, tab\tkept") == "plain text, tab\tkept"
