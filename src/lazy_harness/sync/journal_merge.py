"""``python -P -m lazy_harness.sync.journal_merge BASE OURS THEIRS [PATH]``: git's merge driver for
journals (``*.json merge=lh-journal``, registered by :func:`~lazy_harness.sync.repo_setup.ensure_repo`).
A journal is changed after its run only by an undo, so the same run undone on two machines before
they sync changes it on both; git's merge of text conflicted on it, and the machine's every later
round failed. The merge is :func:`lazy_harness.memory.journal.merged`; the result goes to OURS, the
exit code is 0 whatever the files hold (a file that cannot be read is taken as empty)."""

from __future__ import annotations

import os
import sys

from lazy_harness.regular_file import read_regular


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4):
        sys.stderr.write("usage: python -m lazy_harness.sync.journal_merge BASE OURS THEIRS [PATH]\n")
        return 2
    from lazy_harness.memory import journal

    parts = []
    for path in argv[:3]:
        try:  # why read_regular: what is not a regular file is read as an empty side, never waited on
            parts.append(read_regular(path))
        except OSError:
            parts.append(b"")
    name = os.path.basename(argv[3]) if len(argv) == 4 else ""
    run = name[:-len(".json")] if name.endswith(".json") else None
    try:
        out = journal.merged(parts[0], parts[1], parts[2], run)
    except Exception:  # why: a driver that fails leaves git's merge failed, and every later round with it
        out = parts[1] or parts[2]
    with open(argv[1], "wb") as fh:
        fh.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
