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
but stop nothing here. A key file that may not be used (a link, another user's, open to others),
or a state folder that is not the person's own, makes :func:`ring` return None: then every line
counts, as before (the cap fails closed), and a line written meanwhile is adopted (:func:`adopt_written`).

The key is made by the first spender (``budget.open_call``, ``ledger.record``) under
``spend-key.lock``; a read makes nothing and counts what the making would adopt. The adopted file is
written at every key made, so a key gone while it is there was lost: the next key adopts every line
of the last 62 days, signed or not (``"lost"``), so that no spend of the day is forgotten.
"""

from __future__ import annotations

import json
import os
import time

from lazy_harness import paths
from lazy_harness.regular_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    Lines = Callable[[float], Iterable[bytes]]  # the ledger's lines dated from a time (ledger.raw_since)

KEY_FILE = "spend.key"
ADOPTED_FILE = "spend-adopted.json"
LOCK_FILE = "spend-key.lock"  # held while the key is made or a line is adopted
KEY_BYTES = 32
MIN_KEY_BYTES, MAX_KEY_BYTES = 16, 64  # a key file outside these may not be used (BLAKE2b's largest key: 64)
MAC_HEX = 32  # a 16-byte digest
_TAIL = b',"mac":"'  # what a signed line ends with, before its MAC and '"}'
_PERSON = b"lh-ledger-1"
_ID_PERSON = b"lh-ledger-id-1"  # the key's id (``"by"``): a digest of the key, never the key
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
    """This machine's spend key and the lines adopted with it; ``signed_too``: the key was made again
    after one was lost, so lines with a MAC were adopted as well (:func:`_make`). Without a key (none
    made yet: a read only, :func:`ring` ``make`` false) the lines count as the key's making would adopt
    them: those without a MAC, or every line when ``signed_too``."""

    def __init__(self, key: bytes | None, adopted: Iterable[str] = (), signed_too: bool = False) -> None:
        import hashlib  # why here: the worker's and the commands' path, never a hook's

        self.adopted = frozenset(adopted)
        self.signed_too = signed_too
        # why one keyed state copied per line: keying costs as much as hashing a ledger line
        self._keyed = None if key is None else hashlib.blake2b(key=key, digest_size=MAC_HEX // 2, person=_PERSON)
        # why an id: a line edited by hand fails its MAC like another machine's line; the id it keeps
        # says it was this machine's, so lh cost and lh doctor can name it (it is no secret: a digest)
        self.id = "" if key is None else hashlib.blake2b(key=key, digest_size=6, person=_ID_PERSON).hexdigest()

    def mac(self, body: bytes) -> str:
        if self._keyed is None:
            raise ValueError("no spend key to sign with")
        h = self._keyed.copy()
        h.update(body)
        return h.hexdigest()

    def sign(self, text: str) -> str:
        """A line (compact JSON of an object) with this key's id (``"by"``) and its MAC added as its last fields."""
        text = f'{text[:-1]},"by":"{self.id}"}}'
        return f'{text[:-1]},"mac":"{self.mac(text.encode("utf-8"))}"}}'

    def claims(self, raw: bytes, entry: Mapping[str, object], signed: bool | None = None) -> bool:
        """Whether the line ``raw`` (parsed: ``entry``) carries this key's id (its ``"by"``) but not a MAC
        of this key (``signed``: whether it has one, when :meth:`marked` said so already): it counts
        nothing. A line of this machine changed since it was written (by hand, a tool that rewrote it),
        or one another machine wrote with this id: the id is no proof, a remote can copy it from any
        synced line."""
        if signed or not self.id or entry.get("by") != self.id:
            return False
        return signed is not None or self.signed_by(bare(raw)) is None

    def signed_by(self, raw: bytes) -> str | None:
        """The MAC of ``raw`` when this key made it, else None."""
        cut = len(raw) - MAC_HEX - 2
        if self._keyed is None or cut <= len(_TAIL) or not raw.endswith(b'"}') or raw[cut - len(_TAIL):cut] != _TAIL:
            return None
        # why not self.mac() of a joined copy: this runs for every line of the month at each cap check
        h = self._keyed.copy()
        h.update(raw[:cut - len(_TAIL)])
        h.update(b"}")
        mac = h.hexdigest()
        # why bytes: a remote's "mac" may hold any bytes, and compare_digest raises TypeError on a str
        # that is not ASCII (it stopped every cap check)
        return mac if _same(raw[cut:-2], mac.encode("ascii")) else None

    def marked(self, raw: bytes) -> tuple[str | None, bool]:
        """What ``ledger.period`` knows ``raw`` by when it is this machine's spend (its MAC, or the digest of
        an adopted line), else None; and whether this key signed it (:meth:`claims` is false then)."""
        # why bare: a line padded with spaces (a hand edit, a remote's copy) or after a byte order mark (an
        # editor's save) is the same JSON to every reader, and was no longer this machine's spend
        raw = bare(raw)
        said = self.signed_by(raw)
        if said is not None:
            return said, True
        keyed = self._keyed is not None
        if (keyed and not self.adopted) or (_TAIL in raw and not self.signed_too):
            return None, False
        said = digest(raw)
        return (None if keyed and said not in self.adopted else said), False


_BOM = b"\xef\xbb\xbf"


def bare(raw: bytes) -> bytes:
    """A line without the spaces around it nor a UTF-8 byte order mark: what its MAC and digest are of."""
    raw = raw.strip()
    return raw[len(_BOM):].strip() if raw.startswith(_BOM) else raw


def _same(a: bytes, b: bytes) -> bool:
    from hmac import compare_digest  # why here: the worker's and the commands' path, never a hook's

    return compare_digest(a, b)


def _problem(path: str) -> str | None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return str(exc)
    import stat

    if stat.S_ISDIR(st.st_mode):
        return FOLDER
    if not stat.S_ISREG(st.st_mode):
        return "not a file"
    if st.st_uid != os.geteuid():
        return f"it belongs to uid {st.st_uid}, not to you"
    if st.st_mode & 0o077:
        return f"{OPEN} (mode {st.st_mode & 0o7777:04o})"
    # why the mode, not access(): root reads a file of mode 0000, any other user cannot; either way
    # the key was taken away from the person (chmod 000, a restore), so it is not used and said
    if not st.st_mode & stat.S_IRUSR:
        return f"{UNREADABLE} (mode {st.st_mode & 0o7777:04o})"
    if st.st_size < MIN_KEY_BYTES:
        return "shorter than a key"
    # why: BLAKE2b takes a key of 64 bytes at most; a longer file (a tool that appended to it) raised
    # ValueError in every cap check, lh cost, lh doctor and lh status
    return "longer than a key" if st.st_size > MAX_KEY_BYTES else None


OPEN = "open to group or others"
UNREADABLE = "not readable"
FOLDER = "a folder, not a file"


def key_problem(env: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """Why this machine's spend key may not be used (the caps then count every line), and what to run;
    None when it may (or is not made yet). For ``lh doctor``, ``lh status`` and ``lh cost``."""
    from lazy_harness import private

    folder, path = _folder(env), key_file(env)
    why = private.problem(folder)
    if why:
        return why, private.fix(folder, why)
    why = _problem(path)
    if why is None:
        return None
    import shlex

    quoted = shlex.quote(path)
    if why.startswith((OPEN, UNREADABLE)):
        fix = f"chmod 600 {quoted}"
    elif why == FOLDER:  # why not rm: rm of a folder fails
        fix = f"mv {quoted} {shlex.quote(path + '.aside')} (the next model call makes a new key)"
    else:
        fix = f"rm {quoted} (a new key is made)"
    return f"{path} may not be used: {why}", fix


def ring(env: Mapping[str, str] | None, lines: Lines, make: bool = True) -> Ring | None:
    """This machine's key and adopted lines, made on first need (adopting the unsigned ones of
    ``lines``); None when the key file may not be used or cannot be made, or when its folder is not
    the person's own (``private.problem``: another user could take the key away or put theirs there).
    ``make`` false (a read: ``lh doctor``, ``lh status``, ``lh cost``, a cap check) makes nothing: with
    no key yet, a keyless ring that counts the lines its making would adopt. why: those commands are
    read-only, and made the state folder and the key (in a relative HOME's folder in the current one)."""
    from lazy_harness import private

    path = key_file(env)
    if private.problem(_folder(env)) or _problem(path):
        return None
    if not make and not os.path.lexists(path):
        return Ring(None, (), key_gone(env))
    if not os.path.exists(path):
        try:
            _make(path, env, lines)
        except OSError:
            return None
        if _problem(path):
            return None
    try:
        fd, _ = open_regular(path, getattr(os, "O_NOFOLLOW", 0))  # why: a FIFO put there since held the worker
        try:
            key = os.read(fd, 4096)
        finally:
            os.close(fd)
    except OSError:
        return None
    if not MIN_KEY_BYTES <= len(key) <= MAX_KEY_BYTES:  # why: grown or cut since its size was looked at
        return None
    data = _adopted(env)
    return Ring(key, _digests(data), _lost(data) is not None)


def _adopted(env: Mapping[str, str] | None) -> dict:
    """The adopted file's object ({} when there is none or it is not one)."""
    from lazy_harness.regular_file import read_regular

    try:
        data = json.loads(read_regular(adopted_file(env)))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _digests(data: Mapping[str, object]) -> list[str]:
    lines = data.get("lines")
    return [d for d in lines if isinstance(d, str)] if isinstance(lines, list) else []


def _lost(data: Mapping[str, object]) -> float | None:
    """When the key was made again after one was lost (``"lost"``), else None."""
    at = data.get("lost")
    # why bounded: a hand edit's 1e999 or huge integer must not stop lh doctor (localtime)
    if not isinstance(at, (int, float)) or isinstance(at, bool) or not 0 <= at < 32503680000:
        return None
    return float(at)


def lost_at(env: Mapping[str, str] | None = None) -> float | None:
    """When this machine's spend key was made again after the one before was lost, None when it never
    was (``lh doctor`` says so while the lines it adopted can count: :data:`ADOPT_DAYS`)."""
    return _lost(_adopted(env))


def key_gone(env: Mapping[str, str] | None = None) -> bool:
    """Whether a key was made here and is gone (lost): the adopted file without the key."""
    return not os.path.lexists(key_file(env)) and os.path.lexists(adopted_file(env))


def _lock(env: Mapping[str, str] | None) -> int:
    from lazy_harness.atomic import lock

    return lock(os.path.join(_folder(env), LOCK_FILE))


def _make(path: str, env: Mapping[str, str] | None, lines: Lines) -> None:
    """The adopted lines, then the key, under the key's lock (one maker at a time; none over a key
    another process made first). The adopted file is written at each key made: found without a key,
    it says a key was here and was lost (deleted by hand, a cleanup): the lines this machine signed
    with it can no longer be told apart, so the new key adopts every line of the last
    :data:`ADOPT_DAYS` days, signed or not. why: adopting only the unsigned ones forgot the day's
    spend, and the cap let the machine spend the day again; this way it fails closed (another
    machine's lines of the month count here too, until the month ends)."""
    from lazy_harness import private
    from lazy_harness.atomic import atomic_write

    private.make(os.path.dirname(path))
    fd = _lock(env)
    try:
        if os.path.lexists(path):
            return  # why: made by another process while this one waited
        lost = os.path.lexists(adopted_file(env))
        now = time.time()
        found = sorted({digest(bare(raw)) for raw in lines(now - ADOPT_DAYS * 86400) if lost or _TAIL not in raw})
        data: dict[str, object] = {"version": 1, "at": round(now, 3), "lines": found}
        if lost:
            data["lost"] = round(now, 3)
        atomic_write(adopted_file(env), json.dumps(data), mode=0o600)
        atomic_write(path, os.urandom(KEY_BYTES), mode=0o600, exclusive=True)
    finally:
        os.close(fd)


def adopt_written(text: str, env: Mapping[str, str] | None) -> None:
    """A line this machine wrote without a MAC (its key could not be used: open to others, not a
    file) is adopted, so that it counts for the caps once the key may be used again. why: read as a
    remote's unsigned line, its spend was forgotten. Nothing when the state folder is not the
    person's own or cannot be written (the caps then count every line while the key cannot be used)."""
    from lazy_harness import private
    from lazy_harness.atomic import atomic_write

    if private.problem(_folder(env)) or not os.path.isdir(_folder(env)):
        return
    try:
        fd = _lock(env)
    except OSError:
        return
    try:
        data = _adopted(env)
        data.setdefault("version", 1)
        data.setdefault("at", round(time.time(), 3))
        data["lines"] = [*_digests(data), digest(text.encode("utf-8"))]
        atomic_write(adopted_file(env), json.dumps(data), mode=0o600)
    except OSError:
        return
    finally:
        os.close(fd)
