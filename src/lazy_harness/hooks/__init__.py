"""What Claude Code runs: one small module per event. Stdlib-only at import time (see entry.py)."""
