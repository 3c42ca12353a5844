"""config.toml: the schema, its validation, and a compiled form for the hot path.

Hooks call :func:`load_fast`: it stats config.toml and, when the file is unchanged, reads a small
JSON snapshot instead of importing ``tomllib`` and validating again. Top-level imports stay cheap:
not even ``json`` (it imports ``re``); the snapshot is decoded with :mod:`lazy_harness.jsonload`.
"""

import os

from lazy_harness import jsonload, paths
from lazy_harness.atomic import atomic_write

# (type, default, meaning). Types: bool, int, str, list (of strings).
SCHEMA: dict[str, dict[str, tuple[str, object, str]]] = {
    "compound_loop": {
        "enabled": ("bool", False, "master switch: distill finished sessions into memory"),
        "model": ("str", "claude-haiku-4-5", "model the worker asks to distill a session"),
        "claude_path": ("str", "claude", "the claude executable (a name on PATH or an absolute path)"),
        "min_messages": ("int", 4, "skip sessions with fewer user + assistant messages"),
        "min_user_chars": ("int", 200, "skip sessions where the user typed fewer characters"),
        "debounce_seconds": ("int", 60, "Stop: skip when this session's pending task is younger"),
        "reprocess_min_growth_seconds": ("int", 120, "Stop: re-queue only when the transcript grew this long past the last run"),
        "idle_minutes": ("int", 10, "queue a session idle this long that grew since its last check (0: never)"),
        "timeout_seconds": ("int", 120, "limit for one model call"),
        "max_attempts": ("int", 3, "model calls per task before it goes to failed/"),
        "retry_backoff_seconds": ("int", 2, "wait before the 2nd model call; doubled before each later one"),
        "transcript_budget_chars": ("int", 100_000, "characters of conversation put in the prompt (head and tail kept)"),
        "prompt_max_chars": ("int", 120_000, "hard cap on the whole prompt"),
        "redact_patterns": ("list", [], "extra regular expressions whose matches are redacted"),
    },
    "knowledge": {
        "path": ("str", "", "knowledge folder (learnings/ under it; ~, $VARS, relative to this file's folder); empty: $XDG_DATA_HOME/lazy-harness/knowledge"),
    },
    "memory": {
        "path": ("str", "", "folder of every project's memory (<path>/<project key>/; resolved like knowledge.path); empty: $XDG_DATA_HOME/lazy-harness/projects"),
    },
    "context": {
        "enabled": ("bool", True, "SessionStart: read memory back into new sessions"),
        "max_chars": ("int", 6000, "SessionStart: characters of context at most (capped at 9,500)"),
        "decisions": ("int", 8, "SessionStart: most recent decisions shown"),
        "failures": ("int", 5, "SessionStart: most recent failure preventions shown"),
        "learnings": ("int", 6, "SessionStart: learnings shown"),
    },
    "recall": {
        "enabled": ("bool", True, "UserPromptSubmit: add the memory entries that match each typed prompt"),
        "max_chars": ("int", 1500, "characters added to one prompt at most (capped at 4,000)"),
        "max_items": ("int", 5, "entries added to one prompt at most"),
        "min_prompt_chars": ("int", 20, "prompts shorter than this get nothing"),
        "min_terms": ("int", 2, "the bar: informative prompt words an entry must match"),
        "min_score": ("num", 2.4, "the bar: match strength an entry must reach (BM25, scaled; docs/how/recall.md)"),
        "min_coverage": ("int", 0, "the bar, optional: percent of the prompt's word weight an entry must match"),
    },
    "sync": {
        "remote": ("str", "", "git URL or path that carries memory between machines (lh sync); empty: no sync"),
        "auto": ("bool", True, "with a remote: the worker syncs after it writes memory, SessionStart pulls"),
        "interval_minutes": ("int", 5, "automatic syncs and pulls at most this often"),
        "pull_budget_ms": ("int", 1500, "SessionStart waits at most this long for a pull, then goes on without it"),
    },
    "handoff": {
        "stale_days": ("int", 14, "open items older than this many days are marked stale (never dropped)"),
    },
    # spend cap (docs/how/cost.md, ADR 0013): tasks wait in the queue once a cap is reached
    "budget": {
        "daily_usd": ("num", 5.0, "model spend per local day, in US dollars; 0 stops every model call"),
        "monthly_usd": ("num", 50.0, "model spend per calendar month, in US dollars"),
    },
    "consolidate": {
        "enabled": ("bool", True, "after draining the queue, let the worker consolidate a project's memory when the gates pass"),
        "min_hours": ("int", 24, "gate: hours since the project's last consolidation"),
        "min_sessions": ("int", 5, "gate: sessions that wrote memory since the last consolidation"),
        "scan_throttle_minutes": ("int", 10, "gate: count those sessions at most this often"),
        "lock_stale_minutes": ("int", 60, "a consolidation lock older than this is taken over"),
        "max_changes": ("int", 20, "changes one consolidation may make at most"),
    },
}

_TYPE_NAMES = {"bool": "a boolean", "int": "an integer", "str": "a string", "list": "a list of strings",
               "num": "a number"}
PATH_KEYS = ("knowledge.path", "memory.path")  # folders: ~, $VARS, relative to the config file's folder
_MIN = {"max_changes": 1, "lock_stale_minutes": 1, "timeout_seconds": 1, "max_attempts": 1, "transcript_budget_chars": 1000, "prompt_max_chars": 8000}
CONTEXT_HARD_CAP = 9500
RECALL_HARD_CAP = 4000  # why: well under the 10,000 characters Claude Code accepts, since this comes at every prompt
CAPS = {"context.max_chars": CONTEXT_HARD_CAP, "recall.max_chars": RECALL_HARD_CAP}  # a larger value is cut to these
# why: no key means anything past a billion (seconds, characters, dollars), and a larger value, like
# 1e400 (inf) or 10**23, overflows where it meets a float or a clock: a sleep, a timeout, a JSON total
NUMBER_MAX = 1_000_000_000


def defaults() -> dict[str, dict[str, object]]:
    return {sec: {k: (list(v[1]) if isinstance(v[1], list) else v[1]) for k, v in keys.items()}
            for sec, keys in SCHEMA.items()}


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
        return f"an integer of {len(str(abs(value)))} digits"
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
    """The 1-based line where ``[section]`` (or ``key`` inside it) is written; None when not found."""
    current = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("[["):
            current = None  # why: keys under an array of tables belong to no [section]
            if key is None and line.strip("[]").strip() == section:
                return n
            continue
        if line.startswith("["):
            current = line.strip("[]").strip()
            if key is None and current == section:
                return n
            continue
        if current == section and key is not None:
            name = line.split("=", 1)[0].strip().strip('"').strip("'")
            if "=" in line and name == key:
                return n
    return None


def _top_key_line(text: str, key: str) -> int | None:
    """The line of a key written before the first ``[section]`` header."""
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("["):
            return None
        if "=" in line and line.split("=", 1)[0].strip().strip('"').strip("'") == key:
            return n
    return None


def _path_problem(value: str, env) -> str | None:
    """Why a folder value cannot be resolved (see ``paths.configured_path``), or None."""
    missing = paths.unset_variables(value, env)
    if missing:
        return f"${missing[0]} is not set (a path may use ~, $VARS and paths relative to this file's folder)"
    if value.startswith("~") and not (value == "~" or value.startswith("~/")):
        return "~user is not supported; write ~/..., $HOME/... or an absolute path"
    return None


def check(data: dict, text: str = "", env=None) -> tuple[dict, list[tuple[int | None, str]], list[tuple[int | None, str]]]:
    """Validate parsed TOML. Returns (values merged over defaults, errors, warnings); each problem is
    ``(line or None, "dotted.key: message")``. Wrong values keep their default. Folder values stay
    as written; ``paths.configured_path`` resolves them where they are used."""
    import math

    values = defaults()
    errors: list[tuple[int | None, str]] = []
    warnings: list[tuple[int | None, str]] = []
    for section, body in data.items():
        if section not in SCHEMA:
            if isinstance(body, dict):
                warnings.append((_key_line(text, section, None), f"{section}: unknown section, ignored"))
            else:
                warnings.append((_top_key_line(text, section),
                                 f"{section}: unknown top-level key, ignored (keys belong under a [section])"))
            continue
        if not isinstance(body, dict):
            got = _describe(body)
            if got == "an array of tables":
                got += f" (write [{section}], not [[{section}]])"
            errors.append((_key_line(text, section, None) or _top_key_line(text, section),
                           f"{section}: expected a table, got {got}"))
            continue
        for key, value in body.items():
            dotted = f"{section}.{key}"
            line = _key_line(text, section, key)
            if line is None and isinstance(value, dict):
                line = _key_line(text, dotted, None)  # written as a [section.key] header
            spec = SCHEMA[section].get(key)
            if spec is None:
                warnings.append((line, f"{dotted}: unknown key, ignored"))
                continue
            kind = spec[0]
            if not _type_ok(kind, value):
                errors.append((line, f"{dotted}: expected {_TYPE_NAMES[kind]}, got {_describe(value)}"))
                continue
            if kind == "num" and isinstance(value, float) and not math.isfinite(value):
                errors.append((line, f"{dotted}: expected a finite number, got {_describe(value)}"))
                continue
            if kind in ("int", "num") and value > NUMBER_MAX:
                word = "an integer" if kind == "int" else "a number"
                errors.append((line, f"{dotted}: expected {word} <= {NUMBER_MAX}, got {_describe(value)}"))
                continue
            if kind == "int" and value < _MIN.get(key, 0):
                errors.append((line, f"{dotted}: expected an integer >= {_MIN.get(key, 0)}, got {value}"))
                continue
            if dotted in PATH_KEYS and value:
                problem = _path_problem(value, env)
                if problem:
                    errors.append((line, f"{dotted}: {problem}, got {_describe(value)}"))
                    continue
            if kind == "num" and value < 0:
                errors.append((line, f"{dotted}: expected a number >= 0, got {value}"))
                continue
            if key == "redact_patterns":
                import json
                import re

                bad = None
                for pattern in value:
                    try:
                        re.compile(pattern)
                    except re.error as exc:
                        bad = f"{dotted}: invalid regular expression {json.dumps(pattern)}: {exc}"
                        break
                if bad:
                    errors.append((line, bad))
                    continue
            values[section][key] = value
    for dotted, cap in CAPS.items():
        section, key = dotted.split(".")
        if values[section][key] > cap:
            warnings.append((_key_line(text, section, key),
                             f"{dotted}: {values[section][key]} is above the cap of {cap}; {cap} is used"))
            values[section][key] = cap
    return values, errors, warnings


def parse_file(path: str, env=None) -> tuple[dict, list[str], list[str]]:
    """Read and validate ``path``. A missing file means defaults. Problems come back as
    ``"<path>:<line>: message"`` strings; a syntax error raises :class:`ConfigError`."""
    from lazy_harness.errors import ConfigError

    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        return defaults(), [], []
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    import tomllib  # why: not at top level; hooks reach here only when config.toml changed

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_toml_message(path, str(exc)), hint="lh config validate") from None
    except ValueError as exc:  # why: tomllib lets int()'s digit limit through (a 5000-digit number)
        raise ConfigError(_long_number_message(path, text, str(exc)), hint="lh config validate") from None

    def fmt(item: tuple[int | None, str]) -> str:
        line, msg = item
        return f"{path}:{line}: {msg}" if line else f"{path}: {msg}"

    values, errors, warnings = check(data, text, env)
    return values, [fmt(e) for e in errors], [fmt(w) for w in warnings]


def _toml_message(path: str, msg: str) -> str:
    # tomllib says "Invalid value (at line 3, column 9)"; put file:line first, like a compiler and
    # like the value errors below.
    import re

    m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
    if not m:
        return f"{path}: TOML syntax error: {msg}"
    return f"{path}:{m.group(1)}: TOML syntax error at column {m.group(2)}: {msg[:m.start()].strip()}"


def _long_number_message(path: str, text: str, msg: str) -> str:
    import re

    m = re.search(r"\d{4000,}", text)
    where = f"{path}:{text.count(chr(10), 0, m.start()) + 1}" if m else path
    return f"{where}: a number too long to read: {msg.split(';')[0]}"


def load(env=None) -> dict:
    """Full load for the CLI and the worker: raises ConfigError on a syntax error or a wrong value."""
    from lazy_harness.errors import ConfigError

    path = paths.config_file(env)
    values, errors, _ = parse_file(path, env)
    if errors:
        raise ConfigError(errors[0], hint="lh config validate")
    return values


# why: a snapshot compiled by an older version lacks new keys; the schema is part of its stamp
_SCHEMA_STAMP = " ".join(f"{s}.{k}" for s, keys in SCHEMA.items() for k in keys)
INVALID = "_invalid"  # load_fast: the first problem of an invalid config.toml


def invalid(cfg: dict) -> str | None:
    """The first problem of the config.toml that ``cfg`` (from :func:`load_fast`) came from, or None."""
    problem = cfg.get(INVALID)
    return problem if isinstance(problem, str) and problem else None


def _snapshot_path(env=None) -> str:
    return os.path.join(paths.state_dir(env), "config.json")


def load_fast(env=None) -> dict:
    """Config for hooks: a JSON snapshot keyed by config.toml's path, mtime and size.

    Never raises: an unreadable or invalid file yields defaults for the bad keys (the loop stays
    off unless ``enabled`` itself parsed as true) and its first problem under :data:`INVALID`
    (read it with :func:`invalid`); ``lh config validate`` tells the user why.
    """
    path = paths.config_file(env)
    try:
        st = os.stat(path)
        stamp = [path, st.st_mtime_ns, st.st_size, _SCHEMA_STAMP]
    except OSError:
        stamp = [path, None, None, _SCHEMA_STAMP]
    snap = _snapshot_path(env)
    try:
        with open(snap, "rb") as fh:
            cached = jsonload.loads(fh.read())
        if cached.get("stamp") == stamp:
            return cached["values"]
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        pass
    problem = None
    try:
        values, errors, _ = parse_file(path, env)
        problem = errors[0] if errors else None
    except Exception as exc:  # why: a hook must never fail on a bad config; it runs with defaults
        values = defaults()
        problem = getattr(exc, "message", None) or f"{path}: {exc}"
    if problem:
        values[INVALID] = problem  # why: hooks say "config invalid", never "disabled" (ADR 0013)
    import json

    try:
        atomic_write(snap, json.dumps({"stamp": stamp, "values": values}))
    except OSError:
        pass
    return values


# --- the example file and the one edit lh makes to a user's config.toml ---------------------------

SECTION_HELP = {
    "compound_loop": "The compound loop: hooks queue finished sessions, a detached worker distills them.",
    "knowledge": "Where learnings are written (shared by every project).",
    "memory": "Where each project's decisions, failures and handoff are written (one folder per project).",
    "context": "What SessionStart reads back into a new session.",
    "recall": "What each typed prompt gets from memory (docs/how/recall.md).",
    "handoff": "Open items carried from session to session (handoff.md).",
    "budget": "Spend caps for the worker's model calls (lh cost shows the spend).",
}


def toml_literal(value: object) -> str:
    """A TOML literal for a schema value (bool, int, str, list of str)."""
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    if isinstance(value, list):
        return "[" + ", ".join(json.dumps(str(x)) for x in value) + "]"
    return json.dumps(str(value))  # why: a JSON string with its escapes is a valid TOML basic string


def render_example() -> str:
    """The text of config.example.toml, generated from SCHEMA so the two cannot drift apart."""
    out = [
        "# lazy-harness configuration (TOML). Generated from lazy_harness.config.SCHEMA.",
        "#",
        "# Where lh reads it: $LH_CONFIG, else $XDG_CONFIG_HOME/lazy-harness/config.toml,",
        "# else ~/.config/lazy-harness/config.toml (`lh config path` prints it).",
        "# Every key is optional and every value below is the default.",
        "# Check a file with `lh config validate`; see docs/how/configuration.md.",
    ]
    for section, keys in SCHEMA.items():
        out += ["", f"# {SECTION_HELP[section]}" if section in SECTION_HELP else "#", f"[{section}]"]
        for key, (_, default, meaning) in keys.items():
            floor = f"; at least {_MIN[key]}" if key in _MIN else ""
            out += [f"# {meaning}{floor}", f"{key} = {toml_literal(default)}"]
    return "\n".join(out) + "\n"


def set_value(text: str, section: str, key: str, value: object) -> str:
    """``text`` with ``[section] key = value``, changing only that line (comments and layout stay).

    Adds the key under its header, or the section at the end, when absent. Raises ConfigError when
    the result would not parse to exactly the old document plus this one value (a dotted key, an
    inline table, a syntax error): the user's file is never rewritten into something else.
    """
    import re
    import tomllib

    from lazy_harness.errors import ConfigError

    literal = toml_literal(value)
    lines = text.splitlines(keepends=True)
    header = re.compile(r"^\s*\[\s*(\"?)([^\]\"]+)\1\s*\]\s*(#.*)?$")
    start, end = None, len(lines)
    for i, line in enumerate(lines):
        m = header.match(line.rstrip("\r\n"))
        if not m or line.lstrip().startswith("[["):
            continue
        if start is not None:
            end = i
            break
        if m.group(2).strip() == section:
            start = i
    if start is None:
        glue = "" if not text or text.endswith("\n") else "\n"
        blank = "\n" if text.strip() else ""
        new = f"{text}{glue}{blank}[{section}]\n{key} = {literal}\n"
    else:
        assign = re.compile(r"^(\s*[\"']?" + re.escape(key) + r"[\"']?\s*=\s*)(true|false)?(.*?)(\r?\n)?$")
        for i in range(start + 1, end):
            m = assign.match(lines[i])
            if m:
                rest = m.group(3) if m.group(2) else ""  # a non-boolean value is replaced whole
                lines[i] = f"{m.group(1)}{literal}{rest}{m.group(4) or ''}"
                break
        else:
            if not lines[start].endswith("\n"):
                lines[start] += "\n"
            lines.insert(start + 1, f"{key} = {literal}\n")
        new = "".join(lines)
    try:
        before = tomllib.loads(text)
        after = tomllib.loads(new)
    except tomllib.TOMLDecodeError:
        after, before = None, {}
    expected = dict(before)
    expected[section] = {**(before.get(section) if isinstance(before.get(section), dict) else {}), key: value}
    if after != expected:
        raise ConfigError(f"cannot set {section}.{key} by a safe edit", hint=f"set [{section}] {key} = {literal} by hand")
    return new


def enable_loop(path: str) -> str:
    """Switch ``[compound_loop] enabled`` on in ``path``: "created" (from the example), "enabled"
    (edited in place, mode kept) or "already enabled". Refuses a file that does not parse."""
    import stat

    from lazy_harness.errors import ConfigError

    values, errors, _ = parse_file(path)  # raises on a syntax error, file untouched
    try:
        with open(path, encoding="utf-8") as fh:
            text: str | None = fh.read()
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        text, mode = None, 0o600
    if text is None:
        new = set_value(render_example(), "compound_loop", "enabled", True)
        try:
            created = atomic_write(path, new, exclusive=True)
        except OSError as exc:
            raise ConfigError(f"{path}: cannot write: {exc.strerror or exc}") from None
        return "created" if created else enable_loop(path)  # why: someone created it meanwhile; edit theirs
    if values["compound_loop"]["enabled"] is True and not any(".enabled:" in e for e in errors):
        return "already enabled"
    try:
        new = set_value(text, "compound_loop", "enabled", True)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc.message}", exc.hint) from None
    try:
        atomic_write(path, new, mode=mode)
        if stat.S_IMODE(os.stat(path).st_mode) != mode:
            os.chmod(path, mode)  # why: the umask may have narrowed the mode of the replacement
    except OSError as exc:
        raise ConfigError(f"{path}: cannot write: {exc.strerror or exc}") from None
    return "enabled"
