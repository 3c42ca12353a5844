"""The ``name=value`` patterns of ``lazy_harness.redact``: a value under a secret's name (the
``password=`` rule), any identifier with a long random value (high entropy), a keyword anywhere in a
longer name, and the forms with spaces only (``--api-key x``, ``ENV NAME x``, ``set -x NAME x``). The
regular expressions find the places; ``redact.values`` and ``redact.names`` judge each match.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lazy_harness.redact.regex_parts import _QUOTE, _wrapped
from lazy_harness.redact.values import _ENTROPY_LEN

# Names whose value is a credential whatever it looks like: the keyword is the name's last part,
# so ``max_tokens`` and ``token_count`` stay untouched. Longer words first (alternation order).
_SECRET_WORD = (r"(?:secret[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?token|"
                r"api[_-]?key|apikey|password|passwd|passphrase|pass|pwd|secret|token)")
_WRAPPED_CHARS = "A-Za-z0-9+/=_-"  # a value's next line: base64 and base64url ("." would take "main2.py")
# why: the match starts at the keyword and the name's prefix is checked in Python: a regex that
# walks the prefix segments first is slow on long dashed words.
_VALUE = (
    # a quoted value: to the same quote on its line (the other quote may be inside), or a value of
    # no spaces wrapped onto up to 3 more lines before its closing quote (a terminal, a folded config).
    # why "open": a value still open where the text ends (a text cut inside it) is a value too: a cut
    # text must be safe on its own, and its closing quote will never come
    r"(?:(?P<qv>" + _QUOTE + r")(?P<quoted>(?:(?!(?P=qv))[^\n]){1,500}"
    r"|[^\s\"'\\]{1,500}(?:\r?\n[ \t]*[^\s\"'\\]{1,500}){1,3})(?:(?P=qv)|(?P<open>\Z))"
    # a YAML block scalar ("password: |" and the value on the indented lines below, at most 4)
    r"|(?P<block>[|>][-+]?)[ \t]*\r?\n(?P<lines>(?P<indent>[ \t]+)\S[^\n]{0,500}"
    r"(?:\r?\n(?P=indent)\S[^\n]{0,500}){0,3})"
    # why: the value runs to a space or a quote ("Tr0ub4dor&3" whole); "," ";" "&" end it only before
    # the next "name=" (?a=1&b=2, Uid=sa;Pwd=x) or at its end, and a closing bracket only if unopened.
    # Runs of plain characters, not one at a time: faster, and nothing after the value can fail
    r"|(?P<bare>(?:[^\s\"',;&(){}\[\]]{1,500}|[,;&](?=[^\s\"',;&)\]}])(?![A-Za-z_][\w.-]{0,100}=|amp;)"
    r"|[(\[{][^\s\"'(){}\[\]]{0,300}[)\]}]?){1,500})" + _wrapped(_WRAPPED_CHARS, "more") + ")")
_ASSIGNMENT = (
    r"(?P<name>" + _SECRET_WORD + r"(?:" + _QUOTE + r")?)(?![A-Za-z0-9_])"
    # why: not across lines: "if not password:\n    raise"; "=" may be escaped in JSON (\u003d)
    r"(?P<sep>[ \t]*(?::=|=|:|\\u003d)[ \t]*)"
    + _VALUE)
_NAME_WORDS = ("secret", "token", "pass", "cred", "pwd", "key")


def _named_pattern() -> str:
    """A keyword anywhere in a name (DB_PASS_2, signingKey, gcp_credentials), then a separator and a
    value; names.py judges the whole name (the characters before the keyword too) and the value, more
    strictly than _ASSIGNMENT does.

    # why: a name that is the keyword alone (pass:, KEY=, token=) is _ASSIGNMENT's: a name character
    # must come before or after it, which the regex checks, so that prose and code never reach Python;
    # nor do plurals (tokens:, keys:) and values that are references, structures or placeholders ($x,
    # (...), [...], {...}, <x>, ***). Compiled with re.IGNORECASE and run by _sub_folded (lower case).
    """
    alts = []
    for word in _NAME_WORDS:
        plural = "(?!s(?![a-z0-9_.-]))" if word in ("token", "key") else ""
        alts.append(f"{word}{plural}(?:[a-z0-9_.-]{{1,80}}+|(?<=[a-z0-9_-]{'.' * len(word)}))")
    # why: what names.py would keep anyway never reaches it: a value must hold a digit or a symbol
    # in its first word, or be 20 characters long, or be a YAML block ("str", "getpass()", "true"
    # stop), and not be a path, a URL or a short number
    # (or, right after "=", any word: names.py keeps it unless the name is upper case, a .env line)
    worth = (r"(?=(?:" + _QUOTE + r")?(?:[^\s\"'()\\]{0,300}?[0-9!#%&*+/<=>?@^|~-]|[^\s\"'()\\]{20})|[|>]"
             r"|(?<=[a-z0-9_]=)[a-z])")
    return (r"(?P<name>(?:" + "|".join(alts) + r")(?:" + _QUOTE + r")?)"
            r"(?P<sep>[ \t]*(?::=|=|:|\\u003d)[ \t]*)(?![$(\[{<*%/~.]|[a-z][a-z0-9+.-]*://|\d{1,7}(?![^\s,;\"'}\])]))"
            + worth + _VALUE)


# Name and value apart by spaces: a long option (--api-key x), a Dockerfile ENV, fish's set -x; the
# name must hold a keyword (checked ahead, so other options never reach Python)
_HAS_WORD = r"(?=[A-Za-z0-9_-]{0,80}?(?i:" + "|".join(_NAME_WORDS) + "))"
_SPACED = (
    r"--(?<![^\s\"'=]--)" + _HAS_WORD + r"(?P<name>[A-Za-z][A-Za-z0-9-]{0,80}+)(?:[ \t]+|=|\\u003[dD])(?![-$])"
    + _VALUE,
    *(start + r"[ \t]+" + _HAS_WORD + r"(?P<name>[A-Za-z_][A-Za-z0-9_]{0,80}+)[ \t]+(?![-$])" + _VALUE
      for start in (r"ENV(?<![^\s]ENV)", r"set(?<![^\s]set)(?:[ \t]+-[A-Za-z]+)+")),
)
# why: any identifier, then the name is checked in Python; a regex that searches for "key" inside
# the name backtracks quadratically on a megabyte-long word. The name is possessive ({1,100}+): no
# shorter name can be followed by a separator, and trying each was most of this rule's time.
_KEYISH = (
    r"(?<![A-Za-z0-9_])(?P<name>[A-Za-z0-9_]{1,100}+)"
    r"(?P<sep>(?:" + _QUOTE + r")?\s*(?::=|=|:|\\u003[dD])\s*(?:" + _QUOTE + r")?)"
    r"(?P<value>[A-Za-z0-9+/=_.~-]{" + str(_ENTROPY_LEN) + ",})" + _wrapped(_WRAPPED_CHARS, "more"))


@lru_cache(maxsize=1)
def _named() -> tuple[re.Pattern[str], ...]:
    return (re.compile(_ASSIGNMENT, re.I), re.compile(_KEYISH), re.compile(_named_pattern(), re.I),
            *(re.compile(p) for p in _SPACED))
