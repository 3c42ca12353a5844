"""Which command of a hooks file (Claude Code's settings.json, Codex's hooks.json) runs our hook, read
as ``sh -c`` reads it: the program ``lh-hook``, or a program given our launcher or the older ``-m
lazy_harness.hooks`` as its own words, started after any ``NAME=value`` words or through ``env``
(``LH_CONFIG=/x/y.toml lh-hook Stop``). A command that only names ours as an argument of another program
(``echo``, ``bash -c``, ``timeout``) is the person's, and so is one that runs more than our hook
(``lh-hook Stop; backup.sh``). And what a command of ours gives the hook: its event, its agent.

One rule for the CLI (``settings.is_ours``) and the hooks' rare path (``hooks.settings_commands``):
imports nothing, so a hook may load it.
"""

from __future__ import annotations

MODULE = "lazy_harness.hooks"
SCRIPT = "lh-hook"  # the console script ([project.scripts]) for the portable form
RUN = "from lazy_harness.hooks.launch import run; run()"  # the bundle of the hooks' modules first (hotload.py)
RUN_BEFORE = "from lazy_harness.hooks.entry import run; run()"  # the launcher before the bundle
_BREAK = " \t\n;&|<>()"  # what ends a word in sh
PLUGIN_FLAG = "--plugin"  # plugin.FLAG: after the event, the plugin's hooks.json ran the hook (hooks/entry.py)
GUARD_WORDS = ["||", "exit", "0"]  # settings.GUARD: what sh runs when our program cannot start
_HOME_UNSAFE = _BREAK + "'\"\\$`"  # why: a home holding one of these would be read again as sh syntax
_ENV_WITH_VALUE = ("--unset", "--chdir")  # env's long options that take the next word
_ENV_SHORT_WITH_VALUE = "uCP"  # and its short ones (-P altpath: the BSD and macOS env)


def sh_word(command: str, i: int) -> tuple[str | None, int]:
    """The word of the POSIX sh ``command`` that starts at ``i``, quotes removed, and where it ends. The
    word is None when only a shell could say what it is (a ``$NAME`` in it); the end is -1 when even
    where it ends is unknown (``$(``, a backquote, an unclosed quote)."""
    out, n, known = [], len(command), True
    while i < n and command[i] not in _BREAK:
        c = command[i]
        if c == "`" or command.startswith("$(", i):
            return None, -1
        if c == "'":
            end = command.find("'", i + 1)
            if end < 0:
                return None, -1
            out.append(command[i + 1:end])
            i = end + 1
        elif c == '"':
            i, known = _double_quoted(command, i + 1, out, known)
            if i < 0:
                return None, -1
        elif c == "\\" and i + 1 < n:
            if command[i + 1] != "\n":  # why: a backslash before a line break joins the lines, as in sh
                out.append(command[i + 1])
            i += 2
        else:
            known = known and c != "$"
            out.append(c)
            i += 1
    return ("".join(out) if known else None), i


def _double_quoted(command: str, i: int, out: list[str], known: bool) -> tuple[int, bool]:
    """The text of a double-quoted part from ``i`` (after its ``"``) into ``out``: where it ends (after
    its closing ``"``; -1 when it does not close or holds a ``$(`` or backquote), and ``known``."""
    n = len(command)
    while i < n and command[i] != '"':
        if command[i] == "`" or command.startswith("$(", i):
            return -1, known
        known = known and command[i] != "$"
        if command.startswith("\\\n", i):  # the lines joined: neither is kept
            i += 2
            continue
        if command[i] == "\\" and i + 1 < n and command[i + 1] in '"\\$`':
            i += 1
        out.append(command[i])
        i += 1
    return (i + 1 if i < n else -1), known


def _assignment(command: str, start: int, end: int) -> bool:
    """Whether the word ``command[start:end]`` is a ``NAME=value`` sh reads as a variable for the program."""
    name, eq, _ = command[start:end].partition("=")
    return bool(eq and name and name.replace("_", "a").isalnum() and name.isascii() and not name[0].isdigit())


def program_at(command: str) -> tuple[str | None, int, int]:
    """The program sh starts for ``command`` (its first word after any ``NAME=value``, and after ``env``
    with its options and ``NAME=value`` words), where that word starts and where it ends; None for the
    program when only a shell could say what it is, and -1 for both places when not even where it is."""
    i, through_env, takes_value, options_done = _first_line(command), False, False, False
    while True:
        i = _blanks(command, i)
        start = i
        word, i = sh_word(command, i)
        if i < 0 or i == start:
            return None, -1, -1
        if takes_value or _assignment(command, start, i):
            takes_value = False
            continue
        if through_env and not options_done and word is not None and word.startswith("-"):
            kind = _env_option(word)
            if kind == "split":
                return None, -1, -1  # why: env splits that string into a command of its own
            takes_value, options_done = kind == "value", kind == "end"
            continue
        if not through_env and word is not None and word.rsplit("/", 1)[-1] == "env":
            through_env = True
            continue
        return word, start, i


def _blanks(command: str, i: int) -> int:
    """Where the next word of ``command`` from ``i`` starts: past spaces, tabs and backslash-joined lines."""
    while i < len(command) and (command[i] in " \t" or command.startswith("\\\n", i)):
        i += 1 if command[i] in " \t" else 2
    return i


def _first_line(command: str) -> int:
    """Where ``command``'s first command starts: past blank lines and comment lines before it, which sh
    runs nothing of (``# lazy-harness memory\nlh-hook Stop``)."""
    i = 0
    while True:
        i = _blanks(command, i)
        if i < len(command) and command[i] == "\n":
            i += 1
        elif i < len(command) and command[i] == "#":
            end = command.find("\n", i)
            i = len(command) if end < 0 else end
        else:
            return i


def _env_option(word: str) -> str:
    """What env makes of ``word``, one of its options: "value" (the next word is the option's), "split"
    (``-S``), "end" (``--``) or "option"; short ones run together as getopt reads them (``-iu NAME``,
    ``-uNAME``), and a mere ``-`` is ``-i``."""
    if word == "--":
        return "end"
    if word.startswith("--"):
        return "split" if word.startswith("--split-string") else "value" if word in _ENV_WITH_VALUE else "option"
    for k, letter in enumerate(word[1:], 1):
        if letter == "S":
            return "split"
        if letter in _ENV_SHORT_WITH_VALUE:
            return "value" if k == len(word) - 1 else "option"
    return "option"


def program(command: str) -> str | None:
    """The program sh starts for ``command`` (see :func:`program_at`), or None."""
    return program_at(command)[0]


def program_file(command: str, home: str) -> str | None:
    """The program sh starts for ``command`` with ``$HOME``, ``${HOME}`` or a leading unquoted ``~/`` read
    as ``home``, as sh reads them (``$HOME/.local/bin/lh-hook``); None when another expansion is in it,
    or it holds a single quote (where ``$HOME`` stays as written)."""
    _, start, end = program_at(command)
    if start < 0:
        return None
    raw = command[start:end]
    if raw.startswith("~/"):
        raw = "$HOME" + raw[1:]
    if "$" in raw and ("'" in raw or any(c in _HOME_UNSAFE for c in home)):
        return None
    return sh_word(_home_read(raw.replace("${HOME}", "$HOME"), home), 0)[0]


def _home_read(text: str, home: str) -> str:
    """``text`` with each ``$HOME`` (not the start of a longer name, ``$HOMEDIR``) made ``home``."""
    out, i = [], 0
    while (at := text.find("$HOME", i)) >= 0:
        after = at + len("$HOME")
        longer = after < len(text) and (text[after].isalnum() or text[after] == "_")
        out.append(text[i:after] if longer else text[i:at] + home)
        i = after
    return "".join(out) + text[i:]


def prefix(command: str) -> str:
    """What ``command`` sets before its program (``LH_CONFIG=/x/y.toml ``, ``env LH_CONFIG=... ``), with
    one space after it, or "": what install keeps when it rewrites the person's command of ours."""
    _, start, _ = program_at(command)
    before = _joined(command[_first_line(command):start]).strip() if start > 0 else ""
    return before + " " if before else ""


def _joined(text: str) -> str:
    """``text`` with its lines continued by a backslash joined, as sh joins them: outside quotes and in
    double quotes; in single quotes a backslash and a line break are the value's own characters."""
    out, i, quote = [], 0, ""
    while i < len(text):
        c = text[i]
        if quote != "'" and text.startswith("\\\n", i):
            i += 2
            continue
        if c == "\\" and quote != "'" and i + 1 < len(text):  # why: an escaped quote opens nothing
            out.append(text[i:i + 2])
            i += 2
            continue
        if c in "'\"" and quote in ("", c):
            quote = "" if quote else c
        out.append(c)
        i += 1
    return "".join(out)


def ours(command: object) -> bool:
    """Whether ``command`` runs our hook and nothing more: the program ``lh-hook`` wherever it is
    installed, or a program given our launcher (either) after ``-c`` or ``-m lazy_harness.hooks``, as its
    own words (not inside another program's argument: ``bash -c '... -m lazy_harness.hooks Stop'``)."""
    if not isinstance(command, str):
        return False
    word, start, end = program_at(command)
    if start < 0:
        return False
    if word is None:  # why: ``$HOME/.local/bin/lh-hook`` is ours wherever $HOME is
        word = command[start:end].replace('"', "").replace("'", "")
    args = _arguments(command, end)
    if args is None:
        return False
    return word.rsplit("/", 1)[-1] == SCRIPT or _past_ours(args) is not None


def _past_ours(args: list[str | None]) -> int | None:
    """Where the hook's own words start in a program's ``args``: after ``-m lazy_harness.hooks`` or
    after ``-c`` and our launcher; None when neither is there."""
    return next((k + 2 for k, (flag, arg) in enumerate(zip(args, args[1:], strict=False))
                 if (flag == "-m" and arg == MODULE) or (flag == "-c" and _launcher(arg))), None)


def _launcher(code: str | None) -> bool:
    """Whether ``code``, the word after a program's ``-c``, is our launcher as a version of lh wrote it."""
    return (code is not None and code.lstrip().startswith(("import sys", "from lazy_harness.hooks"))
            and (RUN in code or RUN_BEFORE in code))


def _arguments(command: str, i: int) -> list[str | None] | None:
    """The words that follow the program's word at ``i`` (None for one only a shell could read), when
    after them comes nothing or our ``|| exit 0``; else None. why: anything else sh runs with it (a
    command after ``;``, ``&&``, ``|``, ``&`` or a line break, a redirection) is the person's, which a
    rewrite by install or a removal by uninstall would drop with ours (ADR 0070, amended)."""
    words, end = _words_from(command, i)
    return words if end >= 0 and _after(command[end:]) in ([], GUARD_WORDS) else None


def _words_from(command: str, i: int) -> tuple[list[str | None], int]:
    """The words of sh's simple command from ``i`` on, and where that command ends (the length of
    ``command`` at its end; -1 when only a shell could say)."""
    words: list[str | None] = []
    while i < len(command):
        if command[i] in " \t" or command.startswith("\\\n", i):
            i = _blanks(command, i)
        elif command[i] in _BREAK:
            return words, i
        elif command[i] == "#":  # a comment, to the end of its line
            line_end = command.find("\n", i)
            i = len(command) if line_end < 0 else line_end
        else:
            word, i = sh_word(command, i)
            if i < 0:
                return words, -1
            words.append(word)
    return words, i


def guarded(command: str) -> bool:
    """Whether ``command`` ends with our ``|| exit 0`` after its program's words, however spaced
    (``lh-hook Stop  ||  exit 0``, a line break after it): what sh runs when the program cannot start."""
    _, start, end = program_at(command)
    at = _words_from(command, end)[1] if start >= 0 else -1
    return at >= 0 and _after(command[at:]) == GUARD_WORDS


def _after(rest: str) -> list[str]:
    """The words of ``rest``, what follows a command's program and its words, without its comments
    (from a word starting with ``#`` to the end of its line, a backslash there too): what sh runs after
    them. A line ending with a backslash outside a comment goes on on the next one, as in sh."""
    words: list[str] = []
    carry = ""
    for line in rest.split("\n"):
        line, carry = carry + line, ""
        said = []
        for word in line.split():
            if word.startswith("#"):
                break
            said.append(word)
        else:
            if line.endswith("\\"):
                carry = line[:-1]
                continue
        words += said
    return words + carry.split()


def event_of(command: str) -> str | None:
    """The event our ``command`` runs the hook of: the word after our launcher or ``-m
    lazy_harness.hooks``, else the program's first word (``lh-hook Stop``); None when none, or only a
    shell could read it (``lh-hook $EVENT``). why: the hook runs the event its command names, whichever
    event of the settings file holds the entry."""
    args = _hook_arguments(command)
    return args[0] if args else None


def agent_of(command: str) -> str | None:
    """The agent our ``command`` runs the hook for, as the hook reads its words after the event
    (hooks/entry.py ``agent_of_argv``): ``codex`` for ``--agent codex``, else ``claude``; None when only
    a shell could read them."""
    args = _hook_arguments(command)
    if args is None or None in args:
        return None
    rest = args[1:]
    for i, arg in enumerate(rest):
        if arg == "--agent" and i + 1 < len(rest):
            return "codex" if rest[i + 1] == "codex" else "claude"
        if arg == "--agent=codex":
            return "codex"
    return "claude"


def plugin_form(command: str) -> bool:
    """Whether our ``command`` runs the hook as the plugin's hooks.json does (``lh-hook Stop --plugin``): a
    run that leaves when a settings file registers ours, so none that does the work."""
    args = _hook_arguments(command)
    return args is not None and PLUGIN_FLAG in args[1:]


def _hook_arguments(command: str) -> list[str | None] | None:
    """The words our ``command`` gives the hook, its event first: those after our launcher or the
    module, else all of the program's; None when the command is not one program's words."""
    _, start, end = program_at(command)
    args = _arguments(command, end) if start >= 0 else None
    return None if args is None else args[_past_ours(args) or 0:]
