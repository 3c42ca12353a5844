"""Rules of ``lazy_harness.redact`` for HTTP headers: an Authorization header of any scheme (Okta's
``SSWS``, ``Splunk``, Elastic's ``ApiKey``, FCM's ``key=``), and session cookies in a ``Cookie:`` or
``Set-Cookie:`` header or after ``curl -b``. The table of kinds (``redact.kinds``) places them.
"""

from __future__ import annotations

import re
from typing import Any

from lazy_harness.redact.regex_parts import _QUOTE, _cased, _lead
from lazy_harness.redact.values import _MARK_PREFIX, _PLACEHOLDER, entropy

# a cookie's pairs: to the end of the line, a quote or an escape (the header inside a JSON string)
_PAIRS = r"(?P<pairs>[^\n\r\"'\\]{1,4000})"
_PAIR = re.compile(r"(?P<name>[^\s=;,]{1,100})=(?P<value>[^\s;,\"']{1,4000})")
# names of session and login cookies: sessionid, _myapp_session, connect.sid, auth_token, remember_token
_SESSION_NAME = re.compile(r"sess|sid|auth|token|remember|jwt|csrf", re.I)


def _headers() -> list[tuple[str, re.Pattern[str], Any]]:
    """An Authorization header of another scheme than Bearer, Basic or token; session cookies."""
    return [
        # why: any scheme word then a credential; "Authorization: required for ..." is prose: the
        # credential must hold a digit and a letter (_random_credential)
        *[("bearer", re.compile(r"(" + word + r"(?:" + _QUOTE + r")?[ \t]*[:=][ \t]*(?:" + _QUOTE
                                + r")?(?:[A-Za-z][A-Za-z0-9_-]{1,30}[ \t]+|(?i:key)=))([A-Za-z0-9._~+/:-]{16,4000}=*)"),
           _random_credential) for word in _cased("authorization")],
        *[("session-cookie", re.compile(r"(" + word + r"(?:" + _QUOTE + r")?[ \t]*:[ \t]*(?:" + _QUOTE + r")?)"
                                        + _PAIRS), _cookies) for word in _cased("cookie")],
        ("session-cookie", re.compile(r"(" + _lead("curl", r"\b[^\n|&]{0,500}?[ \t](?:-b|--cookie)(?:[ \t]+|=)(?:"
                                                   + _QUOTE + r")?)") + _PAIRS), _cookies),
    ]


def _random_credential(m: re.Match[str], mark: str) -> str:
    value = m.group(2)
    if (value.startswith(_MARK_PREFIX) or not any(c.isdigit() for c in value)
            or not any(c.isalpha() for c in value)):
        return m.group(0)
    return m.group(1) + mark


def _cookie_secret(name: str, value: str) -> bool:
    """A session cookie's value (8 characters or more, not a word), or any value of 16 or more random
    characters."""
    if value.startswith(_MARK_PREFIX) or _PLACEHOLDER.fullmatch(value):
        return False
    letters = sum(c.isalpha() for c in value)
    digits = sum(c.isdigit() for c in value)
    if _SESSION_NAME.search(name) and len(value) >= 8 and (digits or value.lower() != value):
        return True
    return len(value) >= 16 and letters >= 4 and digits >= 2 and entropy(value) >= 3.5


def _cookies(m: re.Match[str], mark: str) -> str:
    """The header kept, every secret cookie's value in it replaced by the marker."""
    pairs, last = m.group("pairs"), 0
    out: list[str] = []
    for p in _PAIR.finditer(pairs):
        if _cookie_secret(p.group("name"), p.group("value")):
            out += (pairs[last:p.start("value")], mark)
            last = p.end("value")
    if not out:
        return m.group(0)
    return m.group(1) + "".join(out) + pairs[last:]
