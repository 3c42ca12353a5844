"""This person's approval key and the MACs it makes (ADR 0052): the part of approvals that reads no
memory (memory/approval.py reads the approvals in memory and adopts them). Below every memory module,
so that a render (handoff.md's marks) can check an approval without the modules that read items.

    <config folder>/approval.key          32 random bytes, mode 0600, made on first need; beside config.toml
                                          (``$XDG_CONFIG_HOME/lazy-harness``, also when ``$LH_CONFIG``
                                          names a config file elsewhere: a dotfiles folder may be synced)
    <state folder>/approvals-adopted.json {"version": 1, "at": ts, "macs": [...]}: the approvals present
                                          when this version first read approvals on this machine

The MAC is HMAC-SHA256 under the key of

    "lazy-harness approval 1" NUL <kind> NUL <id> NUL <16-byte digest of the text the hold check reads>

A key file that is a link, not the user's own, or open to group or others is refused with one line
(:class:`KeyRefused`); readers then honour no approval.

Hot path: ``os``, our hot-path modules, and at call time the interpreter's own SHA-256 module (as
queue/turn.py: ``hashlib`` and ``hmac`` load OpenSSL, 6 to 8 ms on a hook's start).
"""

from __future__ import annotations

import os

from lazy_harness import jsonload, paths
from lazy_harness.errors import LhError
from lazy_harness.memory import ids
from lazy_harness.regular_file import read_regular

TYPE_CHECKING = False  # why: not typing's: the hooks load this module (house style section 3)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

KEY_FILE = "approval.key"
ADOPTED_FILE = "approvals-adopted.json"
KEY_BYTES = 32
# said of an approval that is not this person's (its MAC is none this key gives, nor adopted)
NOT_HERE = "approved on another machine or by a synced file: approve here to show it"
_LABEL = b"lazy-harness approval 1"
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))
_KIND, _REG, _LINK = 0o170000, 0o100000, 0o120000


class KeyRefused(LhError):
    """The approval key may not be used: what and why, one line, and what to run."""


def key_file(env: Mapping[str, str] | None = None) -> str:
    """Where this person's approval key is: beside config.toml in lazy-harness's own config folder."""
    # why not beside $LH_CONFIG's file: it may live in a synced dotfiles folder
    return os.path.join(paths.config_home(env), KEY_FILE)


def adopted_file(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(paths.state_dir(env), ADOPTED_FILE)


def key_problem(path: str) -> str | None:
    """Why the key file ``path`` may not be used, or None (also when it does not exist)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"approval key {path} cannot be looked at ({exc.strerror or exc})"
    if st.st_mode & _KIND == _LINK:
        return f"approval key {path} is a symbolic link"
    if st.st_mode & _KIND != _REG:
        return f"approval key {path} is not a file"
    if st.st_uid != os.geteuid():
        return f"approval key {path} belongs to uid {st.st_uid}, not to you (uid {os.geteuid()})"
    if st.st_mode & 0o077:
        return f"approval key {path} is open to group or others (mode {st.st_mode & 0o7777:04o})"
    if st.st_size < 16:
        return f"approval key {path} holds {st.st_size} bytes, not a key"
    return None


def _refuse(path: str, why: str) -> KeyRefused:
    hint = f"chmod 600 {path}" if "open to group" in why else f"remove {path}; lh memory approve makes a new one"
    return KeyRefused(why, hint=hint)


_KEYS: dict[tuple, bytes] = {}


def read_key(env: Mapping[str, str] | None = None, create: bool = False) -> bytes | None:
    """This person's key (None when there is none yet and ``create`` is false). Raises
    :class:`KeyRefused` for a key file that may not be used."""
    path = key_file(env)
    why = key_problem(path)
    if why:
        raise _refuse(path, why)
    try:
        st = os.stat(path)
    except OSError:
        if not create:
            return None
        _make_key(path)
        return read_key(env)
    stamp = (path, st.st_ino, st.st_mtime_ns, st.st_size)
    if stamp not in _KEYS:
        # why read_regular: a FIFO put in the key's place after key_problem looked would hold open()
        _KEYS[stamp] = read_regular(path, 4096, flags=getattr(os, "O_NOFOLLOW", 0))
    return _KEYS[stamp]


def _make_key(path: str) -> None:
    """32 random bytes written to ``path``, 0600, in a folder of ours (private.py); never over a key."""
    from lazy_harness import private

    try:
        private.make(os.path.dirname(path))
    except private.UnsafeFolder as exc:
        raise KeyRefused(f"approval key not made: {exc}", hint=private.fix(os.path.dirname(path), str(exc))) from None
    from lazy_harness.atomic import atomic_write

    # why whole: a key made in place and cut by a kill was a file of 0 bytes that refused every later
    # approve; exclusive: another process that made it first keeps its key, and this one is read
    atomic_write(path, os.urandom(KEY_BYTES), mode=0o600, exclusive=True)


def hmac_sha256(key: bytes, msg: bytes) -> bytes:
    """HMAC-SHA256 (RFC 2104) of ``msg`` under ``key``: ``hmac.new(key, msg, "sha256").digest()``."""
    from lazy_harness.sha import sha256

    sha: Callable = sha256()
    if len(key) > 64:
        key = sha(key).digest()
    key = key.ljust(64, b"\0")
    inner = sha(key.translate(_IPAD) + msg).digest()
    return sha(key.translate(_OPAD) + inner).digest()


def mac(key: bytes, kind: str, eid: str, text: str) -> str:
    """The MAC (hex) of an approval of entry ``eid`` of ``kind`` whose checked text is ``text``."""
    msg = b"\0".join((_LABEL, kind.encode(), eid.encode(), ids.text_digest(text).encode()))
    return hmac_sha256(key, msg).hex()


def sign(kind: str, eid: str, text: str, env: Mapping[str, str] | None = None) -> str:
    """The MAC of this person's approval of ``eid`` with ``text``; the key is made on first need."""
    key = read_key(env, create=True)
    assert key is not None
    return mac(key, kind, eid, text)


def _same(a: str, b: str) -> bool:
    """``a == b`` in a time that does not tell where they differ (``hmac.compare_digest``)."""
    from _operator import _compare_digest  # why: hmac's own, without hmac's import of hashlib

    return bool(_compare_digest(a.encode(), b.encode()))


def counts(kind: str, eid: str, text: str, given: Iterable[object], env: Mapping[str, str] | None = None) -> bool:
    """Whether an approval of ``eid`` (its MACs ``given``) counts for ``text``: one of them is this
    person's MAC of it, or that MAC was adopted. Never raises: a refused key honours nothing."""
    try:
        key = read_key(env)
    except KeyRefused:
        return False
    if key is None:
        return False
    want = mac(key, kind, eid, text)
    return any(isinstance(g, str) and _same(g, want) for g in given) or want in adopted(env)



_ADOPTED: dict[tuple, dict] = {}


def adopted_data(env: Mapping[str, str] | None) -> dict:
    """The adopted file: ``{"version": 1, "key_was_here": bool, "roots": {folder: ts}, "macs": [...]}``;
    {} when missing or damaged."""
    path = adopted_file(env)
    try:
        st = os.stat(path)
    except OSError:
        return {}
    stamp = (path, st.st_ino, st.st_mtime_ns, st.st_size)
    if stamp not in _ADOPTED:
        try:  # why read_regular: a FIFO in the file's place held the session start in open() for good
            data = jsonload.loads(read_regular(path))
        except (OSError, ValueError):
            data = None
        ok = isinstance(data, dict) and isinstance(data.get("macs"), list) and isinstance(data.get("roots"), dict)
        _ADOPTED[stamp] = data if ok else {}
    return _ADOPTED[stamp]


def adopted(env: Mapping[str, str] | None = None) -> frozenset[str]:
    """The MACs taken as the person's at the first read of approvals on this machine."""
    return frozenset(m for m in adopted_data(env).get("macs", ()) if isinstance(m, str))
