"""The markers of model calls under way (``open_calls_dir``) were read with a plain ``open`` by every
budget check (the worker, before each call) and by lh cost: a FIFO named as a marker held each in open()
until a writer came. It now reads as a marker that is not one (a hand edit): never counted."""

import os

from lazy_harness.cost import markers
from tests.support.fifo_wait import call_beside


def test_a_fifo_named_as_an_open_calls_marker_is_passed_over_without_waiting(isolated_home):
    folder = markers.open_calls_dir()
    os.makedirs(folder, exist_ok=True)
    fifo = os.path.join(folder, "1700000000-abcd.json")
    os.mkfifo(fifo)

    assert call_beside([fifo], markers.open_calls) == []
