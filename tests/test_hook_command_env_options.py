"""``env``'s own ways of writing its options, as a person writes them before ``lh-hook``: a mere ``-``
(the same as ``-i``, in env's usage line), short options run together (``-iu HOME``: ``-u`` takes the
next word; ``-uHOME`` holds it), ``-P altpath`` of the BSD and macOS env. Each word of them was read as
the program: the command was not ours, and install added a second entry beside it (the hook ran twice)."""

import pytest

from lazy_harness import hook_command

OURS = [("env - lh-hook Stop", "env - "), ("env -iu HOME lh-hook Stop", "env -iu HOME "),
        ("env -iC /tmp lh-hook Stop", "env -iC /tmp "), ("env -uHOME -i lh-hook Stop", "env -uHOME -i "),
        ("env -P /usr/local/bin lh-hook Stop", "env -P /usr/local/bin "), ("env -- A=1 lh-hook Stop", "env -- A=1 ")]
NOT_OURS = ["env -iS 'lh-hook Stop'", "env -vS'lh-hook Stop'", "env -iu lh-hook Stop", "env -u lh-hook Stop"]


@pytest.mark.parametrize("command,prefix", OURS)
def test_env_options_as_env_reads_them(command, prefix):
    assert hook_command.ours(command)
    assert hook_command.prefix(command) == prefix


@pytest.mark.parametrize("command", NOT_OURS)
def test_a_split_string_or_an_option_value_is_not_the_program(command):
    assert not hook_command.ours(command)
