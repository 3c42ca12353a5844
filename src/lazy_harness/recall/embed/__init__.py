"""The static embedding model (its files in ``model/``, package data) and the entries' vectors."""
