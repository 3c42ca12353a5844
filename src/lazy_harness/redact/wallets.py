"""Rules of ``lazy_harness.redact`` for crypto wallets: an Ethereum/EVM private key (``0x`` and 64 hex
digits) where its line says it is a key, and a BIP-39 mnemonic (12 to 24 small words) under a
mnemonic or seed-phrase label. The table of kinds (``redact.kinds``) places them.

A transaction or block hash, a storage slot, a topic and a contract's address (40 hex digits) have
the same shape as a key or a shorter one: only the words before the value on its line tell them
apart (``private key``, ``--private-key``, ``new Wallet(``, hardhat's ``accounts: [``), or anvil's
``Private Keys`` list above ``(0) 0x...``. A mnemonic must follow its label and a ``:`` or ``=``,
count 12, 15, 18, 21 or 24 words of 3 to 8 small letters (the BIP-39 lists' words) and be no
sentence ("seed phrase: never share these words with anyone" holds several common short words).
"""

from __future__ import annotations

import re
from typing import Any

# what says the 64 hex digits after it on the line are a private key
_KEY_CONTEXT = re.compile(r"(?i:priv(?:ate)?[ \t_.-]?key|signer[ \t_.-]?key|(?<![a-z0-9])pk(?![a-z0-9])"
                          r"|wallet\(|from_?key\(|accounts[\"']?[ \t]*:[ \t]*\[)")
# anvil's start: "Private Keys", a rule of "=", then "(0) 0x..." lines, the one being judged last
_ANVIL = re.compile(r"Private Keys[ \t]*\r?\n=+[ \t]*\r?\n(?:[ \t]*\r?\n|\(\d+\)[ \t]+\S+[^\n]*\n)*\(\d+\)[ \t]+\Z")
# a label's tail, its literal first (the engine skips to it): mnemonic, seed phrase, recovery phrase
# (seedPhrase, SEED_PHRASE, Recovery Phrase: the word before "phrase" is checked by _mnemonic)
_LABELS = ("nemonic(?<=[mM]nemonic)", "NEMONIC(?<=MNEMONIC)", "hrase(?<=[pP]hrase)", "HRASE(?<=PHRASE)")
_PHRASE_OF = re.compile(r"(?i:seed|recovery)[ _-]?\Z")
# common short words of English: a sentence after a label holds several, a mnemonic hardly one
_PROSE = frozenset(("the", "and", "for", "you", "your", "with", "not", "are", "was", "this", "that", "have",
                    "from", "will", "can", "but", "any", "our", "its", "into", "when", "then", "than", "them",
                    "they", "their", "there", "what", "which", "who", "how", "should", "would", "could", "must",
                    "never", "these", "those", "here", "only", "also", "each", "every"))
_COUNTS = frozenset((12, 15, 18, 21, 24))


def _wallets() -> list[tuple[str, re.Pattern[str], Any]]:
    """An EVM private key in key context; a mnemonic under its label."""
    return [
        # why: the literal "0x" first (the engine skips to it); the context is judged in Python
        ("evm-private-key", re.compile(r"0x(?<![A-Za-z0-9_]0x)[0-9a-fA-F]{64}(?![A-Za-z0-9_])"), _evm_key),
        # why: one pattern per label's literal, case-sensitive: an alternation under re.IGNORECASE cost
        # 8 ms a megabyte, these 0.3 ms each
        *[("mnemonic", re.compile(r"(?P<keep>" + label + r"[A-Za-z0-9_]{0,20}(?:\\{0,7}[\"'])?[ \t]*(?:[:=]|\\u003d)"
                                  r"[ \t]*(?:\r?\n[ \t]*)?(?:\\{0,7}[\"'])?)"
                                  r"(?P<value>[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,23})(?![ \t]*[a-z])"), _mnemonic)
          for label in _LABELS],
    ]


def _evm_key(m: re.Match[str], mark: str) -> str:
    """``0x`` and 64 hex digits after words on its line that say key, or in anvil's list of private keys."""
    text = m.string
    line = text[max(0, m.start() - 200):m.start()].rsplit("\n", 1)[-1]
    if _KEY_CONTEXT.search(line) or (line.lstrip().startswith("(") and _ANVIL.search(text, max(0, m.start() - 4000),
                                                                                     m.start())):
        return mark
    return m.group(0)


def _mnemonic(m: re.Match[str], mark: str) -> str:
    """The words after a mnemonic's label, when they count as a mnemonic does and are no sentence."""
    words = m.group("value").split()
    if m.group("keep")[0] in "hH" and not _PHRASE_OF.search(m.string, max(0, m.start() - 12), m.start() - 1):
        return m.group(0)  # a phrase of another kind ("pass phrase" is the assignment rule's)
    if len(words) not in _COUNTS or sum(w in _PROSE for w in words) >= 3:
        return m.group(0)
    return m.group("keep") + mark
