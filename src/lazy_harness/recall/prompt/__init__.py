"""Prompt recall: what one typed prompt gets (:mod:`lazy_harness.recall.prompt.recall`), and why."""
