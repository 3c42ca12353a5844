from lazy_harness.cli import main

main()
