"""Secrets that no ``name=value`` gives away: a password stated in a sentence ("the staging admin
password is Hunter2!", "the PIN is 4821", "user: bob pass: S3cret"), and the base64 of
``user:password`` standing alone (docker's auth in an error line, a Basic credential without its
header). Run by ``lazy_harness.redact`` after the ``name=value`` rules (which take ``password: x``
first); nothing here imports it back.

A stated password is a word of the family (password, passwd, passphrase, passcode, pwd, pw, PIN,
and "pass" after a user name on the line), optionally "for <up to 5 words>", then a link: ``is``,
``was``, ``is now``, ``is set to``, ``was changed to``, ``to``, ``=``, ``:`` or nothing but a space;
then the value, quoted or one word. Its value must look like one: quoted (a literal), or holding a
digit, a symbol or capitals inside it; a plain word is prose ("the password is wrong", "password
reset"), a placeholder stays, a number counts after an explicit link only (4 digits or more; 4 to 8
for a PIN, which must be written PIN or "pin code").
"""

from __future__ import annotations

import base64
import binascii
import re
from functools import lru_cache

from lazy_harness.redact.values import _MARK_PREFIX, _NOT_SECRETS, _PLACEHOLDER, MARK, _reference, entropy

# the words after their common "p" (see _STATED)
_WORDS = r"(?:assword|asswd|assphrase|ass phrase|asscode|wd|w|in(?: code| number)?|ass)"
# why: the longer links first: the first that matches is kept ("is now X" is not "is" and "now")
_VERBAL = (r"(?:[ \t]+(?:(?:is|was|has[ \t]+been)[ \t]+(?:set|changed|reset|updated)[ \t]+to|is[ \t]+now|"
           r"is[ \t]+still|will[ \t]+be|is|was|to|became)|['\u2019]s|,[ \t]*which[ \t]+(?:is|was))"
           r"(?:[ \t]*[:=-])?[ \t]+")
_LINK = r"(?P<link>" + _VERBAL + r"|[ \t]*[:=][ \t]*)"
_FOR = (r"(?P<for>[ \t]+(?:for|of|on|to|at|in)(?:[ \t]+[^\s.;:,!?=\"'`%{}()]{1,40}){1,5}?"
        r"|[ \t]+(?:i|we|you|they|he|she)[ \t]+(?:used|set|chose|picked|gave|typed|entered|use))?")
_VALUE = r"(?P<value>\"[^\"\n]{1,200}\"|'[^'\n]{1,200}'|`[^`\n]{1,200}`|[^\s\"'`]{1,200})"
# why: written in lower case and compiled with re.IGNORECASE: redact.run scans the lower-cased text
# with a case-sensitive twin. The literal "p" first lets the engine skip to it (7 times faster than
# a look-behind first)
_STATED = (
    r"(?P<word>p(?<![a-z0-9_$.-]p)" + _WORDS + r")(?![a-z0-9_-])"
    r"(?:" + _FOR + _LINK + r"|(?P<bare>[ \t]+))" + _VALUE)
# A key, a token or a secret stated in a sentence ("the api key is 9f8e...", "the token was X"): a
# verbal link only ("token: x" is the assignment rule's), and a random value (``_random``)
# (one pattern per word: a literal first lets the engine skip to it, 4 times faster than the three)
_KEY_STATED = tuple(r"(?P<word>" + word + r")(?![a-z0-9_-])" + _FOR + r"(?P<link>" + _VERBAL + ")" + _VALUE
                    for word in ("secret", "token", "key"))
_TRAILING = ".,;:)]}"
_UNITS = re.compile(r"[ \t]*(?:characters|chars|digits|letters|bytes|bits|long|days|times|hours|minutes|"
                    r"seconds|attempts|tries|words|%)\b", re.I)
_USER_BEFORE = re.compile(r"(?:user(?:name)?|login|account|email)[ \t]*[:=]?[ \t]*\S+[ \t,;/|]+$", re.I)
_INSIDE_CAPITAL = re.compile(r"[A-Za-z0-9][A-Z]")
_NUMBERISH = re.compile(r"v?\d+(?:\.\d+)+[a-z]?|\d+(?:st|nd|rd|th)", re.I)
_LOCATION = re.compile(r"[/~]|\.{1,2}/|[A-Za-z][A-Za-z0-9+.-]*://|[A-Za-z]:\\")


def _word_ok(m: re.Match[str]) -> bool:
    word = m.group("word")
    low = word.lower()
    sign = m.group("link") is not None and m.group("link").strip() in (":", "=")
    if sign and m.group("for") is None and low in ("password", "passwd", "passphrase", "pwd"):
        return False  # why: "password: x" and "password=x" are the assignment rule's, with its judgment
    if low.startswith("pin"):
        return word.startswith("PIN") or " " in low  # "pin 13", "pin is 3" on a board are pins
    if low == "pass":
        if not sign:
            return False  # "a first pass is", "pass to" are not passwords
        line = m.string[max(0, m.start() - 80):m.start()].rsplit("\n", 1)[-1]
        return bool(_USER_BEFORE.search(line))  # "user: bob pass: x"; test runners print "PASS: name"
    return True


def _value_ok(m: re.Match[str], value: str, quoted: bool) -> bool:
    """True when ``value`` after the word and its link looks like a password."""
    low = value.lower()
    bare_link = m.group("bare") is not None
    if (not value or value.startswith(_MARK_PREFIX) or low in _NOT_SECRETS or _PLACEHOLDER.fullmatch(value)
            or low.rstrip("s") in ("password", "passwd", "passphrase", "passcode", "pin", "pwd", "pw", "secret")):
        return False
    if m.group("word").lower().startswith("pin"):
        return value.isdigit() and 4 <= len(value) <= 8 and not bare_link
    code = "(" in value or "{" in value or "[" in value or _reference(value, "password")
    if quoted:  # a literal; one that starts or ends in a space is code around a string ('" % ('), or a call
        return value == value.strip() and not code and (not bare_link or len(value) >= 6)
    if value.isdigit():
        return len(value) >= 4 and not bare_link and not _UNITS.match(m.string, m.end())
    if _NUMBERISH.fullmatch(value) or _LOCATION.match(value) or code:
        return False  # a version, a path or URL, code
    digit = any(c.isdigit() for c in value)
    letter = any(c.isalpha() for c in value)
    symbol = any(not c.isalnum() and c not in "-_." for c in value)
    if bare_link:  # "password Hunter2!" with no link: only what cannot be a word of a sentence
        return len(value) >= 6 and letter and digit
    return digit or symbol or bool(_INSIDE_CAPITAL.search(value))


def replace_stated(m: re.Match[str]) -> str:
    """A stated password's value replaced by the marker, the sentence around it kept."""
    if not _word_ok(m):
        return m.group(0)
    raw = m.group("value")
    quoted = raw[0] in "\"'`" and raw[-1] == raw[0] and len(raw) > 1
    value = raw[1:-1] if quoted else raw.rstrip(_TRAILING)
    if not _value_ok(m, value, quoted):
        return m.group(0)
    start = m.start("value") - m.start() + (1 if quoted else 0)
    whole = m.group(0)
    return whole[:start] + MARK.format("password") + whole[start + len(value):]


# base64 of "user:password": a run of 8 to 4,000 base64 characters, alone
_B64 = re.compile(r"(?<![A-Za-z0-9+/=_.-])[A-Za-z0-9+/]{8,4000}={0,2}(?![A-Za-z0-9+/=_-])")
_USER = re.compile(r"[A-Za-z0-9._@+\\-]{1,128}")
_EXAMPLE_USERS = frozenset(("user", "username", "name", "login", "admin", "me", "foo"))
_EXAMPLE_PASSWORDS = frozenset(("password", "pass", "passwd", "secret", "pwd", "bar"))


def _credentials(run: str) -> bool:
    """True when ``run`` decodes to printable ``user:password`` (docker's auth, a Basic credential)."""
    if len(run) % 4 == 1 or (len(run) % 4 and "=" in run) or run.lower() == run or run.upper() == run:
        return False  # why: base64 of text always holds capitals and small letters; padded or not at all
    try:
        raw = base64.b64decode(run + "=" * (-len(run) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    if not raw or b":" not in raw or any(b < 0x20 or b > 0x7e for b in raw):
        return False
    user, _, password = raw.decode("ascii").partition(":")
    if _PLACEHOLDER.fullmatch(password) or (user.lower() in _EXAMPLE_USERS and password.lower() in _EXAMPLE_PASSWORDS):
        return False  # a documentation example: base64 of "username:password", "user:<password>"
    return (bool(_USER.fullmatch(user)) and not user.isdigit() and len(password) >= 3
            and not password.startswith(("//", " ")) and not password.isdigit())


def base64_credentials(text: str) -> tuple[str, int]:
    """``text`` with every base64 ``user:password`` replaced, and how many."""
    out: list[str] = []
    last = 0
    for m in _B64.finditer(text):
        if _credentials(m.group()):
            out += (text[last:m.start()], MARK.format("basic-credentials"))
            last = m.end()
    if not out:
        return text, 0
    out.append(text[last:])
    return "".join(out), len(out) // 2


def replace_key_stated(m: re.Match[str]) -> str:
    """A stated key's, token's or secret's value replaced when it is random: 16 characters or more,
    letters and digits, at least 3.3 bits per character (a word, a name or a version stays)."""
    if m.start() and (m.string[m.start() - 1].isalnum() or m.string[m.start() - 1] in "_$."):
        return m.group(0)  # why: "monkey", "$token", "self.key": not the word
    raw = m.group("value")
    quoted = raw[0] in "\"'`" and raw[-1] == raw[0] and len(raw) > 1
    value = raw[1:-1] if quoted else raw.rstrip(_TRAILING)
    letters = sum(c.isalpha() for c in value)
    digits = sum(c.isdigit() for c in value)
    if (len(value) < 16 or not letters or not digits or " " in value or value.startswith(_MARK_PREFIX)
            or _LOCATION.match(value) or _PLACEHOLDER.fullmatch(value) or entropy(value) < 3.3):
        return m.group(0)
    start = m.start("value") - m.start() + (1 if quoted else 0)
    whole = m.group(0)
    return whole[:start] + MARK.format("high-entropy") + whole[start + len(value):]


@lru_cache(maxsize=1)
def stated() -> tuple[re.Pattern[str], ...]:
    """The stated-password pattern, then the stated-key ones, compiled on first use."""
    return (re.compile(_STATED, re.I), *(re.compile(p, re.I) for p in _KEY_STATED))
