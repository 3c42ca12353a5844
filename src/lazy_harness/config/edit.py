"""config.toml as lh writes it: the example file, generated from the schema, and the one edit lh
makes to a user's file (``lh hooks install`` turning ``[compound_loop] enabled`` on).

Only the CLI uses it; ``tomllib``, ``re`` and ``json`` are imported inside the functions.
"""

import os

from lazy_harness.atomic import atomic_write
from lazy_harness.regular_file import read_regular
from lazy_harness.config.schema import MINIMUMS, RANGES, SCHEMA
from lazy_harness.config.validate import parse_file

SECTION_HELP = {
    "compound_loop": "The compound loop: hooks queue finished sessions, a detached worker distills them.",
    "knowledge": "Where learnings are written (shared by every project).",
    "memory": "Where each project's decisions, failures and handoff are written (one folder per project).",
    "context": "What SessionStart reads back into a new session.",
    "recall": "What each typed prompt gets from memory (docs/how/recall.md).",
    "usage": "Which memory entries sessions use (lh memory usage; docs/how/usage.md).",
    "handoff": "Open items carried from session to session (handoff.md).",
    "budget": "Spend caps for the worker's model calls (lh cost shows the spend).",
    "trust": "Consent: what one project's sessions wrote, reaching another project's sessions.",
    "sync": "The same memory on every machine, carried by a git remote (lh sync; docs/how/sync.md).",
    "worker": "Which CLI distills sessions: Claude Code or Codex (docs/how/codex.md).",
    "consolidate": "Keeping memory current: the worker marks what is outdated, undoably (docs/how/consolidation.md).",
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
            least = MINIMUMS.get(f"{section}.{key}", MINIMUMS.get(key))
            floor = f"; at least {least}" if least is not None else ""
            if f"{section}.{key}" in RANGES:
                floor = "; from {} to {}".format(*RANGES[f"{section}.{key}"])
            out += [f"# {meaning}{floor}", f"{key} = {toml_literal(default)}"]
    return "\n".join(out) + "\n"


def set_value(text: str, section: str, key: str, value: object) -> str:
    """``text`` with ``[section] key = value``, changing only that line (comments and layout stay).

    Changes the key's line where it is written, under its header or as a dotted key
    (``compound_loop.enabled = false``); else adds it under its header; in a file that writes the
    section as dotted keys (``compound_loop.min_messages = 2``), a ``section.key = value`` line
    before the first of them; else the section at the end. Raises ConfigError when the result would
    not parse to exactly the old document plus this one value (an inline table, a syntax error): the
    user's file is never rewritten into something else; its hint says what to write, in the form the
    file uses.
    """
    import re

    from lazy_harness.errors import ConfigError

    literal = toml_literal(value)
    first = re.search(r"\r?\n", text)
    eol = first.group() if first else "\n"  # why: an added line ends as the file's lines do (CRLF kept)
    lines = [line for line in re.split(r"(?<=\n)", text) if line]  # why: TOML ends lines at \n only
    start, end = _section_span(lines, section)
    form, at = _top_level_form(text, section, key) if start is None else ("table", None)
    if start is not None:
        new = _set_in_table(lines, start, end, key, literal, eol)
    elif form == "dotted" and at is not None:
        dotted = _name(section) + r"\s*\.\s*" + _name(key)
        changed = _assigned(lines[at - 1], dotted, literal)
        lines[at - 1:at] = [changed] if changed is not None else [f"{section}.{key} = {literal}{eol}", lines[at - 1]]
        new = "".join(lines)
    else:
        glue = "" if not text or text.endswith("\n") else eol
        blank = eol if text.strip() else ""
        new = f"{text}{glue}{blank}[{section}]{eol}{key} = {literal}{eol}"
    before, after = _parsed(text), _parsed(new)
    expected = dict(before or {})
    old = expected.get(section)
    expected[section] = {**(old if isinstance(old, dict) else {}), key: value}
    if after != expected:
        written = isinstance(old, dict) and key in old
        raise ConfigError(f"cannot set {section}.{key} by a safe edit",
                          hint=_by_hand(form, section, key, literal, at if written else -1))
    return new


def _parsed(text: str) -> dict[str, object] | None:
    """The TOML document ``text``, or None when it does not parse."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def _section_span(lines: list[str], section: str) -> tuple[int | None, int]:
    """The index of the ``[section]`` header line (None: no such header) and of the next header."""
    import re

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
    return start, end


def _set_in_table(lines: list[str], start: int, end: int, key: str, literal: str, eol: str) -> str:
    """The text with ``key = literal`` under the header at ``start``: its line changed, else added."""
    for i in range(start + 1, end):
        changed = _assigned(lines[i], _name(key), literal)
        if changed is not None:
            lines[i] = changed
            break
    else:
        if not lines[start].endswith("\n"):
            lines[start] += eol
        lines.insert(start + 1, f"{key} = {literal}{eol}")
    return "".join(lines)


def _name(name: str) -> str:
    """A pattern for ``name`` as a TOML key part: bare, "quoted" or 'quoted'."""
    import re

    return "(?:" + "|".join(q + re.escape(name) + q for q in ('"', "'", "")) + ")"


def _assigned(line: str, name: str, literal: str) -> str | None:
    """``line`` with its value set to ``literal`` when it assigns the key ``name`` (a pattern),
    indentation, spacing, a comment after a boolean and the line end kept; else None."""
    import re

    m = re.match(r"^(\s*" + name + r"\s*=\s*)(true|false)?(.*?)(\r?\n)?$", line)
    if not m:
        return None
    rest = m.group(3) if m.group(2) else ""  # a non-boolean value is replaced whole
    return f"{m.group(1)}{literal}{rest}{m.group(4) or ''}"


def _top_level_form(text: str, section: str, key: str) -> tuple[str, int | None]:
    """How a file without a ``[section]`` header writes the section before its first header:
    ("dotted", line of its ``section.key = ...``, else of its first ``section.… = ...``),
    ("inline", line of ``section = { ... }``) or ("none", None)."""
    from lazy_harness.config.key_lines import written_paths

    form: tuple[str, int | None] = ("none", None)
    for n, kind, path in written_paths(text):
        if kind in ("table", "array"):
            break  # why: a key after a header belongs to that table, not to the top level
        if path[:1] != (section,) or kind not in ("key", "inline"):
            continue
        if len(path) == 1:
            return kind, n
        if path[1:] == (key,):
            return "dotted", n
        if form[1] is None:
            form = ("dotted", n)
    return form


def _by_hand(form: str, section: str, key: str, literal: str, line: int | None) -> str:
    """What to write by hand, in the form the file already uses for ``section`` (a ``[section]``
    header added to a file of dotted keys is a second declaration, a second ``key`` a duplicate:
    TOML refuses either); ``line``: where the file already sets the key (None: in a table or inline
    table; -1: it does not set it)."""
    if form == "dotted":
        if line != -1:
            return f"change line {line} ({section}.{key} = ...) to {section}.{key} = {literal}, by hand"
        return f"write {section}.{key} = {literal} beside the file's other {section}. lines, by hand"
    if form == "inline":
        if line != -1:
            return f"change {key} = ... inside the braces of {section} = {{ ... }} to {key} = {literal}, by hand"
        return f"add {key} = {literal} inside the braces of {section} = {{ ... }}, by hand"
    if line != -1:
        return f"change {key} = ... under [{section}] to {key} = {literal}, by hand"
    return f"write {key} = {literal} under [{section}], by hand"


def enable_loop(path: str, unless_off: bool = False) -> str:
    """Switch ``[compound_loop] enabled`` on in ``path``: "created" (from the example), "enabled"
    (edited in place, mode kept, every other byte kept: a CRLF file stays CRLF) or "already enabled".
    Refuses a file that does not parse. With ``unless_off`` (the plugin's first start, which the
    person did not ask for in words) a file that says ``enabled = false`` itself is left as it is:
    "left off".

    A file the loader refuses (not the user's, open to group or others, in a folder another user
    can rename in: ``private.open_config``) is left as it is: ConfigError with the loader's own
    message. A ``path`` that is a symbolic link (a config kept with the user's dotfiles) stays a
    link: the file it leads to is written, atomically in its own folder, when it is the file the
    loader reads and passes the loader's checks (:func:`_link_target`); otherwise refused with a
    ConfigError naming that file (the link and the file are left as they are)."""
    import stat

    from lazy_harness.errors import ConfigError

    target, done, new, mode = _loop_edit(path, unless_off)
    if done is not None:
        return done
    if new is None:
        new = set_value(render_example(), "compound_loop", "enabled", True)
        try:
            created = atomic_write(path, new, exclusive=True)
        except OSError as exc:
            raise ConfigError(f"{path}: cannot write: {exc.strerror or exc}") from None
        return "created" if created else enable_loop(path)  # why: someone created it meanwhile; edit theirs
    try:
        atomic_write(target, new, mode=mode)
        if stat.S_IMODE(os.stat(target).st_mode) != mode:
            os.chmod(target, mode)  # why: the umask may have narrowed the mode of the replacement
    except OSError as exc:
        raise ConfigError(f"{target}: cannot write: {exc.strerror or exc}") from None
    return "enabled"


def check_loop_edit(path: str) -> None:
    """Raise the ConfigError :func:`enable_loop` would raise before its write, writing nothing.
    why: ``lh hooks install`` asks first, so that a file it cannot switch the loop on in (a syntax
    error, ``[[compound_loop]]``, a file the loader refuses) stops it before settings.json is touched,
    not after the hooks are in."""
    _loop_edit(path, False)


def _loop_edit(path: str, unless_off: bool) -> tuple[str, str | None, str | None, int]:
    """What :func:`enable_loop` does to ``path``: (the file it writes, its answer when it writes
    nothing, else the new text, None when there is no file, and the mode to keep); raises its ConfigError."""
    import stat

    from lazy_harness.errors import ConfigError

    target = _link_target(path)
    values, errors, _ = parse_file(target)  # raises on a syntax error, file untouched
    try:
        # why read_regular: a FIFO put there since it was parsed held the command; bytes: CRLF is kept
        text = read_regular(target).decode("utf-8")
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return target, None, None, 0o600
    if values["compound_loop"]["enabled"] is True and not any(".enabled:" in e for e in errors):
        return target, "already enabled", None, mode
    if unless_off:
        import tomllib

        if (tomllib.loads(text).get("compound_loop") or {}).get("enabled") is False:
            return target, "left off (compound_loop.enabled = false in config.toml)", None, mode
    try:
        return target, None, set_value(text, "compound_loop", "enabled", True), mode
    except ConfigError as exc:
        from lazy_harness.config.key_lines import key_line

        line = key_line(text, "compound_loop", None)  # why: where the form that stops the edit is written
        raise ConfigError(f"{target}{f':{line}' if line else ''}: {exc.message}", exc.hint) from None


def _link_target(path: str) -> str:
    """``path`` when it is not a symbolic link; else the file its links lead to, followed as
    ``private.open_config`` follows them (one step at a time, a relative link read from its folder).
    Raises ConfigError naming that file unless the loader would read it: every folder on the way one
    no other user can rename in, the file a regular file of the user's closed to others' writes, and
    the file the loader opens (same device and inode) being the one found here."""
    from lazy_harness import private
    from lazy_harness.errors import ConfigError

    if not os.path.islink(path):
        _refuse_unsafe(path)
        return path
    target = os.path.abspath(path)
    for _ in range(40):  # why: a loop of links ends here; open_config below enforces its own, smaller limit
        if not os.path.islink(target):
            break
        target = os.path.join(os.path.dirname(target), os.readlink(target))
    fd, st, why = private.open_config({"LH_CONFIG": os.path.abspath(path)})
    if fd is not None:
        os.close(fd)
    try:
        same = st is not None and os.path.samestat(st, os.stat(target))
    except OSError:
        same = False
    if why or not same:
        reason = why or f"{target} does not exist or is not the file lh reads"
        hint = f"set [compound_loop] enabled = true in {target}"
        if not why and not os.path.isdir(os.path.dirname(target)):  # why: a file cannot be set in a missing folder
            hint = f"restore {target}, or remove the link (rm {path}) and run lh hooks install again"
        raise ConfigError(f"{path} is a link to {target}, not changed: {reason}", hint=hint)
    return target


def _refuse_unsafe(path: str) -> None:
    """Raise the loader's ConfigError (``config.load``: the file and why) when the loader would not
    read ``path``, or would not read a config.toml created in its folder. A folder that is not there
    (or is not a folder) is left to the write, which names it."""
    from lazy_harness import private
    from lazy_harness.errors import ConfigError

    fd, _, why = private.open_config({"LH_CONFIG": os.path.abspath(path)})
    if fd is not None:
        os.close(fd)
    if why and (os.path.lexists(path) or os.path.isdir(os.path.dirname(os.path.abspath(path)))):
        raise ConfigError(why, hint="lh doctor")  # why: word for word what config.load raises
