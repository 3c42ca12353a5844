"""config.toml as lh writes it: the example file, generated from the schema, and the one edit lh
makes to a user's file (``lh hooks install`` turning ``[compound_loop] enabled`` on).

Only the CLI uses it; ``tomllib``, ``re`` and ``json`` are imported inside the functions.
"""

import os

from lazy_harness.atomic import atomic_write
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
    old = before.get(section)
    expected[section] = {**(old if isinstance(old, dict) else {}), key: value}
    if after != expected:
        raise ConfigError(f"cannot set {section}.{key} by a safe edit",
                          hint=f"set [{section}] {key} = {literal} by hand")
    return new


def enable_loop(path: str, unless_off: bool = False) -> str:
    """Switch ``[compound_loop] enabled`` on in ``path``: "created" (from the example), "enabled"
    (edited in place, mode kept) or "already enabled". Refuses a file that does not parse. With
    ``unless_off`` (the plugin's first start, which the person did not ask for in words) a file that
    says ``enabled = false`` itself is left as it is: "left off"."""
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
    if unless_off:
        import tomllib

        if (tomllib.loads(text).get("compound_loop") or {}).get("enabled") is False:
            return "left off (compound_loop.enabled = false in config.toml)"
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
