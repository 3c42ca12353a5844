"""Secrets the way an assistant writes them in Markdown: a bold label (``- **Password:** `x` ``,
``**API key**: `x` ``), a table row whose cell names a secret and whose next cell holds it
(``| DB_PASSWORD | x |``), and a sentence that gives a backticked name a backticked value ("your
`DB_PASS` is set to `x`"). Run by ``lazy_harness.redact`` after the stated passwords (``redact.prose``).

The name must hold pass, pw, pwd, secret, token, key or cred (judged by ``names.judge_name``: a
plural, ``KEY_SIZE`` or ``TOKEN_TTL`` is not a secret's name) and the value must look like a secret
(``names.secretish``): a header cell ("| Password | Where it is kept |"), prose after a label
("**Password:** use the one in 1Password"), a code identifier, a reference or a placeholder stays.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lazy_harness.redact import names
from lazy_harness.redact.values import MARK

_WORD = r"(?i:pass|pw|secret|token|key|cred)"
# a name that holds a keyword (checked ahead: other labels, cells and code never reach Python)
_NAME = r"(?=[^|*`\n]{0,60}?" + _WORD + r")(?P<name>[A-Za-z][A-Za-z0-9 _.-]{0,60}?)"
_TICKED = r"`(?P<ticked>[^`\n]{1,300})`"
_PATTERNS = (
    # **Password:** value / **API key**: `value`; a bare value is the rest of the line
    r"\*\*" + _NAME + r"[ \t]*(?::\*\*|\*\*[ \t]*:)[ \t]*(?:" + _TICKED
    + r"|(?P<bare>[^\s`*|]{1,300})(?=[ \t]*(?:\r?\n|$)))",
    # | name | value | (the name and the value may be backticked)
    r"\|[ \t]*`?" + _NAME + r"`?[ \t]*\|[ \t]*(?:" + _TICKED + r"|(?P<bare>[^\s`|]{1,300}))[ \t]*(?=\|)",
    # `NAME` is (currently) set to `value`, `NAME` was `value`
    # why: an identifier, possessive, then the keyword checked in Python: a look-ahead for the
    # keyword at every backtick of a transcript was most of this rule's time
    r"`(?P<name>[A-Za-z_][A-Za-z0-9_.-]{0,80}+)`[ \t]+(?:is|was|has[ \t]+been)"
    r"(?:[ \t]+(?:currently|now|still|already))?"
    r"(?:[ \t]+(?:set|changed|updated)[ \t]+to)?[ \t]+" + _TICKED,
)


@lru_cache(maxsize=1)
def patterns() -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in _PATTERNS)


def _strength(name: str) -> str | None:
    strength = names.judge_name(name.strip(), bare_ok=True)
    if strength is None and "pw" in names.parts(name):
        return "strong"
    return strength


def replace(m: re.Match[str]) -> str:
    """The value replaced by the marker when the name is a secret's and the value looks like one."""
    strength = _strength(m.group("name"))
    group = "ticked" if m.group("ticked") is not None else "bare"
    value = m.group(group)
    if strength is None:
        return m.group(0)
    keyword = next((p for p in reversed(names.parts(m.group("name"))) if names.is_keyword(p)), "password")
    if not names.secretish(value, strength, keyword):
        return m.group(0)
    whole, start = m.group(0), m.start()
    return whole[:m.start(group) - start] + MARK.format("markdown-secret") + whole[m.end(group) - start:]
