"""Rules of ``lazy_harness.redact`` for what a client takes on its command line: a GitHub Actions
secret's value (``gh secret set``), the password options of database, cache, directory and cloud
clients, SQL's ``IDENTIFIED BY``, a redis ``AUTH``, and the login tokens of ngrok and wandb. Each
counts only on its command's line (``-p 6379`` is a port elsewhere, ``-a`` means "all"); the table
of kinds (``redact.kinds``) places them, ``redact.matches`` replaces the value.
"""

from __future__ import annotations

import re
from typing import Any

from lazy_harness.redact.matches import _keep_first, _unless_reference
from lazy_harness.redact.regex_parts import _END, _cased, _lead

# the value after an option: to its closing quote (plain or escaped in a JSON string), or a word;
# not an option ("-p --eval": no value given, the client asks for it)
_QUOTE = r"(?P<q>\\{0,7}[\"'])?"
_VALUE = r"(?!-)(?P<value>(?(q)[^\"'\n\\]{1,300}|[^\s\"'\\;|&]{1,300}))"
_ON_LINE = r"\b[^\n;|&]{0,300}?[ \t]"  # the command's own line, up to the option
# (command literal, the rest of its name, its password options); an option ends at a space or "="
_OPTIONS = (
    ("redis-cli", "", r"(?:-a|--pass)"),
    ("mongo", r"(?:sh|dump|restore|export|import|stat|top|files)?", r"(?:-p|--password)"),
    ("sqlcmd", "", "-P"),
    ("bcp", "", "-P"),
    ("ldap", r"(?:search|modify|add|delete|passwd|whoami|compare|modrdn|exop)", "-w"),
    # why: az login -p also takes a certificate's path
    ("az", r"[ \t]+login", r"(?:-p|--password)", r"(?!~/|\.{0,2}/)"),
)


def _option(literal: str, rest: str, option: str, not_value: str = "") -> tuple[str, re.Pattern[str], Any]:
    keep = _lead(literal, rest + r"(?![A-Za-z0-9_-])" + _ON_LINE + option + r"(?:[ \t]+|=)" + _QUOTE)
    return ("cli-password", re.compile(r"(?P<keep>" + keep + ")" + not_value + _VALUE), _unless_reference)


def _client_passwords() -> list[tuple[str, re.Pattern[str], Any]]:
    """A password given to a client as an option, or in the arguments of htpasswd, openssl, smbclient."""
    # htpasswd -b[cmBdpsDv] [-C cost] file user password; with -n no file
    flags = r"(?:[ \t]+-[A-Za-z]+(?:[ \t]+\d+)?)*"
    htpasswd = _lead("htpasswd", r"[ \t]+-(?=[A-Za-z]*b)(?:(?![A-Za-z]*n)[A-Za-z]+" + flags + r"(?:[ \t]+[^\s-]\S*){2}"
                                 r"|(?=[A-Za-z]*n)[A-Za-z]+" + flags + r"[ \t]+[^\s-]\S*)[ \t]+" + _QUOTE)
    # openssl -passin/-passout/-pass pass:pw (env: and file: name where it is), enc -k pw
    openssl = _lead("openssl", _ON_LINE + r"(?:-pass(?:in|out)?(?=[ \t]+(?:\\{0,7}[\"'])?pass:)|-k(?=[ \t]))[ \t]+"
                    + _QUOTE + "(?:pass:)?")
    smb = _lead("smb", r"(?:client|cacls|get)" + _ON_LINE + r"(?:-U|--user)(?:[ \t]+|=)" + _QUOTE
                + r"[^\s%\"']{1,200}%")
    return [
        *[_option(*o) for o in _OPTIONS],
        *[("cli-password", re.compile(r"(?P<keep>" + k + ")" + _VALUE), _unless_reference)
          for k in (htpasswd, openssl, smb)],
        # why: a gh secret is a secret whatever its name; "< file" and "$VAR" give none
        ("cli-password", re.compile(r"(?P<keep>" + _lead("gh", r"[ \t]+secret[ \t]+set\b" + _ON_LINE
                                                         + r"(?:--body(?:[ \t]+|=)|-b[ \t]*)" + _QUOTE) + ")" + _VALUE),
         _unless_reference),
        # redis AUTH [user] password, on a redis-cli line or after its prompt (host:port>): _redis_line
        *[("cli-password", re.compile(r"(?P<keep>" + _lead(auth, r"[ \t]+(?:[^\s\"'\\]{1,100}[ \t]+)?" + _QUOTE) + ")"
                                      + _VALUE + r"(?(q)(?P=q))(?=[ \t]*(?:[\r\n;|&\"'\\]|$))"), _redis_line)
          for auth in ("AUTH", "auth")],
        # why: "identified by" is prose too ("a user is identified by their email"): only on a line that
        # creates or changes a user or role, or grants (_sql_user)
        *[("cli-password", re.compile(r"(?P<keep>" + word + r"[ \t]+(?i:with[ \t]+\w{1,60}[ \t]+)?(?i:by)"
                                      r"[ \t]+(?i:password[ \t]+)?" + _QUOTE + ")" + _VALUE), _sql_user)
          for word in _cased("identified")],
    ]


_REDIS_LINE = re.compile(r"(?:(?<![A-Za-z0-9_])redis-cli\b[^\n;|&]*|:\d{2,5}>[ \t]*)\Z")


def _redis_line(m: re.Match[str], mark: str) -> str:
    """AUTH's password on a redis-cli command line or after redis-cli's prompt (``127.0.0.1:6379>``)."""
    line = m.string[max(0, m.start() - 300):m.start()].rsplit("\n", 1)[-1]
    return _unless_reference(m, mark) if _REDIS_LINE.search(line) else m.group(0)


_SQL_LINE = re.compile(r"\b(?:(?:create|alter)[ \t]+(?:user|role|login)|grant)\b", re.I)


def _sql_user(m: re.Match[str], mark: str) -> str:
    """IDENTIFIED BY's password on a CREATE/ALTER USER, ROLE or LOGIN line, or a GRANT."""
    line = m.string[max(0, m.start() - 300):m.start()].rsplit("\n", 1)[-1]
    return _unless_reference(m, mark) if _SQL_LINE.search(line) else m.group(0)


def _logins() -> list[tuple[str, re.Pattern[str], Any]]:
    """The token given to ngrok's and wandb's login commands."""
    return [
        ("ngrok-token", re.compile(r"(" + _lead("ngrok", r"[ \t]+(?:config[ \t]+add-authtoken|authtoken)"
                                            r"(?:[ \t]+--?[A-Za-z-]+(?:=\S+)?)*[ \t]+[\"']?)")
                                   + r"(?=[A-Za-z0-9_]{0,100}?\d)[A-Za-z0-9_]{20,100}" + _END), _keep_first),
        ("wandb-key", re.compile(r"(" + _lead("wandb", r"[ \t]+login(?:[ \t]+--?[A-Za-z-]+(?:=\S+)?)*[ \t]+[\"']?)")
                                 + r"[a-f0-9]{40}(?:[a-f0-9]{40})?" + _END), _keep_first),
    ]
