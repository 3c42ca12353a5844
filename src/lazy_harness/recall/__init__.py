"""What a session sees of its memory, one subpackage per job (ADR 0047):

- ``readback/``  what SessionStart prints: the digest and the learning heads it ranks.
- ``prompt/``    prompt recall: what one typed prompt gets (``prompt/recall.py``), decided there.
- ``index/``     the search index over the memory files, its one writer, and reading it.
- ``embed/``     the static embedding model (package data in ``embed/model/``) and entry vectors.
- ``resident/``  the resident answerer: the hook's side (``client``) and the process (``answerer``).
- ``search.py``  the lines of ``lh memory search``.

Hot path: the UserPromptSubmit hook imports this package and its subpackages, so every
``__init__`` holds only a docstring, and the modules on the hook's path import only ``os`` and our
own hot-path modules at top level; SQLite (``index.sqlite``) is imported inside the functions that
open the index.
"""
