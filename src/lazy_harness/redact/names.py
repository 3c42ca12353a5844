"""A value under a name that says pass, pwd, secret, token, key or credential anywhere in it
(``DB_PASS_2``, ``signingKey``, ``PASSWORD_PROD``, ``gcp_credentials``), and the forms where the name
and the value are apart by spaces only (``--api-key x``, ``ENV DB_PASSWORD x``, ``set -gx DB_PASS x``).

``lazy_harness.redact`` runs these after its ``password=`` rule, which has already taken the names
that end in one of its words; what is left here is judged more strictly, since a name like
``KEY_SIZE`` or ``cache_key`` holds settings and code far more often than secrets:

- the name is cut into parts (``_``, ``-``, ``.``, camelCase); a part is a keyword, or a password
  word or "secret" glued to the word before it (PGPASSWORD). Plurals are not (``max_tokens``, ``keys``).
- a keyword that is not the last part counts unless the last part says what the value describes
  rather than holds (``PASSWORD_MIN_LENGTH``, ``TOKEN_URL``, ``KEY_ID``, ``SECRET_KEY_FILE``).
- the value must look like a secret: letters and digits mixed in one piece of it (pieces are cut at
  ``- _ . : / @ +``), or random (``_looks_random``); after a password word, secret or credential, a
  symbol (``Tr0ub&dor``) or a number of 8 or more digits too. References and code (``$VAR``,
  ``os.environ[...]``, calls, attribute chains), placeholders, booleans, ``None``, plain words and
  identifiers, numbers, durations and versions, paths and URLs are kept.
"""

from __future__ import annotations

import re

from lazy_harness.redact.values import (_MARK_PREFIX, _NOT_SECRETS, _PLACEHOLDER, MARK, _looks_random,
                                        _names_itself, _reference)

_STRONG = frozenset(("pass", "password", "passwd", "passphrase", "pwd", "secret", "credential", "credentials",
                     "cred", "creds"))
_WEAK = frozenset(("key", "apikey", "token", "authtoken", "apitoken", "accesstoken", "refreshtoken"))
_GLUED = ("password", "passwd", "passphrase", "secret")
# What a name's last part says when its value describes a secret rather than holds it.
_META = frozenset((
    "length", "len", "min", "max", "size", "count", "limit", "bits", "file", "files", "path", "dir", "url", "uri",
    "endpoint", "host", "port", "type", "types", "name", "names", "id", "ids", "env", "var", "hash", "hasher",
    "hashers", "algorithm", "algorithms", "alg", "algo", "curve", "expiry", "expires", "expiration", "ttl",
    "timeout", "lifetime", "age", "prefix", "suffix", "header", "field", "format", "mode", "policy", "enabled",
    "disabled", "required", "rotation", "version", "hint", "label", "regex", "pattern", "issuer", "audience",
    "scope", "scopes", "source", "store", "provider", "helper", "backend", "class", "kind", "usage", "index",
    "column", "table", "location", "arn", "ref", "method", "methods", "stdin", "cmd", "command", "manager",
    "reset", "change", "strength", "rules", "validators", "chars", "encoding", "salt", "rounds", "iterations",
    "date", "time", "at", "t",
))
_PUBLIC = frozenset(("public", "publishable", "pub"))
_BOOLEANS = frozenset(("yes", "no", "on", "off", "y", "n", "enabled", "disabled", "enable", "disable"))
_SPLIT = re.compile(r"[._-]+")
_CAMEL = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
# 8, 15m, 1.2.3, 2024-01-01, 2024-01-01T10:00:00Z
_NUMBERISH = re.compile(r"v?\d+(?:[.,]\d+)*(?:[a-z]{1,3})?|\d+(?:[.:-]\d+)+(?:[T ]\d+(?::\d+)*(?:\.\d+)?)?"
                        r"(?:Z|[+-]\d\d:?\d\d)?", re.I)
# an identifier of words that may end in digits, joined by "_" (__int32_t, sha256_hash): a name in code
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")  # an attribute or a config key: _PassArg.context
_FILE = re.compile(r"\.(?:json|ya?ml|toml|txt|pem|crt|cer|der|p12|pfx|jks|key|pub|gpg|asc|env|cfg|conf|ini|py|js|sh)$")
_CAMEL_WORDS = re.compile(r"(?:[A-Z]?[a-z]+|[A-Z]+)+")
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]+")
_DIGIT_RUN = re.compile(r"\d+")
_ESCAPE = re.compile(r"\\[nrt\"'\\]|\\u00(?:26|3[bBcCeE]|2[27])")  # \u0026 is JSON's "&"
_CODE_NAME = re.compile(r"_*[A-Za-z]+\d*(?:_+(?:[A-Za-z]+\d*|\d+))+_*|__\w+")
_LOCATION = re.compile(r"[/~]|\.{1,2}/|[A-Za-z][A-Za-z0-9+.-]*://|[A-Za-z]:\\")
_PIECES = re.compile(r"[-_.:/@+=]")
_WORDISH = re.compile(r"[A-Za-z_][A-Za-z_]*")


def parts(name: str) -> list[str]:
    """``name`` cut at ``_ - .`` and camelCase, lower-cased: ``apiKey`` -> api, key."""
    out: list[str] = []
    for piece in _SPLIT.split(name):
        out += (p.lower() for p in _CAMEL.findall(piece))
    return out


def _keyword(part: str) -> str | None:
    if part in _STRONG:
        return "strong"
    if part in _WEAK:
        return "weak"
    if part.endswith(_GLUED):
        return "strong"
    return None


def is_keyword(part: str) -> bool:
    """True when a part of a name (``parts``) says pass, password, secret, token, key or credential."""
    return _keyword(part) is not None


def judge_name(name: str, bare_ok: bool = False) -> str | None:
    """"strong", "weak" or None (not a secret's name, or one whose value describes it)."""
    found = parts(name)
    if not found or (len(found) == 1 and not bare_ok and found[0] in _STRONG | _WEAK):
        return None  # why: "key", "token", "pass" alone are the password= rule's, or prose ("first pass:")
    kinds = [k for k in map(_keyword, found) if k]
    if not kinds:
        return None
    if _keyword(found[-1]) is None and found[-1] in _META or _PUBLIC & set(found):
        return None  # what the secret is like (PASSWORD_MIN_LENGTH), or a public half (publicKeyToken)
    return "strong" if "strong" in kinds else "weak"


def secretish(value: str, strength: str, keyword: str = "key", literal: bool = False) -> bool:
    """True when ``value`` under a name of that strength looks like a secret (rules in the docstring).
    ``literal``: the value of a shell or .env line (``values.env_style``), a literal even when it is
    made of words or names the keyword (``DB_PASS_PROD=WinterPass``)."""
    if len(value) < (4 if strength == "strong" else 8):
        return False
    low = value.lower()
    if (value.startswith(_MARK_PREFIX) or low in _NOT_SECRETS or low in _BOOLEANS
            or _PLACEHOLDER.fullmatch(value) or _reference(value, keyword)
            or (_names_itself(value, keyword) and not literal)):
        return False
    if value.isdigit():
        return strength == "strong" and len(value) >= 8
    if literal and strength == "strong" and not (_NUMBERISH.fullmatch(value) or _LOCATION.match(value)
                                                 or _FILE.search(value) or " " in value):
        return True  # why: in a .env line a password may be a word ("WinterPass"); a path or a version is not
    if (_NUMBERISH.fullmatch(value) or _LOCATION.match(value) or _WORDISH.fullmatch(value)
            or _CODE_NAME.fullmatch(value) or _DOTTED.fullmatch(value) or _FILE.search(value)
            or value[0] in "([{:" or "{" in value or " " in value or "`" in value):
        return False  # a number, a path, a word, a name, a list, a call, a format string or prose
    digits = sum(ch.isdigit() for ch in value)
    if not digits and all(_CAMEL_WORDS.fullmatch(p) for p in _NON_ALNUM.split(value) if p):
        return False  # words: "Access-Control-Allow-Credentials", "serverlessrepo:applicationId"
    if (strength == "weak" and value.isalnum() and len(_DIGIT_RUN.findall(value)) <= 1
            and sum(ch.isalpha() for ch in value) >= 4 * digits):
        return False  # a name with a number in it (Ec2SubnetId, sha256sum), not a random key
    if any(any(ch.isdigit() for ch in piece) and any(ch.isalpha() for ch in piece)
           for piece in _PIECES.split(value)):
        return True
    if strength == "strong" and any(not ch.isalnum() and ch not in "-_.:/@+=" for ch in value):
        return True
    return _looks_random(value)


def name_before(text: str, start: int) -> str:
    """The name's characters before ``start`` (at most 100)."""
    i = start
    while i > 0 and start - i < 100 and text[i - 1] in _NAME_CHARS:
        i -= 1
    return text[i:start]


def replace_value(m: re.Match[str], kind: str = "assignment") -> str:
    """The match with its value (quoted, a YAML block or bare) replaced by the marker."""
    whole, start = m.group(0), m.start()
    if m.group("block") is not None:
        s, e = m.start("lines") + len(m.group("indent")), m.end("lines")
    elif m.group("quoted") is not None:
        s, e = m.span("quoted")
    elif m.group("more") is not None and _bare_length(m) == len(m.group("bare")):
        s, e = m.start("bare"), m.end("more")
    else:  # a "." or "`" that ends the sentence stays after the marker
        s = m.start("bare")
        e = s + _bare_length(m)
    return whole[:s - start] + MARK.format(kind) + whole[e - start:]


def the_value(m: re.Match[str]) -> str:
    """The value, a multi-line one joined (its lines' indents dropped), a bare one without the "." or
    "`" that ends a sentence or inline code."""
    if m.group("block") is not None:
        return "".join(line.strip() for line in m.group("lines").splitlines())
    if m.group("quoted") is not None:
        value = m.group("quoted")
        return "".join(line.strip() for line in value.splitlines()) if "\n" in value else value
    return m.group("bare")[:_bare_length(m)]


def _bare_length(m: re.Match[str]) -> int:
    """How much of a bare value is the value: not a "." or "`" that ends a sentence, nor what follows
    an escape of a JSON string (``\\n``, ``\\"``), where the text is JSON in a string."""
    bare = m.group("bare")
    cut = _ESCAPE.search(bare)
    if cut:
        bare = bare[:cut.start()]
    return len(bare.rstrip(".`,"))


def replace_named(m: re.Match[str]) -> str:
    """``<keyword...>=value``: the whole name is the characters before the keyword too."""
    text = m.string
    before = name_before(text, m.start())
    at = m.start() - len(before)
    if at >= 2 and text.startswith("::", at - 2):
        return m.group(0)  # a type's path (AWS::EC2::KeyPair, std::key): not a variable
    name = before + m.group("name").rstrip("\\\"'")
    # why: of a dotted name only the attribute names the value: key_node.tag and SelectorKey.fd.__doc__
    # hold a tag and a docstring; settings.api_key holds a key
    strength = judge_name(name.rsplit(".", 1)[-1].lstrip("-"))
    if strength is None:
        return m.group(0)
    value = the_value(m)
    literal = m.group("sep") == "=" and name.isupper() and name.replace("_", "").isalnum()
    if not secretish(value, strength, next((p for p in reversed(parts(name)) if _keyword(p)), "key"), literal):
        return m.group(0)
    return replace_value(m)


def replace_spaced(m: re.Match[str]) -> str:
    """``--name value``, ``ENV NAME value``, ``set -gx NAME value``: the name alone may be a keyword."""
    name = m.group("name")
    strength = judge_name(name, bare_ok=True)
    if strength is None:
        return m.group(0)
    words = parts(name)
    value = the_value(m)
    if not secretish(value, strength, words[-1] if words else "key"):
        return m.group(0)
    return replace_value(m)
