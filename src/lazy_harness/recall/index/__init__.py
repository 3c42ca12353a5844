"""The search index over the memory files: its schema, its one writer, the word lists, reading it."""
