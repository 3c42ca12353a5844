"""The hooks' SHA-256 (sha.py): the digest hashlib gives, and its module looked for once per process."""

import builtins
import hashlib

from lazy_harness import sha


def test_the_digest_is_hashlibs():
    for data in (b"", b"abc", bytes(range(256)) * 5):
        assert sha.sha256()(data).hexdigest() == hashlib.sha256(data).hexdigest()


def test_the_module_is_looked_for_once(monkeypatch):
    monkeypatch.setattr(sha, "_FOUND", [])
    asked = []
    real = builtins.__import__

    def counting(name, *args, **kwargs):
        if name in ("_sha2", "_sha256", "hashlib"):
            asked.append(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", counting)
    first = sha.sha256()
    looked = len(asked)
    for _ in range(50):  # an approval's MAC asks three times; SessionStart one MAC per approved entry
        assert sha.sha256() is first
    assert looked >= 1 and len(asked) == looked, asked
