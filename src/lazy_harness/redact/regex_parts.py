"""Pieces of regular expressions the redaction rules share: a literal not glued to the word before
it, a token's end, a quote (escaped or not), and the optional next line a wrapped secret runs onto.
Used by ``redact.kinds`` and ``redact.assignments``.
"""


def _lead(literal: str, rest: str = "", width: int = 0) -> str:
    """``literal`` (``width`` characters, the length of a plain string by default) not glued to a
    word before it, then ``rest``.

    # why: the check comes after the literal, not before it: a pattern that starts with a plain
    # string lets the regex engine skip to its occurrences, tens of times faster on a megabyte.
    """
    return literal + r"(?<![A-Za-z0-9_]" + "." * (width or len(literal)) + ")" + rest


def _cased(word: str) -> tuple[str, str]:
    """``word`` (lower case, not glued to a word before it) as written in lower case or capitalized, and
    in capitals: two patterns, each starting with a plain string after the first letter.

    # why: re.IGNORECASE would need the lower-cased copy of the text (redact.run's _sub_folded), a
    # megabyte copied for each rule; the literal lets the engine skip to it
    """
    rest, first, glued = word[1:], word[0], r"(?<![A-Za-z0-9_]" + "." * len(word) + ")"
    return (rest + f"(?<=[{first}{first.upper()}]{rest})" + glued,
            rest.upper() + f"(?<={first.upper()}{rest.upper()})" + glued)


def _wrapped(chars: str, group: str = "", open_end: bool = False) -> str:
    """An optional next line that carries on a match ending at the end of its line: after an indent,
    8 to 1,000 of ``chars`` and nothing else (an "=" only as padding at its end, not a "/" first),
    with a letter and a digit, or 16 or more with capitals and small letters. A word, a command, a
    date, a path, ``NAME=value`` or a rule of dashes on the next line stays.

    # why: terminals and config files wrap long secrets; the tail left alone would reach the model.
    # A tail under 8 characters of a long secret is harmless and "python3" or "x86_64" is not one.
    # The case test is case-sensitive even in a re.IGNORECASE pattern.
    # ``open_end``: the run on the next line may be followed by more text on that line (a token a
    # prefix names, split by a terminal inside a sentence: ``sk_live_...`` then ``...rest is set``);
    # a value of an assignment keeps the stricter end, its next line is often the next statement.
    """
    c = "[" + chars.replace("=", "") + "]"
    # a token's next line may sit behind a quote or a box's border a terminal or a reply drew ("> ", "│ ")
    indent = r"[ \t]*(?:[>\u2502\u2503][ \t]*)?" if open_end else r"[ \t]*"
    line = (r"\r?\n" + indent + r"(?!/)(?-i:(?=" + c + r"{0,999}?\d)(?=" + c + r"{0,999}?[A-Za-z])"
            r"|(?=" + c + r"{0,999}?[A-Z])(?=" + c + r"{0,999}?[a-z])(?=" + c + r"{16}))" + c + r"{8,1000}"
            + ("={0,2}" if "=" in chars else "")
            + (r"(?!" + c + ")" if open_end else r"(?=\\{0,7}[\"'`]|[,;]?[ \t]*(?![^\r\n]))"))
    return "(?" + (f"P<{group}>" if group else ":") + line + ")?"


def _split(chars: str, least: int, most: int, full: str = "") -> str:
    """A token's body of ``least`` to ``most`` of ``chars`` (or ``full``), or, when a terminal wrapped
    it before ``least``, its first part at the end of a line and the rest on the next; either may run
    onto a next line (``_wrapped`` with an open end)."""
    wrap = _wrapped(chars, open_end=True)
    c = "[" + chars + "]"
    body = full or c + f"{{{least},{most}}}"
    return "(?:" + body + wrap + "|" + c + f"{{1,{least - 1}}}" + wrap[:-1] + ")"


_END = r"(?![A-Za-z0-9_])"  # a token's end: no word character follows
_END64 = r"(?![A-Za-z0-9_-])"  # the end of a base64url token

# A quote, or a quote escaped in a JSON string (\", \\\" in JSON inside JSON): both around the name and
# around the value, the value's closing quote escaped like its opening one.
_QUOTE = r"\\{0,7}[\"']"
