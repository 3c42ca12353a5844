"""Prompt recall: what one typed prompt gets, decided in :mod:`lazy_harness.recall.prompt.recall`;
whether it gets a search at all, the ranking and its bar, the trust check, what was already shown."""
