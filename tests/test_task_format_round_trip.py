"""A task file's values come back as written, whatever characters they hold: a value with no backslash
is read as it is (most are: session ids, paths, event names), one with backslashes, line ends or a
trailing backslash through the escapes (queue/task.py ``format_task`` and ``parse_task``)."""

import random

from lazy_harness.queue import task

VALUES = ["", "plain", "/home/a b/proj", "C:\\work\\proj", "a\\nb", "line\nbreak", "cr\rhere", "end\\", "\\\\",
          "\\n\\r\\\\\n", "x=y=z", "# not a comment", "ünïcödé \u2028 sep", "tab\there"]


def test_every_value_comes_back_as_written():
    fields = {f"k{n}": v for n, v in enumerate(VALUES)}
    assert task.parse_task(task.format_task(fields)) == fields


def test_random_values_of_the_escaped_characters_come_back_as_written():
    rnd = random.Random(7)
    for _ in range(2000):
        value = "".join(rnd.choice("ab\\\n\rn=#") for _ in range(rnd.randrange(0, 12)))
        assert task.parse_task(task.format_task({"v": value})) == {"v": value}, repr(value)


def test_a_value_with_no_backslash_is_the_same_string():
    value = "/home/person/projects/shop-api"
    assert task.parse_task(f"cwd={value}\n")["cwd"] == value
