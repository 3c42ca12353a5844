"""Reading config.toml: its TOML syntax, then each value against :data:`~lazy_harness.config.schema.SCHEMA`.

A problem names the file, the line and the dotted key: ``config.toml:3: compound_loop.model:
expected a string, got 42``. Hooks load this module only when config.toml changed since its
snapshot was compiled (:func:`lazy_harness.config.load_fast`); ``tomllib`` and the rest are
imported inside the functions, as is :mod:`~lazy_harness.config.key_lines`, which finds the line a
problem names.
"""

from __future__ import annotations

import os

from lazy_harness import paths
from lazy_harness.config.schema import (
    CAPS, CHOICES, COMMAND_KEYS, FLOORS, MINIMUMS, NUMBER_MAX, PATH_KEYS, RANGES, RETIRED, SCHEMA, as_config,
    default_tables, defaults)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from typing import Any

    from lazy_harness.config.typed import Config

    Tables = dict[str, dict[str, object]]  # the tables as check() fills them in, before they are a Config

_TYPE_NAMES = {"bool": "a boolean", "int": "an integer", "str": "a string", "list": "a list of strings",
               "num": "a number"}


def _describe(value: object) -> str:
    """A TOML value in words or as written, never a Python repr."""
    import datetime
    import json

    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        if value and all(isinstance(x, dict) for x in value):
            return "an array of tables"
        return "[" + ", ".join(_describe(x) for x in value) + "]"
    if isinstance(value, datetime.datetime):
        return f"a date-time ({value.isoformat()})"
    if isinstance(value, datetime.date):
        return f"a date ({value.isoformat()})"
    if isinstance(value, datetime.time):
        return f"a time ({value.isoformat()})"
    if isinstance(value, int) and abs(value) >= 10 ** 30:
        return f"{'a negative' if value < 0 else 'an'} integer of {len(str(abs(value)))} digits"
    return repr(value)


def _type_ok(kind: str, value: object) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if kind == "num":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def _key_line(text: str, section: str, key: str | None) -> int | None:
    """The line where ``[section]`` (or ``key`` inside it) is written (:func:`key_lines.key_line`).

    why imported here: only a problem names its line, so a hook compiling a valid config.toml
    never loads the module that finds it"""
    from lazy_harness.config.key_lines import key_line

    return key_line(text, section, key)


def _path_problem(value: str, env: Mapping[str, str] | None) -> str | None:
    """Why a folder value cannot be resolved (see ``paths.configured_path``), or None."""
    missing = paths.unset_variables(value, env)
    if missing:
        return f"${missing[0]} is not set (a path may use ~, $VARS and paths relative to this file's folder)"
    if value.startswith("~") and not (value == "~" or value.startswith("~/")):
        return "~user is not supported; write ~/..., $HOME/... or an absolute path"
    return None


def check(data: dict[str, object], text: str = "", env: Mapping[str, str] | None = None
          ) -> tuple[Config, list[tuple[int | None, str]], list[tuple[int | None, str]]]:
    """Validate parsed TOML. Returns (values merged over defaults, errors, warnings); each problem is
    ``(line or None, "dotted.key: message")``. Wrong values keep their default. Folder values stay
    as written; ``paths.configured_path`` resolves them where they are used."""
    values = default_tables()
    errors: list[tuple[int | None, str]] = []
    warnings: list[tuple[int | None, str]] = []
    for section, body in data.items():
        if section not in SCHEMA:
            warnings.append(_unknown_section(text, section, body))
        elif not isinstance(body, dict):
            errors.append(_not_a_table(text, section, body))
        else:
            for key, value in body.items():
                _check_key(text, section, key, value, env, values, errors, warnings)
    _apply_caps(text, values, warnings)
    return as_config(values), errors, warnings


def _unknown_section(text: str, section: str, body: object) -> tuple[int | None, str]:
    """The warning for a section (or a top-level key) the schema does not know."""
    shown = _key_text((section,))  # why: a quoted name may hold a newline or ESC; one line, escaped
    if isinstance(body, dict) or _describe(body) == "an array of tables":
        return _key_line(text, section, None), f"{shown}: unknown section, ignored{_did_you_mean(section)}"
    return (_key_line(text, section, None),
            f"{shown}: unknown top-level key, ignored (keys belong under a [section])")


def _did_you_mean(section: str, key: str | None = None) -> str:
    """`` (did you mean recall.max_chars?)`` for the schema's section (``key`` None) or key closest to
    a mistyped one, or "". A key is matched by its name, in its own section first, then in every
    section (a key written under the wrong header): matching dotted names would let a shared
    section prefix make any two keys of one section look alike."""
    import difflib

    if key is None:
        close = difflib.get_close_matches(section, list(SCHEMA), n=1)
        return f" (did you mean {close[0]}?)" if close else ""
    own = list(SCHEMA[section]) if section in SCHEMA else []
    close = difflib.get_close_matches(key, own, n=1)
    if close:
        return f" (did you mean {section}.{close[0]}?)"
    elsewhere = [(s, k) for s, keys in SCHEMA.items() if s != section for k in keys]
    close = difflib.get_close_matches(key, [k for _, k in elsewhere], n=1)
    match = next((f"{s}.{k}" for s, k in elsewhere if close and k == close[0]), None)
    return f" (did you mean {match}?)" if match else ""


def _not_a_table(text: str, section: str, body: object) -> tuple[int | None, str]:
    """The error for a known section written as a value or as an array of tables."""
    got = _describe(body)
    if got == "an array of tables":
        got += f" (write [{section}], not [[{section}]])"
    return _key_line(text, section, None), f"{section}: expected a table, got {got}"


def _check_key(text: str, section: str, key: str, value: object, env: Mapping[str, str] | None, values: Tables,
               errors: list[tuple[int | None, str]], warnings: list[tuple[int | None, str]]) -> None:
    """One ``key = value`` of a known section: a warning when unknown, an error when wrong (the
    default stays), else the value goes into ``values``."""
    dotted = f"{section}.{key}"
    spec = SCHEMA[section].get(key)
    if spec is None:
        why = RETIRED.get(dotted)
        shown = _key_text((section, key))  # why: a quoted name may hold a newline or ESC; one line, escaped
        warnings.append((_key_line(text, section, key), f"{dotted}: {why}, ignored" if why else
                         f"{shown}: unknown key, ignored{_did_you_mean(section, key)}"))
        return
    problem = _value_problem(dotted, key, spec[0], value, env)
    if problem:
        errors.append((_key_line(text, section, key), f"{dotted}: {problem}"))
    else:
        values[section][key] = value


def _value_problem(dotted: str, key: str, kind: str, value: Any, env: Mapping[str, str] | None) -> str | None:
    """What is wrong with a value of a known key (its type, its range, its path, its patterns), or None.

    ``value`` is parsed TOML (``Any``): its type is what this checks first."""
    if not _type_ok(kind, value):
        return f"expected {_TYPE_NAMES[kind]}, got {_describe(value)}"
    if kind in ("int", "num"):
        problem = _number_problem(dotted, key, kind, value)
        if problem:
            return problem
    if dotted in PATH_KEYS and value:
        problem = _path_problem(value, env)
        if problem:
            return f"{problem}, got {_describe(value)}"
    if dotted in COMMAND_KEYS and os.sep in value and not os.path.isabs(value):
        return (f"expected a name on PATH or an absolute path, got {_describe(value)} (~ and relative paths are "
                "not expanded where it is run: write the full path)")
    if kind == "num" and value < 0:
        return f"expected a number >= 0, got {_describe(value)}"
    if key == "redact_patterns":
        return _pattern_problem(value)
    if dotted in CHOICES and value not in CHOICES[dotted]:
        allowed = " or ".join(f'"{c}"' for c in CHOICES[dotted])
        return f"expected {allowed}, got {_describe(value)}"
    return None


def _number_problem(dotted: str, key: str, kind: str, value: int | float) -> str | None:
    """A number that is not finite, too large, out of its range or under its minimum."""
    import math

    word = "an integer" if kind == "int" else "a number"
    if kind == "num" and isinstance(value, float) and not math.isfinite(value):
        return f"expected a finite number, got {_describe(value)}"
    if value > NUMBER_MAX:
        return f"expected {word} <= {NUMBER_MAX}, got {_describe(value)}"
    if dotted in RANGES and not RANGES[dotted][0] <= value <= RANGES[dotted][1]:
        low, high = RANGES[dotted]
        return f"expected {word} between {low} and {high}, got {_describe(value)}"
    least = MINIMUMS.get(dotted, MINIMUMS.get(key, 0))
    if kind == "int" and value < least:
        return f"expected an integer >= {least}, got {_describe(value)}"
    return None


def _pattern_problem(patterns: list[str]) -> str | None:
    """The first of ``patterns`` that is not a valid regular expression, with the reason."""
    import json
    import re

    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            return f"invalid regular expression {json.dumps(pattern)}: {exc}"
    return None


def _apply_caps(text: str, values: Tables, warnings: list[tuple[int | None, str]]) -> None:
    """A value above its cap is lowered to the cap, one under its floor raised to it, with a warning."""
    for dotted, cap in CAPS.items():
        section, key = dotted.split(".")
        value = values[section][key]
        if isinstance(value, int) and value > cap:  # why: check() let only integers through
            warnings.append((_key_line(text, section, key),
                             f"{dotted}: {value} is above the cap of {cap}; {cap} is used"))
            values[section][key] = cap
    for dotted, floor in FLOORS.items():
        section, key = dotted.split(".")
        value = values[section][key]
        if isinstance(value, int) and value < floor:
            warnings.append((_key_line(text, section, key), f"{dotted}: {value} is under the floor of {floor} "
                             f"(the prompt's header and one entry); {floor} is used"))
            values[section][key] = floor


def parse_file(path: str, env: Mapping[str, str] | None = None) -> tuple[Config, list[str], list[str]]:
    """Read and validate ``path``. A missing file means defaults. Problems come back as
    ``"<path>:<line>: message"`` strings; a syntax error raises :class:`ConfigError`."""
    from lazy_harness.errors import ConfigError

    from lazy_harness.regular_file import read_regular

    try:  # why read_regular: a FIFO in the file's place held lh doctor and lh config set in open() for good
        raw = read_regular(path)
    except FileNotFoundError:
        return defaults(), [], []
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    return parse_bytes(raw, path, env)


def parse_bytes(raw: bytes, path: str, env: Mapping[str, str] | None = None) -> tuple[Config, list[str], list[str]]:
    """:func:`parse_file` of bytes already read (the hooks read them from the descriptor they checked,
    config.load_fast), ``path`` naming the file in the problems."""
    from lazy_harness.errors import ConfigError
    import tomllib  # why: not at top level; hooks reach here only when config.toml changed

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _place_of(raw, exc.start)
        # why line and column: "byte 112" sent the person counting bytes; an editor goes to a line
        raise ConfigError(f"{path}:{line}: not UTF-8 text at column {column} (byte {exc.start}: "
                          f"0x{raw[exc.start]:02x}); save it as UTF-8 (a file saved in Latin-1 or another legacy "
                          "encoding is not TOML)", hint="lh config validate") from None
    if text.startswith("\ufeff"):  # why: tomllib says only "Invalid statement" at line 1, column 1
        raise ConfigError(f"{path}:1: TOML syntax error at column 1: the file starts with a UTF-8 byte order mark "
                          "(BOM), which TOML does not allow; save it as UTF-8 without a BOM",
                          hint="lh config validate") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_unclosed_message(path, text, str(exc)) or _twice_message(path, text, str(exc))
                          or _toml_message(path, str(exc)),
                          hint="lh config validate") from None
    except ValueError as exc:  # why: tomllib lets int()'s digit limit through (a 5000-digit number)
        raise ConfigError(_long_number_message(path, text, str(exc)), hint="lh config validate") from None
    except RecursionError:  # why: tomllib parses nested arrays and inline tables by recursion
        raise ConfigError(_deep_message(path, text), hint="lh config validate") from None

    def fmt(item: tuple[int | None, str]) -> str:
        line, msg = item
        return f"{path}:{line}: {msg}" if line else f"{path}: {msg}"

    values, errors, warnings = check(data, text, env)
    return values, [fmt(e) for e in errors], [fmt(w) for w in warnings]


def _place_of(raw: bytes, at: int) -> tuple[int, int]:
    """(line, column) from 1 of byte ``at`` of ``raw``, a column counting characters as UTF-8 reads them."""
    start = raw.rfind(b"\n", 0, at) + 1
    return raw.count(b"\n", 0, at) + 1, len(raw[start:at].decode("utf-8", "replace")) + 1


def _unclosed_message(path: str, text: str, msg: str) -> str | None:
    """The error for a string left open, at the line where it opens, or None for any other error."""
    from lazy_harness.config.unclosed import open_string

    if not (msg.startswith(("Expected \"'", "Expected '\"", "Unterminated string")) and "end of document" in msg
            or msg.startswith("Illegal character '\\n'")):
        return None
    found = open_string(text)
    if found is None:
        return None
    line, column, quote = found
    where = "before the end of its line" if len(quote) == 1 else "before the end of the file"
    return (f"{path}:{line}: TOML syntax error at column {column}: a string opened with {quote} is not closed "
            f"{where} (add the closing {quote})")


def _twice_message(path: str, text: str, msg: str) -> str | None:
    """The error for a key set twice, at the line that sets it again, naming the key, its table and
    the line that set it first; None for any other error (tomllib's "Cannot overwrite a value")."""
    from lazy_harness.config.key_lines import set_again

    found = set_again(text) if msg.startswith("Cannot overwrite a value") else None
    if found is None:
        return None
    first, key, (line, kind, names) = found
    said = f"the key {_key_text(key[-1:])}" + (f" of [{_key_text(key[:-1])}]" if key[:-1] else " (before any [table])")
    if kind in ("table", "array"):
        twice = f"a value at line {first}, then the table [{_key_text(names)}] at line {line}"
    elif names == key:
        twice = f"lines {first} and {line}"
    else:
        twice = f"a value at line {first}, then {_key_text(names[len(key) - 1:])} at line {line}"
    return f"{path}:{line}: TOML syntax error: {said} is set twice ({twice}); keep one of the two lines"


def _toml_message(path: str, msg: str) -> str:
    # tomllib says "Invalid value (at line 3, column 9)"; put file:line first, like a compiler and
    # like the value errors below.
    import re

    msg = _toml_keys(msg)
    m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
    if not m:
        return f"{path}: TOML syntax error: {msg}"
    return f"{path}:{m.group(1)}: TOML syntax error at column {m.group(2)}: {msg[:m.start()].strip()}"


_TWICE = ("Cannot declare ", " twice")
_INLINE = "Cannot mutate immutable namespace "


def _toml_keys(msg: str) -> str:
    """tomllib's message with each key it names as a Python tuple (``('compound_loop',)``) in its
    TOML form, and its two wordings about a table written twice in words of the file's forms."""
    import ast
    import re

    def dotted(m: re.Match[str]) -> str:
        try:
            names = ast.literal_eval(m.group())
        except (ValueError, SyntaxError):
            return m.group()
        return _key_text(names) if isinstance(names, tuple) and all(isinstance(n, str) for n in names) else m.group()

    msg = re.sub(r"\((?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")(?:, (?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"))*,?\)",
                 dotted, msg)
    if msg.startswith(_TWICE[0]) and _TWICE[1] + " (" in msg:
        key, rest = msg[len(_TWICE[0]):].split(_TWICE[1] + " (", 1)
        return (f"[{key}] declared twice (write its keys under one [{key}] header, or all as {key}.name = ... "
                f"lines) ({rest}")
    if msg.startswith(_INLINE) and " (" in msg:
        key, rest = msg[len(_INLINE):].rsplit(" (", 1)
        return (f"{key} was written whole as an inline table ({key} = {{ ... }}): a key is added inside its "
                f"braces ({rest}")
    return msg


def _key_text(names: tuple[str, ...]) -> str:
    """A dotted key as TOML writes it: bare names as they are, the others quoted (``"a b".c``)."""
    import json
    import re

    return ".".join(n if re.fullmatch(r"[A-Za-z0-9_-]+", n) else json.dumps(n) for n in names)


def _deep_message(path: str, text: str) -> str:
    """The error for a value nested past the parser's stack, at the line where it goes deepest."""
    from lazy_harness.config.key_lines import deepest_line

    line, depth = deepest_line(text)
    return (f"{path}:{line}: TOML syntax error: a value nested {depth} levels deep (arrays or inline tables "
            "inside each other), past what can be read; write it flat")


def _long_number_message(path: str, text: str, msg: str) -> str:
    import re

    m = re.search(r"\d{4000,}", text)
    where = f"{path}:{text.count(chr(10), 0, m.start()) + 1}" if m else path
    return f"{where}: a number too long to read: {msg.split(';')[0]}"
