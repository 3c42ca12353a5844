"""SHA-256 for the hooks' path: the interpreter's own module, not ``hashlib``.

why: ``import hashlib`` (and ``hmac``, which imports it) loads OpenSSL's ``_hashlib``: 6 to 8 ms more
on a hook's start than the interpreter's own SHA-256 module (``_sha2`` from 3.12, ``_sha256``
before), which gives the same digest (benchmarks/bench_private_modules.py). hashlib stays the
fallback for a build without them. Used by the Stop hook's turn digest (queue/turn.py) and the
approvals' MAC (memory/approval_key.py). Hot path: nothing imported at top level.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    class Sha256(Protocol):
        """What our callers read of a SHA-256 object (hashlib's, or the interpreter's own module's)."""

        def digest(self) -> bytes: ...

        def hexdigest(self) -> str: ...


_FOUND: list[Callable[[bytes], Sha256]] = []  # the constructor, once found


def sha256() -> Callable[[bytes], Sha256]:
    """The SHA-256 constructor: ``sha256()(data).hexdigest()``. why kept once found: a failed import is
    not remembered, so on 3.11 each call searched the whole path for ``_sha2`` again (49 us; an approval's
    MAC calls this, and SessionStart checks one MAC per approved entry)."""
    if _FOUND:
        return _FOUND[0]
    for name in ("_sha2", "_sha256"):
        try:
            _FOUND.append(__import__(name).sha256)
            return _FOUND[0]
        except (ImportError, AttributeError):
            continue
    import hashlib

    _FOUND.append(hashlib.sha256)
    return _FOUND[0]
