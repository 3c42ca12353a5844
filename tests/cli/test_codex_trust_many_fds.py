"""``lh hooks install --agent codex`` trusts its hooks through codex's app-server, waiting on the
server's pipe. It waited with ``select()``, which refuses a descriptor past 1023: in a process holding
many open files (an editor's plugin host, a long-lived tool calling lh) install failed with
"filedescriptor out of range in select()". It waits with ``poll()`` now, which has no such bound."""

import json
import os

from lazy_harness import paths, settings
from tests.cli.lhrun import invoke
from tests.cli.test_codex_doctor_status import here, system_bin_without_claude  # noqa: F401


def test_install_trusts_codex_hooks_with_over_a_thousand_files_open(here):  # noqa: F811
    held = []
    try:
        while not held or held[-1] < 1100:  # why 1100: the next pipe gets a descriptor past select()'s 1023
            held.append(os.open(os.devnull, os.O_RDONLY))
        r = invoke("hooks", "install", "--agent", "codex")
    finally:
        for fd in held:
            os.close(fd)
    assert r.code == 0, r.out + r.err
    with open(paths.codex_hooks_file()) as fh:
        assert settings.find_ours(json.load(fh))
