"""Choosing what a session sees of its memory: the search index over the memory files, the prompt's
informative terms, the relevance bar and the text given to the model at each prompt.

Hot path: the UserPromptSubmit hook imports this package, so its modules import only ``os`` and our
own hot-path modules at top level; SQLite (``index.sqlite``) is imported inside the functions that
open the index.
"""
