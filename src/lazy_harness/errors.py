"""The one error family. Messages say what failed, on which path or value, then a hint."""


class LhError(Exception):
    """An expected failure: the CLI prints it on one line and exits 1."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        if self.hint:
            return f"{self.message} (hint: {self.hint})"
        return self.message


class ConfigError(LhError):
    """config.toml cannot be read or holds a wrong value."""


class SettingsError(LhError):
    """A Claude Code settings.json cannot be read or written."""


class TaskError(LhError):
    """A queue task is malformed or untrusted."""


class ModelError(LhError):
    """The model call failed: missing binary, timeout, non-zero exit, unusable answer. What the
    worker does about it is the ``action`` of :class:`lazy_harness.worker.llm.CallError`."""


class StaticModelError(LhError):
    """The static embedding table cannot be used (``recall/embed/static_model.py``): a file is missing,
    unreadable, malformed or not the pinned one. The message is one line naming the file."""
