"""Which ledger lines are this machine's own spend (ADR 0065): the spend caps count only those.

The ledger is synced (docs/how/sync.md), so any machine that can push to the remote can add lines to
it. Each line :func:`ledger.record` writes ends with ``"mac"``: a keyed digest of the line before it
under this machine's spend key, which never leaves the machine:

    <machine state>/spend.key            32 random bytes, mode 0600, made on first need
    <machine state>/spend-adopted.json   {"version": 1, "at": ts, "lines": [...]}: digests of the lines
                                         without a MAC the ledger held when the key was made

A line counts as this machine's when its MAC is this key's (once: the same line repeated by a remote
counts once), or when it is a line from before the key that the ledger held when the key was made
(the upgrade: what was counted then still is). Another machine's lines, a line copied with this
machine's MAC and another amount, and any line a remote adds without a MAC are shown by ``lh cost``
but stop nothing here. A key file that may not be used (a link, another user's, open to others)
makes :func:`ring` return None: then every line counts, as before (the cap fails closed).
"""

from __future__ import annotations

import json
import os
import time

from lazy_harness import paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    Lines = Callable[[float], Iterable[bytes]]  # the ledger's lines dated from a time (ledger.raw_since)

KEY_FILE = "spend.key"
ADOPTED_FILE = "spend-adopted.json"
KEY_BYTES = 32
MAC_HEX = 32  # a 16-byte digest
_TAIL = b',"mac":"'  # what a signed line ends with, before its MAC and '"}'
_PERSON = b"lh-ledger-1"
ADOPT_DAYS = 62  # why: the unsigned lines of this month and the last, whatever the day of the upgrade


def _folder(env: Mapping[str, str] | None) -> str:
    """What this machine keeps about the whole memory (``paths.machine_state_dir``): machine-local,
    every profile's, never synced; not the cache, whose deletion would forget this month's spend."""
    return paths.machine_state_dir(env)


def key_file(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(_folder(env), KEY_FILE)


def adopted_file(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(_folder(env), ADOPTED_FILE)


def digest(raw: bytes) -> str:
    """A line's bytes, as the adopted list names them."""
    import hashlib  # why here: the worker's and the commands' path, never a hook's

    return hashlib.blake2b(raw, digest_size=16).hexdigest()


class Ring:
    """This machine's spend key and the lines adopted with it."""

    def __init__(self, key: bytes, adopted: Iterable[str] = ()) -> None:
        import hashlib  # why here: the worker's and the commands' path, never a hook's

        self.adopted = frozenset(adopted)
        # why one keyed state copied per line: keying costs as much as hashing a ledger line
        self._keyed = hashlib.blake2b(key=key, digest_size=MAC_HEX // 2, person=_PERSON)

    def mac(self, body: bytes) -> str:
        h = self._keyed.copy()
        h.update(body)
        return h.hexdigest()

    def sign(self, text: str) -> str:
        """A line (compact JSON of an object) with its MAC added as its last field."""
        body = text.encode("utf-8")
        return f'{text[:-1]},"mac":"{self.mac(body)}"}}'

    def signed_by(self, raw: bytes) -> str | None:
        """The MAC of ``raw`` when this key made it, else None."""
        cut = len(raw) - MAC_HEX - 2
        if cut <= len(_TAIL) or not raw.endswith(b'"}') or raw[cut - len(_TAIL):cut] != _TAIL:
            return None
        said = raw[cut:-2].decode("ascii", "replace")
        body = raw[:cut - len(_TAIL)] + b"}"
        return said if _same(said, self.mac(body)) else None

    def mine(self, raw: bytes, seen: set[str]) -> bool:
        """Whether ``raw`` is this machine's spend, not counted already in this read (``seen``)."""
        raw = raw.rstrip(b"\r")
        said = self.signed_by(raw)
        if said is None:
            if not self.adopted or _TAIL in raw:
                return False
            said = digest(raw)
            if said not in self.adopted:
                return False
        if said in seen:  # why: a remote that repeats one of this machine's lines adds no spend
            return False
        seen.add(said)
        return True


def _same(a: str, b: str) -> bool:
    import hmac

    return hmac.compare_digest(a, b)


def _problem(path: str) -> str | None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return str(exc)
    import stat

    if not stat.S_ISREG(st.st_mode):
        return "not a file"
    if st.st_uid != os.geteuid() or st.st_mode & 0o077 or st.st_size < 16:
        return "not yours, open to others, or too short"
    return None


def ring(env: Mapping[str, str] | None, lines: Lines) -> Ring | None:
    """This machine's key and adopted lines, made on first need (adopting the unsigned ones of
    ``lines``); None when the key file may not be used or cannot be made."""
    path = key_file(env)
    if _problem(path):
        return None
    if not os.path.exists(path):
        try:
            _make(path, env, lines)
        except OSError:
            return None
        if _problem(path):
            return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        try:
            key = os.read(fd, 4096)
        finally:
            os.close(fd)
    except OSError:
        return None
    return Ring(key, _adopted(env))


def _adopted(env: Mapping[str, str] | None) -> list[str]:
    from lazy_harness.regular_file import read_regular

    try:
        data = json.loads(read_regular(adopted_file(env)))
    except (OSError, ValueError):
        return []
    lines = data.get("lines") if isinstance(data, dict) else None
    return [d for d in lines if isinstance(d, str)] if isinstance(lines, list) else []


def _make(path: str, env: Mapping[str, str] | None, lines: Lines) -> None:
    """The adopted lines, then the key (never over a key another process made first)."""
    from lazy_harness import private
    from lazy_harness.atomic import atomic_write

    private.make(os.path.dirname(path))
    now = time.time()
    unsigned = sorted({digest(raw) for raw in lines(now - ADOPT_DAYS * 86400) if _TAIL not in raw})
    if unsigned:
        text = json.dumps({"version": 1, "at": round(now, 3), "lines": unsigned})
        atomic_write(adopted_file(env), text, mode=0o600)
    atomic_write(path, os.urandom(KEY_BYTES), mode=0o600, exclusive=True)
