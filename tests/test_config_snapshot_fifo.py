"""The hooks' config snapshot (``<state>/config.json``) was read with a plain ``open`` by every hook: a
FIFO in its place held each hook in open() until a writer came. It now reads as a missing snapshot: the
config file is read again."""

import os

from lazy_harness import config
from tests.hooks.hookrun import enable_loop
from tests.support.fifo_wait import call_beside


def test_a_fifo_in_place_of_the_config_snapshot_is_passed_over_without_waiting(isolated_home):
    enable_loop(isolated_home)
    fifo = config._snapshot_path()
    os.makedirs(os.path.dirname(fifo), exist_ok=True)
    os.mkfifo(fifo)

    loaded = call_beside([fifo], config.load_fast)

    assert loaded != "hung" and loaded["compound_loop"]["enabled"] is True
