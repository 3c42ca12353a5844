"""What a session sees of its memory, one subpackage per job (ADR 0047; the table of parts in
docs/how/recall.md): ``readback/``, ``prompt/``, ``index/``, ``embed/``, ``resident/`` and ``search.py``.

Hot path: the UserPromptSubmit hook imports this package and its subpackages, so every
``__init__`` holds only a docstring, and the modules on the hook's path import only ``os`` and our
own hot-path modules at top level; SQLite (``index.sqlite``) is imported inside the functions that
open the index.
"""
