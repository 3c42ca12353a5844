"""Replace credential-shaped text by ``[REDACTED:<kind>]`` before it leaves the machine or hits disk.

The worker runs this twice: on the prompt (a session transcript is full of pasted config, env dumps
and tool output) and on the model's answer before anything is written (the model may echo a secret
back). It is a net for common shapes, not a guarantee; extra regular expressions come from config
``compound_loop.redact_patterns`` and are replaced by ``[REDACTED:custom]``.

Kinds, applied in this order (earlier kinds win, a marker is never redacted again):
  private-key      -----BEGIN ... PRIVATE KEY----- through END (or to the end of the base64 body)
  aws-access-key   AKIA/ASIA/ABIA/ACCA + 16 upper-case letters or digits
  github-token     ghp_/gho_/ghu_/ghs_/ghr_ tokens and github_pat_ fine-grained tokens
  anthropic-key    sk-ant-...
  openai-key       sk-..., sk-proj-... (a long body with at least one digit)
  slack-token      xoxb-/xoxp-/xoxa-/xoxr-/xoxs-...
  stripe-key       sk_live_/rk_live_/sk_test_...
  google-api-key   AIza + 35 characters
  jwt              eyJ... . ... . ... (three base64url parts)
  bearer           ``Bearer <token>`` / ``Basic <credentials>`` in an Authorization header
  url-password     the password in ``scheme://user:password@host``
  assignment       ``password=``, ``secret:``, ``token=``, ``api_key:``... (the name is kept; quoted or
                   not; JSON ``"password": "x"`` too). References and code are left alone: ``$VAR``,
                   ``os.environ[...]``, calls, attribute access, ``None``/``null``/type names,
                   placeholders (``***``, ``<your-key>``). After a colon, an unquoted plain
                   lower-case word is prose ("the token: expired"), not a value, except after a password name.
  high-entropy     a value of 20+ characters with Shannon entropy >= 3.5 bits per character, holding a
                   digit or mixed case, assigned to a variable whose name says key, secret or token
                   (``export STRIPE_SECRET_LIVE=...``, ``MY_KEY_ID=...``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from typing import Any, Iterable

MARK = "[REDACTED:{}]"
_MARK_PREFIX = "[REDACTED:"

# Names whose value is a credential whatever it looks like: the keyword is the name's last part,
# so ``max_tokens`` and ``token_count`` stay untouched. Longer words first (alternation order).
_SECRET_WORD = (r"(?:secret[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?token|"
                r"api[_-]?key|apikey|password|passwd|passphrase|secret|token)")
# Code, references and placeholders that are not secrets even under such a name.
_NOT_SECRETS = frozenset(("none", "null", "nil", "true", "false", "undefined", "str", "string", "int",
                          "bytes", "bool", "dict", "list", "optional", "any", "required", "self", "cls",
                          "the", "and", "for", "was", "is", "are", "not", "you", "this", "that"))
_PLACEHOLDER = re.compile(r"\*+|x{3,}|X{3,}|\.{3}|<[^>]*>?|\$.*|%.*|\{\{.*")
_PLAIN_WORD = re.compile(r"[a-z][a-z_-]*")
_ENTROPY_MIN = 3.5
_ENTROPY_LEN = 20


def _compile() -> list[tuple[str, re.Pattern[str]]]:
    b = r"(?<![A-Za-z0-9_])"  # why: \b treats "-" as a boundary; keys sit inside words like my-sk-...
    e = r"(?![A-Za-z0-9_])"
    return [
        ("private-key", re.compile(
            r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----"
            r"(?:.{0,16384}?-----END[A-Z0-9 ]*PRIVATE KEY-----"
            r"|(?:(?:\s|\\n)*(?:[A-Za-z0-9+/=]{8,}|Proc-Type:[^\n]*|DEK-Info:[^\n]*))*)",
            re.S)),
        ("aws-access-key", re.compile(b + r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}" + e)),
        ("github-token", re.compile(b + r"(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})" + e)),
        ("anthropic-key", re.compile(b + r"sk-ant-[A-Za-z0-9_-]{20,400}")),
        ("openai-key", re.compile(b + r"sk-(?!ant-)(?:proj-|svcacct-|admin-)?"
                                  r"(?=[A-Za-z0-9_-]{0,400}?\d)[A-Za-z0-9_-]{20,400}")),  # a digit: not "sk-learn-..."
        ("slack-token", re.compile(b + r"xox[abposr]-[A-Za-z0-9-]{10,300}")),
        ("stripe-key", re.compile(b + r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,300}")),
        ("google-api-key", re.compile(b + r"AIza[A-Za-z0-9_-]{35}" + e)),
        ("jwt", re.compile(b + r"eyJ[A-Za-z0-9_-]{5,4000}\.[A-Za-z0-9_-]{5,8000}\.[A-Za-z0-9_-]{8,4000}")),
        ("bearer", re.compile(r"(\b(?:Bearer|Basic)\s+)[A-Za-z0-9._~+/-]{16,4000}=*", re.I)),
        ("url-password", re.compile(r"(?<=://)([^\s:/@]+:)[^\s@/]+(?=@)")),
    ]


# why: the match starts at the keyword and the name's prefix is checked in Python: a regex that
# walks the prefix segments first is slow on long dashed words.
_ASSIGNMENT = (
    r"(?P<name>" + _SECRET_WORD + r"[\"']?)(?![A-Za-z0-9_])"
    r"(?P<sep>\s*(?::=|=|:)\s*)"
    r"(?:(?P<qv>[\"'])(?P<quoted>[^\"'\n]{1,500})(?P=qv)"
    r"|(?P<bare>[^\s\"',;&}()\[\]]{3,500})(?P<after>[(\[.]?))")
# why: any identifier, then the name is checked in Python; a regex that searches for "key" inside
# the name backtracks quadratically on a megabyte-long word.
_KEYISH = (
    r"(?<![A-Za-z0-9_])(?P<name>[A-Za-z0-9_]{1,100})"
    r"(?P<sep>[\"']?\s*(?::=|=|:)\s*[\"']?)(?P<value>[A-Za-z0-9+/=_.~-]{%d,})" % _ENTROPY_LEN)
_KEYISH_NAME = re.compile(r"key|secret|token", re.I)


@lru_cache(maxsize=1)
def _builtin() -> list[tuple[str, re.Pattern[str]]]:
    """Compiled once, on first use: the worker needs them, the hooks never import this module."""
    return _compile()


@lru_cache(maxsize=1)
def _named() -> tuple[re.Pattern[str], re.Pattern[str]]:
    return re.compile(_ASSIGNMENT, re.I), re.compile(_KEYISH)


@lru_cache(maxsize=32)
def _custom(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in patterns if p)


def entropy(value: str) -> float:
    """Shannon entropy of ``value`` in bits per character."""
    if not value:
        return 0.0
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def _looks_random(value: str) -> bool:
    if len(value) < _ENTROPY_LEN or entropy(value) < _ENTROPY_MIN:
        return False
    return any(ch.isdigit() for ch in value) or (value.lower() != value and value.upper() != value)


def redact(text: str, extra_patterns: Iterable[str] = ()) -> tuple[str, int]:
    """``text`` with credentials replaced by markers, and how many were replaced."""
    if not text:
        return text, 0
    counted = [0]

    def sub(pattern: re.Pattern[str], replace, text: str) -> str:
        def counting(m: re.Match[str]) -> str:
            new = replace(m) if callable(replace) else replace
            if new != m.group(0):  # why: the named rules may decide to keep a match
                counted[0] += 1
            return new
        return pattern.sub(counting, text)

    for kind, pattern in _builtin():
        mark = MARK.format(kind)
        if pattern.groups:  # the first group is kept (a header word, a user name)
            text = sub(pattern, lambda m, mark=mark: m.group(1) + mark, text)
        else:
            text = sub(pattern, mark, text)
    assignment, keyish = _named()
    text = sub(assignment, _replace_assignment, text)
    text = sub(keyish, _replace_keyish, text)
    for pattern in _custom(tuple(extra_patterns)):
        text = sub(pattern, MARK.format("custom"), text)
    return text, counted[0]


_PASSWORD_NAME = re.compile(r"pass(?:word|wd|phrase)?|pwd", re.IGNORECASE)


def _replace_assignment(m: re.Match[str]) -> str:
    value = m.group("quoted") if m.group("quoted") is not None else m.group("bare")
    start = m.start()
    if start and m.string[start - 1].isalnum():
        return m.group(0)  # "mytoken=": the keyword is not a part of its own
    if value.startswith(_MARK_PREFIX) or value.lower() in _NOT_SECRETS or _PLACEHOLDER.fullmatch(value):
        return m.group(0)
    if m.group("bare") is not None:
        if m.group("after") or ("." in value and re.fullmatch(r"[A-Za-z_][\w.]*", value)):
            return m.group(0)  # a call, an index or an attribute: code, not a literal
        if ":" in m.group("sep") and _PLAIN_WORD.fullmatch(value) and not _PASSWORD_NAME.search(m.group("name")):
            return m.group(0)  # "the token: expired" is prose; a password may well be a plain word
        return m.group("name") + m.group("sep") + MARK.format("assignment")
    q = m.group("qv")
    return m.group("name") + m.group("sep") + q + MARK.format("assignment") + q


def _replace_keyish(m: re.Match[str]) -> str:
    if not _KEYISH_NAME.search(m.group("name")) or not _looks_random(m.group("value")):
        return m.group(0)
    return m.group("name") + m.group("sep") + MARK.format("high-entropy")


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
