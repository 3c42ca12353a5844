"""Model-written text made safe to store: one-line fields, Markdown bodies, de-dup keys.

The model's answer is hostile input. A field that must stay on one line (a summary, a title, a
handoff item, a header value) loses every control, line or paragraph separator, so it cannot start
a new YAML key or Markdown line; lone surrogates (``"\\ud800"`` in JSON) become ``?`` so the UTF-8
write cannot fail halfway through a batch. Nothing imported at load time (``unicodedata`` only
when a string needs it), so hooks may use it.
"""

_ASCII_TRIM = "".join(chr(c) for c in range(128) if not chr(c).isalnum())
ASCII_TRIM_BYTES = _ASCII_TRIM.encode("ascii")


def no_surrogates(s: str) -> str:
    try:
        s.encode("utf-8")
        return s
    except UnicodeEncodeError:
        return s.encode("utf-8", "replace").decode("utf-8")


def one_line(value: object) -> str:
    """``value`` as one printable line: controls, separators and odd spaces -> a space, runs collapsed."""
    s = no_surrogates("" if value is None else str(value))
    if not s.isprintable():
        import unicodedata
        s = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in s)
    return " ".join(s.split())


def text_block(value: object) -> str:
    """Multi-line text for a Markdown body: ``\\r\\n`` -> ``\\n``, other controls -> spaces, ends stripped."""
    s = no_surrogates("" if value is None else str(value)).replace("\r\n", "\n").replace("\r", "\n")
    if not s.replace("\n", "").replace("\t", "").isprintable():
        import unicodedata
        s = "".join(c if c in "\n\t " or unicodedata.category(c)[0] not in "CZ" else " " for c in s)
    return s.strip()


def normalise(text: object) -> str:
    """De-dup key of a summary or title: casefolded, whitespace collapsed, punctuation and symbols
    trimmed at both ends (``"Use X!"`` and ``"  use x"`` are the same entry)."""
    s = " ".join(str(text).casefold().split()).strip(_ASCII_TRIM)
    if s.isascii() or (s[0].isascii() and s[-1].isascii()):
        return s  # why: the common case; the store normalises every summary in the file at each persist
    import unicodedata
    i, j = 0, len(s)
    while i < j and (s[i] in _ASCII_TRIM or unicodedata.category(s[i])[0] in "PSZC"):
        i += 1
    while j > i and (s[j - 1] in _ASCII_TRIM or unicodedata.category(s[j - 1])[0] in "PSZC"):
        j -= 1
    return s[i:j]
