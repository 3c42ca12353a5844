"""Rules of ``lazy_harness.redact`` for a secret given to a tool's ``config`` command with a space
before it, where the ``name=value`` rules see no separator: ``npm config set //host/:_authToken v``
(and ``npm set``), ``pnpm``, ``yarn config set npmAuthToken v``, ``git config --global sonar.token
v``, ``pip config set global.password v``, ``gh config set -h host oauth_token v``, ``poetry config
pypi-token.<repo> v`` and ``poetry config http-basic.<repo> <user> <password>`` (the password; the
user stays, as in a URL), ``git config http.extraheader "Authorization: <scheme> v"`` (the credential
after the header's name and scheme). The value alone is replaced; the command and the key stay.

A key is a secret's when one of its parts (``names.parts``: cut at ``. _ -`` and camelCase, ``/`` and
``:`` dropped) says token, auth, password, passwd, passphrase, pwd, pass, secret, credential(s),
apikey, or api/private/access/secret + key, and its last part does not say what the value describes
(``auth-type``, ``credential.helper``, ``credential.<url>.username``, ``http.proxyAuthMethod``; the
words of ``names._META`` and user, username, email, login). When the last part is the keyword, any
literal goes (a word too: a password); when an earlier part is, the value must look like a secret
(``names.secretish``). References (``$NPM_TOKEN``, ``${X}``, ``$(cmd)``), placeholders
(``<token>``), booleans, paths and URLs stay, and so does a command that reads, lists or removes a
key (``get``, ``delete``, ``--unset``). The tool must be the command's (``npm``, ``pnpm``, ``yarn``,
``git``, ``pip``, ``poetry``, ``cargo``, ``gh``, ``conda``, ``heroku``...), so "the config set token
expires" in prose stays.
"""

from __future__ import annotations

import re
from typing import Any

from lazy_harness.redact import names
from lazy_harness.redact.values import _MARK_PREFIX, _NOT_SECRETS, _PLACEHOLDER

# the rest of the command after "config" (or npm's "set"): to a line end, ";", "|" or "&" outside
# quotes; bounded, so a megabyte of "config" is read in slices, never rescanned
_REST = r"(?P<rest>(?:[^\n;|&\"']{1,300}|\"[^\"\n]{0,300}\"|'[^'\n]{0,300}'|[\"']){1,30})"
# "config" not glued to a word ("npm_config_x", "git-config", "my.config"), then a space
_CONFIG = re.compile(r"config(?<![A-Za-z0-9_.-]config)(?::set|:add)?(?=[ \t])" + _REST)
_NPM_SET = re.compile(r"set(?<=pm set)(?=[ \t])" + _REST)
# the tool before the verb on its line: a command word (after a start, a space, a quote, "(", a
# separator or a path's "/"), then its own options ("git -C dir", "pip --isolated") and spaces
_OPTIONS = r"(?:[ \t]+-[^\s\"']{1,100}(?:[ \t]+[^\s\"'-][^\s\"']{0,200})?){0,6}[ \t]+\Z"
_TOOLS = (r"npm|pnpm|yarn|git|pip[0-9.]{0,4}|poetry|cargo|gh|conda|mamba|bundle|composer|hg|heroku|dotnet"
          r"|nuget|helm|uv|pdm|hatch|twine|bun|deno|npx[ \t]+(?:pnpm|yarn)|corepack[ \t]+(?:pnpm|yarn)")
_TOOL = re.compile(r"(?:^|(?<=[\s\"'`(;&|/]))(?:" + _TOOLS + ")" + _OPTIONS)
_NPM = re.compile(r"(?:^|(?<=[\s\"'`(;&|/]))p?npm[ \t]+\Z")
# a word of the command: quoted (a quote may be escaped, in a JSON string) or bare
_WORD = re.compile(r"(?P<q>\\{0,7}[\"'])(?P<quoted>[^\"'\n]{0,300})(?:[\"']|\Z)|(?P<bare>[^\s\"'\\`]+)|[\\`]+")
# options that take the next word as their argument
_TAKES_ARG = frozenset(("-f", "--file", "--blob", "--type", "--default", "--comment", "-L", "--location",
                        "-h", "--host", "--hostname", "--name", "-n", "--prefix", "--userconfig", "--site",
                        "-a", "--app", "-r", "--remote", "--env", "--repo", "-R"))
_VERBS = frozenset(("set", "add"))
_READS = frozenset(("get", "delete", "del", "rm", "remove", "unset", "list", "ls", "edit", "--get", "--get-all",
                    "--unset", "--unset-all", "--list", "-l", "--get-regexp", "--remove-section", "--rename-section",
                    "--edit", "-e", "--show-origin", "get-urlmatch", "--get-urlmatch", "unset-all", "--show"))
_WORDS = frozenset(("token", "auth", "authtoken", "password", "passwd", "passphrase", "pwd", "pass", "secret",
                    "credential", "credentials", "creds", "cred", "apikey", "privatekey", "secretkey", "accesstoken"))
_PAIRS = frozenset((("api", "key"), ("private", "key"), ("access", "key"), ("secret", "key"), ("client", "secret")))
_GLUED_ENDS = ("pass", "password", "passwd", "passphrase", "secret", "token", "apikey")
_NOT_GLUED = frozenset(("bypass", "compass", "encompass", "overpass", "underpass", "surpass"))
_NOT_VALUE = names._META | {"user", "username", "email", "mail", "login", "usehttppath"}
_HEADER = re.compile(r"[ \t]*(?P<name>[A-Za-z][A-Za-z0-9-]{0,60})[ \t]*:[ \t]*(?P<value>\S.*?)[ \t]*")


def _configs() -> list[tuple[str, re.Pattern[str], Any]]:
    """A secret set by a tool's config command: the value after a secret's key."""
    return [("config-secret", _CONFIG, _config_value), ("config-secret", _NPM_SET, _config_value)]


def _words(rest: str) -> list[tuple[str, int, int]]:
    """The words of the command after the verb: (text, start, end) of each, a quoted one's inside."""
    out = []
    for w in _WORD.finditer(rest):
        if w.group("bare") is not None:
            out.append((w.group("bare"), w.start("bare"), w.end("bare")))
        elif w.group("q") is not None:
            text = w.group("quoted").rstrip("\\")  # the backslash of an escaped closing quote (JSON)
            out.append((text, w.start("quoted"), w.start("quoted") + len(text)))
    return out


def _positionals(words: list[tuple[str, int, int]]) -> list[tuple[str, int, int]] | None:
    """The words that are not options nor their arguments, the verb dropped; None for a command that
    reads, lists or removes (its words hold no value to hide)."""
    out: list[tuple[str, int, int]] = []
    skip = False
    for word in words:
        text = word[0]
        if skip:
            skip = False
        elif text in _READS and (text.startswith("-") or not out):
            return None  # --get, --unset; get, delete, list as the verb
        elif text.startswith("-") and len(text) > 1:
            skip = text in _TAKES_ARG
        else:
            out.append(word)
    if out and out[0][0] in _VERBS:
        out = out[1:]
    return out


def _key_kind(key: str) -> str | None:
    """"last" (the key's last part names the secret), "earlier" (another part does), or None."""
    found = names.parts(key)
    if not found or found[-1] in _NOT_VALUE or "".join(found[-2:]).endswith("askpass"):  # why: a program's name
        return None
    if found[-1] in _WORDS or tuple(found[-2:]) in _PAIRS or _glued(found[-1]):
        return "last"
    if any(p in _WORDS for p in found) or any(pair in _PAIRS for pair in zip(found, found[1:], strict=False)):
        return "earlier"
    return None


def _glued(part: str) -> bool:
    """A part that ends in a secret's word, written in lower case (git's keys ignore case:
    ``smtppass``, ``authtoken``, ``clientsecret``), and is no everyday word (``bypass``)."""
    return part.endswith(_GLUED_ENDS) and part not in _NOT_GLUED


def _kept(value: str) -> bool:
    """A value that is no literal secret: a reference, a placeholder, a marker, a boolean, a path, a URL."""
    low = value.lower()
    return (len(value) < 3 or value.startswith((_MARK_PREFIX, "`", "-")) or bool(_PLACEHOLDER.fullmatch(value))
            or "${" in value or "$(" in value or low in _NOT_SECRETS or low in names._BOOLEANS
            or bool(names._LOCATION.match(value)))


def _header_credential(text: str) -> tuple[int, int] | None:
    """Where the credential is in a header ``Name: [scheme] value`` whose name says authorization or
    a secret (``PRIVATE-TOKEN``, ``X-Api-Key``): after the scheme of an Authorization header."""
    h = _HEADER.fullmatch(text)
    if h is None:
        return None
    at, value = h.start("value"), h.group("value")
    if h.group("name").lower().endswith("authorization"):
        scheme, space, cred = value.partition(" ")
        if space and cred.strip():
            at += len(scheme) + 1 + len(cred) - len(cred.lstrip())
            value = cred.strip()
    elif _key_kind(h.group("name")) is None:
        return None
    return None if _kept(value) else (at, at + len(value))


def _target(key: str, values: list[tuple[str, int, int]], git: bool = False) -> tuple[int, int] | None:
    """Where the secret is among ``values``, the words after ``key`` (of a ``git`` command: an alias's
    value is a command, a secret only when it reads as one)."""
    if not values:
        return None
    low = key.lower()
    if low.startswith("http-basic."):  # poetry: http-basic.<repo> <user> <password>
        return values[1][1:] if len(values) > 1 and not _kept(values[1][0]) else None
    value, start, end = values[0]
    if low.endswith("extraheader"):
        found = _header_credential(value)
        return None if found is None else (start + found[0], start + found[1])
    kind = _key_kind(key)
    if git and kind and low.startswith("alias."):
        kind = "earlier"
    if kind is None or _kept(value) or (kind == "earlier" and not names.secretish(value, "weak")):
        return None
    return start, end


def _config_value(m: re.Match[str], mark: str) -> str:
    """The value after a secret's key on a config command of a known tool, replaced by the marker."""
    line = m.string[max(0, m.start() - 300):m.start()].rsplit("\n", 1)[-1]
    tool = (_NPM if m.group(0).startswith("set") else _TOOL).search(line)
    if tool is None:
        return m.group(0)
    words = _positionals(_words(m.group("rest")))
    if not words or "=" in words[0][0]:
        return m.group(0)  # a key=value pair is the assignment rules'
    found = _target(words[0][0], words[1:], git=tool.group(0).lstrip("\"'`(;&|/").startswith("git"))
    if found is None:
        return m.group(0)
    base = m.start("rest") - m.start()
    whole = m.group(0)
    return whole[:base + found[0]] + mark + whole[base + found[1]:]
