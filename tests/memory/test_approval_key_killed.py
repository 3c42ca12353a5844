"""The approval key made on the first approve is killed at every step of its making: the next approve
makes or reads a whole key, never a file of 0 bytes that refuses every later approve."""

import os
import sys

from lazy_harness.memory import approval_key
from tests.support.crashpoint import run_to

WRITER = """
import sys
from tests.support import crashpoint
from lazy_harness.memory import approval_key
crashpoint.arm(int(sys.argv[1]))
approval_key.read_key(create=True)
crashpoint.finished()
"""


def test_a_key_killed_while_made_never_blocks_the_next_approve(isolated_home):
    path = approval_key.key_file()
    for step in range(1, 20):
        if os.path.exists(path):
            os.unlink(path)
        said = run_to([sys.executable, "-c", WRITER, str(step)])
        approval_key._KEYS.clear()
        key = approval_key.read_key(create=True)
        assert key is not None and len(key) == approval_key.KEY_BYTES, (step, said)
        if said == "finished":
            break
    else:
        raise AssertionError("the key was never made whole")
