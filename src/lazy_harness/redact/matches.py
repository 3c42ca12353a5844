"""What the rules of ``lazy_harness.redact`` do with a match: each callable gets the match and the
marker and returns the new text (the match itself to keep it); and the Mailchimp key pass, which
widens its replacement over the 32 hex digits before the "-us" it finds.
"""

from __future__ import annotations

import re

from lazy_harness.redact.values import _MARK_PREFIX, _PLACEHOLDER, MARK, entropy


def _keep_first(m: re.Match[str], mark: str) -> str:
    return m.group(1) + mark


def _unless_reference(m: re.Match[str], mark: str) -> str:
    """The match with its ``value`` group replaced by the marker, unless the value is a variable
    (``$PASS``, ``${password}``, ``{password}``) or a placeholder (``<password>``, ``***``)."""
    value = m.group("value")
    if _PLACEHOLDER.fullmatch(value) or value.startswith(_MARK_PREFIX):
        return m.group(0)
    if m.group("keep") == "://:" and ":" in value:
        return m.group(0)  # cvs://:pserver:user@host: a method and a user, no password
    whole, start = m.group(0), m.start()
    return whole[:m.start("value") - start] + mark + whole[m.end("value") - start:]


# mysql, mysqldump, mariadb-dump... as a command (at the start, after a space, a quote or "bin/"; not
# "-I/usr/include/mysql -pthread"), then no ";", "|", "&" or line end before the -p
_MYSQL = re.compile(r"(?:(?<![^\s`'\"(])|(?<=bin/))(?:mysql[a-z]*|mariadb(?:-[a-z]+)?)(?![A-Za-z0-9_])[^\n;|&]*\Z")


def _mysql(m: re.Match[str], mark: str) -> str:
    """A password glued to -p on a mysql or mariadb command line (at most 300 characters before it)."""
    line = m.string[max(0, m.start() - 300):m.start()]
    if ("mysql" not in line and "mariadb" not in line) or not _MYSQL.search(line):
        return m.group(0)
    return _unless_reference(m, mark)


def _mixed_case(m: re.Match[str], mark: str) -> str:
    """A random body after the prefix holds a digit, a capital and a small letter."""
    body = m.group(0)[4:]
    random = any(c.isdigit() for c in body) and body.lower() != body and body.upper() != body
    return mark if random else m.group(0)


_CAMEL_WORDS = re.compile(r"(?:[A-Z][a-z]+)+")


def _base64_credentials(m: re.Match[str], mark: str) -> str:
    """base64 of "user:password" holds a digit or several capitals; "BasicAuthentication" does not."""
    value = m.group(0)[len(m.group(1)):]
    if _CAMEL_WORDS.fullmatch(value):
        return m.group(0)  # a class name: self.auth = MultiDomainBasicAuth(...)
    random = any(c.isdigit() for c in value) or sum(c.isupper() for c in value) >= 3
    return m.group(1) + mark if random and entropy(value.rstrip("=")) >= 3.0 else m.group(0)


_SEGMENTS = re.compile(r"[/?&#=.]+|%2[Ff]")


def _random_value(m: re.Match[str], mark: str) -> str:
    """Group 1 kept, group 2 replaced when one of its segments (cut at ``/ ? & # = .``) is random: 16
    or more characters with a digit and a letter, or high entropy. A hook id of digits, a page's
    name (``/webhooks/stripe-events``) or a version (``sig=v1``) stays, and so does a marker (a hook's
    URL redacted before: the value stops at its ``]``, so it was taken for a random segment)."""
    value = m.group(2)
    if value.startswith(_MARK_PREFIX):
        return m.group(0)
    for piece in _SEGMENTS.split(value):
        letters = sum(c.isalpha() for c in piece)
        digits = sum(c.isdigit() for c in piece)
        if len(piece) >= 16 and ((letters and digits and entropy(piece) >= 3.3) or entropy(piece) >= 4.0):
            whole, start = m.group(0), m.start()
            return whole[:m.start(2) - start] + mark + whole[m.end(2) - start:]
    return m.group(0)


_SAS_CONTEXT = ("sv=", "windows.net", "sharedaccesssignature", "azure", "sas")


def _sas(m: re.Match[str], mark: str) -> str:
    """A ``sig=`` that is an Azure SAS signature: a random value in a URL that says SAS (``sv=``, a
    windows.net host, on the same line) or, anywhere, base64 with capitals and small letters. Another
    service's hex digest after ``sig=`` (an image CDN's) is not a credential of its own."""
    line = m.string[max(0, m.start() - 2000):m.start()].rsplit("\n", 1)[-1].lower()
    value = m.group(2)
    base64ish = value.lower() != value and value.upper() != value
    return _random_value(m, mark) if base64ish or any(word in line for word in _SAS_CONTEXT) else m.group(0)


def _sixteen(m: re.Match[str], mark: str) -> str:
    """An AWS access key id a terminal wrapped: the characters after the prefix, both lines, make 16."""
    body = m.group(0)[4:]
    return mark if len("".join(body.split())) == 16 else m.group(0)


def _scrambled(m: re.Match[str], mark: str) -> str:
    """A random body has about as many capitals as small letters; a CamelCase name after the
    prefix (``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``) has few."""
    body = m.group(0).split("_", 1)[1]
    upper = sum(ch.isupper() for ch in body)
    return mark if len(body) <= upper * 5 < len(body) * 5 else m.group(0)


def _random_parts(m: re.Match[str], mark: str) -> str:
    """A token of dotted parts holds a digit and its last part both capitals and small letters; a
    chain of names (``MTextViewCompat.method.getInstanceForCurrentThread``) has no digit."""
    token = m.group(0)
    last = token.rsplit(".", 1)[1]
    random = any(c.isdigit() for c in token) and last.lower() != last and last.upper() != last
    return mark if random else token


# why: the literal "-us" first (the engine skips to it), then the 32 hex digits before it by a
# look-behind: a pattern that starts with a hex digit is tried at every one of them
_MAILCHIMP = re.compile(r"-us(?<=(?<![A-Za-z0-9_])[0-9a-f]{32}-us)\d{1,2}(?![A-Za-z0-9_])")


def _mailchimp(text: str, counted: list[int]) -> str:
    """Mailchimp API keys (32 hex digits, "-us" and the data centre's number) replaced, counted."""
    out: list[str] = []
    last = 0
    for m in _MAILCHIMP.finditer(text):
        out += (text[last:m.start() - 32], MARK.format("mailchimp-key"))
        last = m.end()
    if not out:
        return text
    counted[0] += len(out) // 2
    out.append(text[last:])
    return "".join(out)
