"""What a session sees of its memory, one subpackage per job (ADR 0047, docs/how/recall.md). On the prompt
hook's path: every ``__init__`` holds only a docstring, and modules import only cheap ones at the top."""
