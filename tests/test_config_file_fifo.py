"""A FIFO in place of config.toml: ``lh doctor``, ``lh config set`` and ``lh hooks install`` read it with
a plain ``open`` and waited there for a writer for good. They now stop on one line naming the file."""

import os

import pytest

from lazy_harness.config import validate
from lazy_harness.errors import ConfigError
from tests.support.fifo_wait import call_beside


def test_a_fifo_in_place_of_the_config_file_is_named_without_waiting(tmp_path):
    fifo = str(tmp_path / "config.toml")
    os.mkfifo(fifo)
    with pytest.raises(ConfigError) as caught:
        call_beside([fifo], validate.parse_file, fifo)
    assert str(caught.value).startswith(f"{fifo}: cannot read: not a regular file")
