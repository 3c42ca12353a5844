"""What the value of a ``name=value`` match is: a secret, or code, prose or a placeholder that only
sits under a secret's name; and bare AWS secret keys, which only their neighbourhood gives away.
Used by the rule table of ``lazy_harness.redact``; nothing here imports it back.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

MARK = "[REDACTED:{}]"
_MARK_PREFIX = "[REDACTED:"
# Words that name a secret even glued to the word before them (PGPASSWORD, dbPassword, clientSecret);
# "mytoken", "maxToken", "padToken" and "monkey" are not secrets.
_PASSWORDS = frozenset(("password", "passwd", "passphrase"))
_GLUED_OK = _PASSWORDS | {"secret"}
# Short words that are often something else ("a first pass: ...", "PASS: test_x", PWD=/home/me): a value
# after a colon counts only with a prefix (DB_PASS: x), and a pwd that is a path is the shell's.
_SHORT = frozenset(("pass", "pwd"))
# Code, references and placeholders that are not secrets even under such a name.
_NOT_SECRETS = frozenset(("none", "null", "nil", "true", "false", "undefined", "str", "string", "int",
                          "bytes", "bool", "dict", "list", "optional", "any", "required", "self", "cls",
                          "the", "and", "for", "was", "is", "are", "not", "you", "this", "that"))
# ``{name}`` is a format field (f"password={password}", {password!r}), ``{{ x }}`` a template
# and words that stand for a value to fill in (SECRET_KEY=changeme, API_KEY=your-api-key-here)
_PLACEHOLDER = re.compile(r"\*+|x{3,}|X{3,}|\.{3}|<[^>]*>?|\$.*|%.*|\{\{.*|\{[A-Za-z_][\w.]*(?:![rsa])?(?::[^{}]*)?\}?"
                          r"|(?i:change[-_.]?(?:me|it|this)(?:[-_.]?(?:now|please|later|in[-_.]?prod(?:uction)?))?"
                          r"|replace[-_.]?(?:me|this)|placeholder|dummy|redacted|todo|tbd|fixme|not[-_.]?a[-_.]?secret"
                          r"|example(?:[-_.]?[a-z]+)*|[a-z]+(?:[-_.][a-z]+)*[-_.]example|your[-_.]?[a-z]+(?:[-_.][a-z]+)*"
                          r"|[a-z]+(?:[-_.][a-z]+)*[-_.](?:here|goes[-_.]here)|x+)")
_PLAIN_WORD = re.compile(r"[a-z][a-z_-]*")
# a JSON escape that ends a bare value: "&", ";", a quote, "<", ">" (\u0026, \u003b, \u0022...)
_JSON_END = re.compile(r"\\u00(?:26|3[bBcCeE]|2[27])")
_ENTROPY_MIN = 3.5
_ENTROPY_LEN = 20
_KEYISH_NAME = re.compile(r"key|secret|token", re.I)


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


_PATH = re.compile(r"[/~]|[A-Za-z]:\\")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SNAKE = re.compile(r"[a-z_][a-z0-9_]*")
_NAME_PARTS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def _names_itself(value: str, word: str) -> bool:
    """True when ``value`` is an identifier with the keyword's last part as one of its parts."""
    if not _IDENTIFIER.fullmatch(value):
        return False
    last = re.split(r"[_-]", word)[-1]
    return last in (part.lower() for part in _NAME_PARTS.findall(value))


def _replace_assignment(m: re.Match[str]) -> str:
    if m.group("block") is not None:  # "password: |" and the value on the indented lines below
        first = m.group("lines").strip().split("\n", 1)[0]
        if first.startswith(_MARK_PREFIX) or _PLACEHOLDER.fullmatch(first) or first.lower() in _NOT_SECRETS:
            return m.group(0)
        whole, start = m.group(0), m.start()
        return whole[:m.start("lines") - start] + m.group("indent") + MARK.format("assignment")
    value = m.group("quoted") if m.group("quoted") is not None else m.group("bare")
    start = m.start()
    before = m.string[start - 1] if start else ""
    word = m.group("name").rstrip("\\\"'").lower()
    if before.isalnum() and (word not in _GLUED_OK or m.string[max(0, start - 2):start].lower() == "no"):
        return m.group(0)  # "mytoken=": not a keyword of its own; sudoers' NOPASSWD: is a flag
    colon = ":" in m.group("sep")
    if before == ":" and m.group("sep") == ":":
        return m.group(0)  # arn:aws:secretsmanager:...:secret:name is the name of a resource
    # why: a bare value ends a sentence ("password=hunter2secret.") or inline code; judged without
    # that end, which stays after the marker
    # why: an escaped "&", ";" or quote (\u0026 in JSON) ends a bare value; what follows stays
    cut = _JSON_END.search(value) if m.group("bare") is not None else None
    rest = value[cut.start():] if cut else ""
    value = value[:len(value) - len(rest)]
    tail = "" if m.group("quoted") is not None else value[len(value.rstrip(".`")):]
    value = value[:len(value) - len(tail)]
    if ((len(value) < 3 and m.group("quoted") is None) or value.startswith(_MARK_PREFIX)
            or value.lower() in _NOT_SECRETS or _PLACEHOLDER.fullmatch(value)):
        return m.group(0)
    prefixed = before in ("_", "-")  # DB_PASS, MYSQL_PWD, --pass
    # why: a quoted JSON key "pass" with a quoted value is a password ({"username": "u", "pass": "x"});
    # a test report's {"pass": 120} or {"pass": "skipped"} is not
    json_pass = (before in "\"'" and m.group("name")[-1] in "\"'" and m.group("quoted") is not None
                 and not _PLAIN_WORD.fullmatch(value))
    if word in _SHORT and not json_pass and ((colon and not prefixed) or (word == "pwd" and _PATH.match(value))
                           or (m.group("sep")[0] in " \t" and _SNAKE.fullmatch(value))):
        return m.group(0)  # "x.last_pass = saved_state" is code: a variable, a space before the sign
    if m.group("bare") is not None:
        if _reference(value, word):
            return m.group(0)  # a call, an index or an attribute: code, not a literal
        if colon and _PLAIN_WORD.fullmatch(value) and word not in _PASSWORDS and not (prefixed and word in _SHORT):
            return m.group(0)  # "the token: expired" is prose; a password may well be a plain word
        if _names_itself(value, word) and not env_style(m):
            return m.group(0)  # password=password, token=access_token, secret=dbSecret: a variable
        # a next line that carries the value on goes with it, unless the value ended a sentence
        kept = tail + rest + (m.group("more") or "") if tail or rest else ""
        return m.group("name") + m.group("sep") + MARK.format("assignment") + kept
    q = m.group("qv")
    return m.group("name") + m.group("sep") + q + MARK.format("assignment") + ("" if m.group("open") is not None else q)


def env_style(m: re.Match[str]) -> bool:
    """True for ``NAME=value`` with an upper-case name and no space around the sign: a shell or .env
    line, where the value is a literal whatever words it holds (``DB_PASS=StrongPass``,
    ``API_TOKEN=MyToken_2024``); code would write ``password=password`` or ``TOKEN = token``."""
    sep = m.group("sep")
    if sep != "=" and not (sep.startswith(":") and sep[1:].strip() == "" and sep != ":"):
        return False  # why: "=" alone, or a YAML map of such names (docker compose's environment:)
    i = m.start()
    while i > 0 and m.start() - i < 100 and (m.string[i - 1].isalnum() or m.string[i - 1] == "_"):
        i -= 1
    name = m.string[i:m.start()] + m.group("name")
    return name.isupper() and name.replace("_", "").isalnum() and (sep == "=" or "_" in name)


# Objects whose attributes are configuration in code: password=self.pw, token=args.tok, key=cfg.k
_ROOTS = frozenset(("self", "cls", "this", "os", "env", "process", "settings", "config", "conf", "cfg",
                    "args", "kwargs", "opts", "options", "params", "request", "req", "body", "data", "values",
                    "payload", "form", "ctx", "context", "app", "client", "session", "user", "account",
                    "auth", "creds", "credentials", "secrets", "vault", "props", "state"))
_CHAIN = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_CALL = re.compile(r"[A-Za-z_][\w.]*[(\[]")
_SNAKE_WORDS = re.compile(r"_*(?:[a-z]{2,}(?:_[a-z]{2,})+|[A-Z]{2,}(?:_[A-Z]{2,})+)")  # not "a1_b2" by chance


def _reference(value: str, word: str) -> bool:
    """True for code: a call or an index (``getpass.getpass()``, ``os.environ[...]``), or an attribute
    chain that starts at a configuration object (``self.``, ``settings.``) or ends in a name like the
    keyword's (``config.password``, ``process.env.API_KEY``) or in snake_case (``form.cleaned_data``).

    # why: any dotted identifier chain is not enough: "my.secret.pw" and "correct.horse.battery" are
    # passwords, and a password at the end of a sentence ("hunter2secret.") holds a dot too.
    """
    if _CALL.match(value):
        return True
    if not _CHAIN.fullmatch(value):
        return False
    first, last = value.split(".", 1)[0], value.rsplit(".", 1)[1]
    return first.lower() in _ROOTS or _names_itself(last, word) or bool(_SNAKE_WORDS.fullmatch(last))


def _replace_keyish(m: re.Match[str]) -> str:
    keyword = _KEYISH_NAME.search(m.group("name"))
    value = m.group("value")
    if m.string.startswith("(", m.end("value")):
        value += "("  # why: the value's characters stop at the bracket: "tokens = s.encodeAll2(x)" is a call
    if not keyword or not _looks_random(value) or _reference(value, keyword.group().lower()):
        return m.group(0)  # not a secret's name, not random, or code: SECRET_KEY=app.config.SECRET_KEY
    if m.group("sep") == ":" and m.start() and m.string[m.start() - 1] == ":":
        return m.group(0)  # arn:aws:secretsmanager:...:secret:name is the name of a resource
    return m.group("name") + m.group("sep") + MARK.format("high-entropy")


# A bare AWS secret access key is 40 characters of [A-Za-z0-9/+]: any base64 text holds such runs,
# so one counts only within _AWS_NEAR characters of the word "aws" or "secret", in any case.
_AWS_RUN = re.compile(r"[A-Za-z0-9/+]{40,}")
# a run with "/" escaped as \/ (JSON): tried only where a run starts and holds \/ within 40 characters
_AWS_ESCAPED = re.compile(r"(?<![A-Za-z0-9+/\\])(?=[A-Za-z0-9+]{0,40}\\/)(?:[A-Za-z0-9+]|\\/)+")
_AWS_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+")
_AWS_NEAR = 200
_AWS_ENTROPY = 4.2  # 40 random characters of 64: 4.66 on average, under 4.25 once in 10,000


def _aws_secrets(text: str) -> tuple[str, int]:
    """``text`` with bare AWS secret access keys replaced, and how many: near "aws" or "secret" any
    random-looking run of 40 (``_aws_like``), elsewhere only one random beyond doubt (``_aws_alone``)."""
    runs = [(m.start(), m.end(), m.group()) for m in _AWS_RUN.finditer(text) if m.end() - m.start() == 40]
    if "\\/" in text:  # why: JSON may escape "/" as \/: the key is 40 characters once unescaped
        runs += [(m.start(), m.end(), m.group().replace("\\/", "/")) for m in _AWS_ESCAPED.finditer(text)
                 if "\\/" in m.group() and len(m.group().replace("\\/", "/")) == 40]
    if not runs:
        return text, 0
    low = text.lower()
    if len(low) != len(text):
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)  # positions must line up
    found = sorted(i for word in ("aws", "secret") for i in _occurrences(low, word))
    n, spans = len(text), []
    for s, e, value in runs:
        if (s and text[s - 1] in _AWS_CHARS) or (e < n and (text[e] in _AWS_CHARS or text[e] == "=")):
            continue  # a piece of a longer run (base64 data)
        i = bisect.bisect_left(found, s - _AWS_NEAR - 6)
        near = i < len(found) and found[i] <= e + _AWS_NEAR
        glued = (s and text[s - 1] in _GLUE) or (e < n and text[e] in _GLUE
                                                  and (text[e] != "." or text[e + 1:e + 2].isalnum()))
        if (_aws_like(value) if near else not glued and _aws_alone(value)):
            spans.append((s, e))
    if not spans:
        return text, 0
    out: list[str] = []
    last, mark = 0, MARK.format("aws-secret-key")
    for s, e in spans:
        out += (text[last:s], mark)
        last = e
    out.append(text[last:])
    return "".join(out), len(spans)


_GLUE = frozenset("-_.%\\@")  # a run glued to these is part of a name, a URL or an escape (not a final ".")
_WORD_RUN = re.compile(r"[A-Z]?[a-z]{3,}")


def _aws_alone(value: str) -> bool:
    """A 40-character run with no context: random beyond doubt. At least 8 capitals, 8 small letters
    and 2 digits, runs of small letters (words) covering under half of it (a CamelCase name is made
    of them), at most a few "/" and not a path (no leading "/" nor "//")."""
    upper = sum(c.isupper() for c in value)
    lower = sum(c.islower() for c in value)
    digits = sum(c.isdigit() for c in value)
    return (upper >= 8 and lower >= 8 and digits >= 2 and value.count("/") <= 4 and "//" not in value
            and not value.startswith("/") and sum(map(len, _WORD_RUN.findall(value))) < 20
            and entropy(value) >= _AWS_ENTROPY)


def _occurrences(text: str, word: str) -> Iterator[int]:
    i = text.find(word)
    while i >= 0:
        yield i
        i = text.find(word, i + 1)


def _aws_like(value: str) -> bool:
    """Capitals, small letters and a digit or symbol, and random: not a hex hash (at most 4 bits
    per character), a CamelCase name or a path."""
    return (any(c.isupper() for c in value) and any(c.islower() for c in value)
            and any(c.isdigit() or c in "/+" for c in value) and entropy(value) >= _AWS_ENTROPY)


_BOT_ID = re.compile(r"(?:^|[^A-Za-z0-9_]|bot)[0-9]{6,12}$")


def _telegram(m: re.Match[str], mark: str) -> str:
    """":AA..." after a bot's numeric id (6 to 12 digits, alone or after "bot" in an API URL): the
    secret half of a Telegram bot token; the id before the colon is the bot's public user id and stays.
    A time or a version before ":AA" (``12:AA``, ``v1234567890:AA``) keeps the match."""
    before = m.string[max(0, m.start() - 15):m.start()]
    return ":" + mark if _BOT_ID.search(before) else m.group(0)

