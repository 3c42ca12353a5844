"""``python -m lazy_harness.sync``: git's merge drivers (``merge-lines|merge-learning BASE OURS THEIRS``,
the commands ensure_repo writes into the data repository's git config) and the SessionStart pull
(``pull``); see :mod:`lazy_harness.sync.drivers`."""

import sys

from lazy_harness.sync.drivers import _driver

if __name__ == "__main__":
    sys.exit(_driver(sys.argv[1:]))
