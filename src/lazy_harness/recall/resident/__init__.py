"""The resident answerer: the hook's side (asking, starting, stopping) and the process itself."""
