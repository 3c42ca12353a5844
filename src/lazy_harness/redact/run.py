"""Running the rules of ``lazy_harness.redact`` over a text, or over every string of a nested
structure, counting the replacements: secrets in base64 (``redact.encoded``: a Kubernetes Secret's
data, a literal fed to ``base64 -d``), the built-in kinds (``redact.kinds``), the mailchimp-key pass,
the ``name=value`` rules (``redact.assignments``), bare AWS secret keys, secrets stated in sentences,
secrets written in Markdown (``redact.markdown``) and base64 ``user:password`` (``redact.prose``), then the
configured patterns.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from lazy_harness.redact import encoded, markdown, names, prose
from lazy_harness.redact.assignments import _named
from lazy_harness.redact.kinds import _builtin
from lazy_harness.redact.matches import _mailchimp
from lazy_harness.redact.values import MARK, _aws_secrets, _replace_assignment, _replace_keyish


# why: one twin per case-insensitive rule that goes through _sub_folded (7 today): room for more
@lru_cache(maxsize=32)
def _twin(pattern: re.Pattern[str]) -> re.Pattern[str]:
    return re.compile(pattern.pattern, pattern.flags & ~re.IGNORECASE)


def _sub_folded(pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str], text: str) -> str:
    """``pattern.sub(replace, text)`` for a case-insensitive ``pattern`` written in lower case.

    # why: the case-sensitive twin of the pattern scanned over the lower-cased text finds the same
    # places several times faster than re.IGNORECASE (134 ms against 22 ms on a megabyte for the
    # assignments); each place is then matched again on the real text, for the real groups.
    """
    low = text.lower()
    if len(low) != len(text):  # a few characters grow when lower-cased: positions would not line up
        return pattern.sub(replace, text)
    out: list[str] = []
    last = 0
    for found in _twin(pattern).finditer(low):
        m = pattern.match(text, found.start())
        if m is None or m.start() < last:
            continue
        out += (text[last:m.start()], replace(m))
        last = m.end()
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


# why a plain int: ``flags & re.IGNORECASE`` goes through the enum's ``__and__``, some 2 us, and a text
# runs this test about 120 times (a third of redacting an ordinary note)
_FOLDED = int(re.IGNORECASE)


@lru_cache(maxsize=1)
def _builtin_rules() -> list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]]:
    """Each built-in kind's pattern and what replaces its match: the kind's marker, or its function
    given the marker. why made once: anew at every call they were a fifth of redacting a note."""
    rules: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = []
    for kind, pattern, replace in _builtin():
        mark = MARK.format(kind)
        rules.append((pattern, mark if replace is None else _given(replace, mark)))
    return rules


def _given(replace: Callable[[re.Match[str], str], str], mark: str) -> Callable[[re.Match[str]], str]:
    return lambda m: replace(m, mark)


@lru_cache(maxsize=32)
def _custom(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in patterns if p)


def redact(text: str, extra_patterns: Iterable[str] = ()) -> tuple[str, int]:
    """``text`` with credentials replaced by markers, and how many were replaced."""
    if not text:
        return text, 0
    counted = [0]

    def sub(pattern: re.Pattern[str], replace: str | Callable[[re.Match[str]], str], text: str) -> str:
        def counting(m: re.Match[str]) -> str:
            new = replace(m) if callable(replace) else replace
            if new != m.group(0):  # why: the named rules may decide to keep a match
                counted[0] += 1
            return new
        if pattern.flags & _FOLDED:
            return _sub_folded(pattern, counting, text)
        return pattern.sub(counting, text)

    # why: first, so that a Secret's value goes whole under one marker; a decoded value is judged by
    # this function itself (encoded never imports run)
    text, n = encoded.secrets(text, redact)
    counted[0] += n
    for pattern, rule in _builtin_rules():
        text = sub(pattern, rule, text)
    text = _mailchimp(text, counted)
    assignment, keyish, named, *spaced = _named()
    text = sub(assignment, _replace_assignment, text)
    text = sub(keyish, _replace_keyish, text)
    text = sub(named, names.replace_named, text)
    for pattern in spaced:
        text = sub(pattern, names.replace_spaced, text)
    text, n = _aws_secrets(text)  # why: before the stated key ("the aws secret is ..."): the kind says more
    counted[0] += n
    password, *keys = prose.stated()
    text = sub(password, prose.replace_stated, text)
    for key in keys:
        text = sub(key, prose.replace_key_stated, text)
    for pattern in markdown.patterns():
        text = sub(pattern, markdown.replace, text)
    text, n = prose.base64_credentials(text)
    counted[0] += n
    for pattern in _custom(tuple(extra_patterns)):
        text = sub(pattern, MARK.format("custom"), text)
    return text, counted[0]


def redact_obj(obj: Any, extra_patterns: Iterable[str] = (), keys: bool = False) -> tuple[Any, int]:
    """A copy of a nested dict/list structure with every string redacted, and the count.

    Dict keys are kept as they are unless ``keys`` (for an untrusted object whose unknown keys get
    quoted in log lines); non-string leaves pass through unchanged.
    """
    extra = tuple(extra_patterns)
    if isinstance(obj, str):
        return redact(obj, extra)
    if isinstance(obj, dict):
        out: dict = {}
        count = 0
        for key, value in obj.items():
            if keys and isinstance(key, str):
                key, n = redact(key, extra)
                count += n
            out[key], n = redact_obj(value, extra, keys)
            count += n
        return out, count
    if isinstance(obj, (list, tuple)):
        items = []
        count = 0
        for value in obj:
            new, n = redact_obj(value, extra, keys)
            items.append(new)
            count += n
        return (type(obj)(items) if isinstance(obj, tuple) else items), count
    return obj, 0
