"""Rules of ``lazy_harness.redact`` for Wi-Fi passwords: wpa_supplicant's and hostapd's ``psk=`` (quoted
passphrase or 64 hex digits, ``#psk="..."`` as ``wpa_passphrase`` prints it), a NetworkManager keyfile's
``psk=`` and ``nmcli -s``'s ``802-11-wireless-security.psk:``, the passphrase given to
``wpa_passphrase SSID PASSPHRASE``, and ``nmcli ... password X`` / ``wifi-sec.psk X``. The table of
kinds (``redact.kinds``) places them.

A WPA passphrase has 8 to 63 characters: a shorter value is no psk. ``key_mgmt=WPA-PSK``,
``psk-flags``, ``tls_psk_identity`` and "the psk is derived..." have no value after ``psk``; after a
colon a plain small word followed by more words is prose ("PSK: pre-shared key"); ``<hidden>``,
``--``, ``$VAR`` and placeholders stay.
"""

from __future__ import annotations

import re
from typing import Any

from lazy_harness.redact.clients import _ON_LINE, _QUOTE, _VALUE
from lazy_harness.redact.matches import _unless_reference
from lazy_harness.redact.regex_parts import _lead
from lazy_harness.redact.values import _NOT_SECRETS

_PSK_VALUE = r"(?P<value>(?(q)[^\"'\n\\]{1,300}|[^\s\"'\\;]{1,300}))"
_PROSE_AFTER = re.compile(r"[ \t]+[A-Za-z(]")
_PLAIN = re.compile(r"[a-z][a-z-]*")
# an SSID as wpa_passphrase takes it: quoted or one word (32 bytes at most)
_NMCLI_SECRET = r"(?:password|(?:wifi-sec|802-11-wireless-security)\.(?:psk|wep-key[0-3]|leap-password))"
_SSID = r"(?:\"[^\"\n]{1,32}\"|'[^'\n]{1,32}'|[^\s\"'|;&<>]{1,32})"


def _wifi() -> list[tuple[str, re.Pattern[str], Any]]:
    """psk= lines, wpa_passphrase's argument, nmcli's password and psk."""
    return [
        # why: "wpa_psk", "#psk", "wifi-sec.psk:" and "802-11-wireless-security.psk:" too: only a letter or
        # a digit glued before it makes another word
        *[("wifi-password", re.compile(r"(?P<keep>" + psk + r"(?<![A-Za-z0-9]" + psk + r")(?:\\{0,7}[\"'])?"
                                       r"(?P<sep>[ \t]*[:=][ \t]*)(?P<q>\\{0,7}[\"'])?)" + _PSK_VALUE), _psk)
          for psk in ("psk", "PSK")],
        ("wifi-password", re.compile(r"(?P<keep>" + _lead("wpa_passphrase", r"[ \t]+" + _SSID + r"[ \t]+" + _QUOTE)
                                     + ")" + _VALUE + r"(?(q)(?P=q))(?=[ \t]*(?:[\r\n|;&>)]|$))"), _unless_reference),
        ("wifi-password", re.compile(r"(?P<keep>" + _lead("nmcli", _ON_LINE + _NMCLI_SECRET + r"[ \t]+" + _QUOTE) + ")"
                                     + _VALUE), _unless_reference),
    ]


def _psk(m: re.Match[str], mark: str) -> str:
    """A psk's value of 8 characters or more, unless a reference, a placeholder or prose after a colon."""
    value = m.group("value")
    if len(value) < 8 or value.startswith("-") or value.lower() in _NOT_SECRETS:
        return m.group(0)
    if ":" in m.group("sep") and _PLAIN.fullmatch(value) and _PROSE_AFTER.match(m.string, m.end()):
        return m.group(0)  # "PSK: pre-shared key"
    return _unless_reference(m, mark)
