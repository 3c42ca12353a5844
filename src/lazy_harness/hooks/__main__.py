from lazy_harness.hooks.entry import run

run()
