"""The search index over the memory files: its schema and refresh plan, its one writer, the entries
read from the files, the word lists, and reading it (for the prompt and for commands)."""
