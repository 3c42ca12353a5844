import sys

from lazy_harness.hooks.entry import main

sys.exit(main())
