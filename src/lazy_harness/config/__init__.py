"""config.toml: loading it, for the CLI and the worker in full, for the hot path from a compiled form.

Hooks call :func:`load_fast`: it opens config.toml once (checked on that descriptor) and, when the
file is unchanged, reads a small JSON snapshot instead of importing ``tomllib`` and validating again.
Top-level imports stay cheap: not even ``json`` (it imports ``re``); the snapshot is decoded with
:mod:`lazy_harness.jsonload`.

The package, by what each part does (every name is read from here, ``config.X``):

    schema.py     the keys: type, default, meaning; the floors and caps (hot path)
    validate.py   reading config.toml: TOML syntax, then each value against the schema
    key_lines.py  the line each table and key is written on (loaded only to name a problem's line)
    edit.py       what lh writes: the example file and the one edit to a user's config.toml
"""

from __future__ import annotations

import os

from lazy_harness import jsonload, paths, private
from lazy_harness.regular_file import read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Final

    from lazy_harness.config.schema import (CAPS, CHOICES, COMMAND_KEYS, CONTEXT_HARD_CAP, FLOORS, MINIMUMS,
                                            NUMBER_MAX, PATH_KEYS, RANGES, RECALL_HARD_CAP, SCHEMA, defaults)

    from lazy_harness.config.edit import (SECTION_HELP, check_loop_edit, enable_loop, render_example, set_value,
                                          toml_literal)
    from lazy_harness.config.typed import Config
    from lazy_harness.config.validate import check, parse_file

# why: hooks import this package after every turn and need only the snapshot; reading config.toml
# (when it changed) and writing it (the CLI) load their modules at the first use of one of these names
_VALIDATE = ("check", "parse_file")
_EDIT = ("SECTION_HELP", "toml_literal", "render_example", "set_value", "enable_loop", "check_loop_edit")
# why read on first use too: a hook whose snapshot is current needs none of the schema (its stamp is the
# file's, :func:`_schema_stamp`); the module is 0.15 to 0.3 ms of every SessionStart
_SCHEMA = ("CAPS", "CHOICES", "COMMAND_KEYS", "CONTEXT_HARD_CAP", "FLOORS", "MINIMUMS", "NUMBER_MAX", "PATH_KEYS",
           "RANGES", "RECALL_HARD_CAP", "SCHEMA", "defaults")


def __getattr__(name: str) -> object:
    if name in _SCHEMA:
        from lazy_harness.config import schema

        return getattr(schema, name)
    if name in _VALIDATE:
        from lazy_harness.config import validate

        return getattr(validate, name)
    if name in _EDIT:
        from lazy_harness.config import edit

        return getattr(edit, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load(env: Mapping[str, str] | None = None, warn: Callable[[str], None] | None = None) -> Config:
    """Full load for the CLI and the worker: raises ConfigError on a syntax error or a wrong value,
    and on a file another user could have written or swapped in (read, as the hooks read it, from
    the one descriptor private.open_config checked: never a ``claude_path`` of theirs to run).

    ``warn``: a command that only reads or tends memory passes it. A wrong value that does not
    decide where memory lives (a budget, a recall setting) is then told to ``warn`` and keeps its
    default, as the hooks run it, instead of locking the person out of their memory until they fix
    an unrelated key; a wrong ``memory.path`` or ``knowledge.path`` still raises (the folders would
    be the defaults: an empty memory read as the person's)."""
    from lazy_harness.config.validate import parse_bytes
    from lazy_harness.errors import ConfigError

    path = paths.config_file(env)
    fd, _, why = private.open_config(env)
    if why:
        raise ConfigError(why, hint="lh doctor")
    if fd is None:
        from lazy_harness.config.schema import defaults

        return defaults()
    try:
        raw = _read_all(fd)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    values, errors, _ = parse_bytes(raw, path, env)
    if errors:
        folder = [e for e in errors if names_a_folder(e, path)]
        if warn is None or folder:
            raise ConfigError((folder or errors)[0], hint="lh config validate")
        for problem in errors:
            warn(problem)
    return values


def names_a_folder(problem: str, path: str) -> bool:
    """Whether a problem of ``path`` (``path:line: key: message``) is about a memory folder's key or
    the section holding it."""
    from lazy_harness.config.schema import PATH_KEYS

    rest = problem[len(path):] if problem.startswith(path) else problem
    key = rest.lstrip(":0123456789 ").split(":", 1)[0]
    return key in PATH_KEYS or key in {k.split(".")[0] for k in PATH_KEYS}


def _schema_stamp() -> list:
    """What the snapshot's values were compiled under: the package's version, and schema.py's path,
    device, inode, size, mtime and change time.

    why: a snapshot compiled by another version may lack keys, or hold values its defaults, caps, floors,
    minimums, ranges, choices or command rules gave, all of them schema.py's: an upgrade, an edit or
    another install's schema is another file (the reasoning of ``trust.rules_signature``), found with
    one ``stat`` where the schema's contents took importing it and 45 us to write them out. why the
    change time: an installer that keeps the wheel's mtimes and writes over the old file, or is given
    its freed inode again, leaves size, mtime and inode as they were when the size is; no writer sets
    the change time. why the version: the compile's rules beside schema.py (validate.py) change with a
    release. Where the file cannot be stat'ed (a zip import), the schema's contents, as before."""
    from lazy_harness import __version__

    where = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema.py")
    try:
        st = os.stat(where)
    except OSError:
        from lazy_harness.config.schema import CAPS, CHOICES, COMMAND_KEYS, FLOORS, MINIMUMS, RANGES, SCHEMA

        return [__version__, repr(([(s, k, spec[0], spec[1]) for s, keys in SCHEMA.items() for k, spec in keys.items()],
                                   CAPS, FLOORS, MINIMUMS, RANGES, CHOICES, COMMAND_KEYS))]
    return [__version__, where, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


INVALID: Final = "_invalid"  # load_fast: the first problem of an invalid config.toml


def invalid(cfg: Config) -> str | None:
    """The first problem of the config.toml that ``cfg`` (from :func:`load_fast`) came from, or None."""
    problem = cfg.get(INVALID)
    return problem if isinstance(problem, str) and problem else None


def load_checked(env: Mapping[str, str] | None = None, warn: Callable[[str], None] | None = None) -> Config:
    """:func:`load_fast` for a command: an invalid config.toml raises ConfigError with its first
    problem (file and line), as :func:`load` does, instead of giving defaults for what is wrong (a
    hook's way: a command that read the default memory folder said an empty memory was fine).
    ``warn``: as :func:`load`'s (a wrong key that does not place memory is told and defaulted)."""
    from lazy_harness.errors import ConfigError

    cfg = load_fast(env)
    problem = invalid(cfg)
    if problem and warn is not None:
        return load(env, warn)  # why: read again for every problem, not only the first the snapshot keeps
    if problem:
        raise ConfigError(problem, hint="lh config validate")
    return cfg


def _snapshot_path(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(paths.state_dir(env), "config.json")


def load_fast(env: Mapping[str, str] | None = None) -> Config:
    """Config for hooks: a JSON snapshot keyed by config.toml's path, device, inode, mtime and size,
    and by the value of each environment variable the compile looked up (``$MEMROOT`` of ``[memory]
    path = "$MEMROOT/mem"``: set or not, it decides whether the file is valid).

    Never raises: an unreadable or invalid file yields defaults for the bad keys (the loop stays
    off unless ``enabled`` itself parsed as true) and its first problem under :data:`INVALID`
    (read it with :func:`invalid`); ``lh config validate`` tells the user why. A config another user
    could have written or swapped in (private.open_config) is not read: defaults, with why under
    :data:`INVALID`, and no snapshot. The file is opened once: its owner and mode, the snapshot's
    stamp and the bytes parsed all come from that one descriptor (a check by path and a read by path
    let another user swap their file in between, and the snapshot kept it under the user's stamp).
    """
    path = paths.config_file(env)
    fd, st, why = private.open_config(env)
    if why:
        from lazy_harness.config.schema import defaults

        values = defaults()
        values[INVALID] = why
        return values
    schema = _schema_stamp()
    stamp = [path, st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size, schema] if st else [
        path, None, None, None, None, schema]
    try:
        cached = _cached(env, stamp)
        if cached is not None:
            return cached
        seen = _Looked(os.environ if env is None else env)
        values, keep = _parse_descriptor(fd, path, seen)
    finally:
        if fd is not None:
            os.close(fd)
    if not keep:
        return values
    import json

    # why here: only a config changed since its snapshot writes one; the prompt hook sends its question
    # before it loads atomic (and fcntl): 0.07 to 0.33 ms of the prompt's wait in two A/B runs
    from lazy_harness.atomic import atomic_write

    looked = sorted([name, seen.get(name) or ""] for name in seen.names)
    try:
        atomic_write(_snapshot_path(env), json.dumps({"stamp": stamp, "env": looked, "values": values}))
    except OSError:
        pass
    return values


def _cached(env: Mapping[str, str] | None, stamp: list) -> Config | None:
    """The snapshot's values when it was compiled from the file of ``stamp`` with the environment
    variables it looked up as they are now, else None."""
    e = os.environ if env is None else env
    try:  # why read_regular: a FIFO in the snapshot's place held every hook in open() for good
        cached = jsonload.loads(read_regular(_snapshot_path(env)))
        # why "env" required: a snapshot without it was compiled by a version that did not record
        # the variables, and may hold "$MEMROOT is not set" for a variable set since
        if cached.get("stamp") == stamp and all((e.get(name) or "") == value for name, value in cached["env"]):
            return cached["values"]
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        pass
    return None


class _Looked(dict):
    """The environment as a compile of config.toml sees it, noting each variable it looks up (the
    ones a folder's value names): their values are part of the snapshot's key."""

    def __init__(self, env: Mapping[str, str]) -> None:
        super().__init__(env)
        self.names: set[str] = set()

    def get(self, name: str, default: str | None = None) -> str | None:  # type: ignore[override]
        self.names.add(name)
        return super().get(name, default)

    def __getitem__(self, name: str) -> str:
        self.names.add(name)
        return super().__getitem__(name)


def _parse_descriptor(fd: int | None, path: str, env: Mapping[str, str] | None) -> tuple[Config, bool]:
    """The values of the config.toml open on ``fd`` (None: missing, the defaults), with its first
    problem under :data:`INVALID`, and whether they may be kept in the snapshot. Never raises.

    why not kept after any other failure: only what the file holds (its syntax, its values: a
    ConfigError) is the file's; a failure of this run (an import broken by a project's ``datetime.py``
    on a hostile PYTHONPATH, a read error) was kept under the file's stamp, and every later hook said
    "config.toml is invalid" and paused distillation until the file was edited."""
    from lazy_harness.config.schema import defaults
    from lazy_harness.errors import ConfigError

    problem, keep = None, True
    try:
        if fd is None:
            values, errors = defaults(), list[str]()
        else:
            from lazy_harness.config.validate import parse_bytes

            values, errors, _ = parse_bytes(_read_all(fd), path, env)
        problem = errors[0] if errors else None
    except Exception as exc:  # why: a hook must never fail on a bad config; it runs with defaults
        values = defaults()
        problem = getattr(exc, "message", None) or f"{path}: {exc}"
        keep = isinstance(exc, ConfigError) and not isinstance(exc.__cause__ or exc.__context__, OSError)
    if problem:
        values[INVALID] = problem  # why: hooks say "config invalid", never "disabled" (ADR 0013)
    return values, keep


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


# what callers read as config.X: the schema's names, the loaders, and (loaded at first use) validate's and edit's
__all__ = [
    "CAPS", "CHOICES", "COMMAND_KEYS", "CONTEXT_HARD_CAP", "FLOORS", "INVALID", "MINIMUMS", "NUMBER_MAX", "PATH_KEYS",
    "RANGES", "RECALL_HARD_CAP", "SCHEMA", "SECTION_HELP", "check", "check_loop_edit", "defaults", "enable_loop",
    "invalid", "load", "load_checked", "load_fast", "names_a_folder", "parse_file", "render_example", "set_value",
    "toml_literal",
]
