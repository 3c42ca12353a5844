from lazy_harness.hooks.launch import run

run()
