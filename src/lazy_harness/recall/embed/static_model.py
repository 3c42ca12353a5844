"""A text's vector from a static embedding table, in pure Python, cheap enough for the prompt hook (ADR
0025): one row per WordPiece token of all-MiniLM-L6-v2 (``tests/eval/build_static_model.py``), read through
mmap with its vocabulary; a text's vector is the sum of its tokens' rows as ``dims`` signed bytes. Each
file's SHA-256 must be the pinned one (``PINS``); a stamp of the checked file's identity in the caller's
state folder spares the hash (ADR 0025, "The check"). A file that cannot be used raises
:class:`lazy_harness.errors.StaticModelError`."""

from __future__ import annotations

import mmap
import os
from itertools import accumulate, repeat
from operator import mul

MODEL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "model")
PINS = {
    "table.bin": "12a3efeafd82a78636d7b7d7a396d1ebfae9e25a7c097cc9a96f99476ad1b4d2",
    "vocab.bin": "40b7c06580f9082fe9c44588d2559f2529a20ab72823432c28a4463e19b462dc",
}
# the identity of the vectors this module makes: a new table makes every stored vector stale
MODEL_ID = "minilm-l6-v2-static/" + PINS["table.bin"][:16]
TABLE_MAGIC = b"LHSTATIC"
VOCAB_MAGIC = b"LHVOCAB\0"
# the headers, little-endian: (name, bytes) after the 8-byte magic; read without ``struct`` (why: its
# extension module costs a fresh interpreter about 0.3 ms, more than the two headers' parsing)
TABLE_FIELDS = (("version", 2), ("size", 2), ("rows", 4), ("dims", 4), ("dtype", 1), ("flags", 1), ("pad", 2),
                ("scale", 4), ("reserved", 4))  # 32 bytes; scale is a float32, unused (1.0): each row has its own
VOCAB_FIELDS = (("version", 2), ("size", 2), ("words", 4), ("slots", 4), ("pool", 4), ("longest", 4),
                ("reserved", 4))  # 32 bytes; longest: the longest token in characters, without "##"
INT8 = 1
# why: a row times its scale as an integer (2**24 keeps the smallest scale to 3 parts in 10,000), so
# sums are exact and both ways of summing agree; BIAS keeps every packed lane non-negative
INT_SCALE = 1 << 24
BIAS = 1 << 31
PACKED_ROWS = 12_000  # rows kept packed for embed_many (about 2 KB each): beyond, the cache starts over
UNK = "[UNK]"
SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")  # the source tokenizer's added tokens
MAX_WORD = 100  # longer words are one [UNK], as the source tokenizer does
STAMP = "static-model.stamp"
HINT = "pip install --force-reinstall lazy-harness"


def _error(message: str) -> Exception:
    from lazy_harness.errors import StaticModelError

    return StaticModelError(message, HINT)


# -- the tokenizer ------------------------------------------------------------------------------

def header(buf: mmap.mmap, magic: bytes, fields: tuple[tuple[str, int], ...]) -> dict[str, int]:
    """The header fields after ``magic`` (ValueError when the magic is not there)."""
    if buf[:8] != magic:
        raise ValueError("wrong magic")
    starts = accumulate((size for _, size in fields), initial=8)  # one more than the fields: zip stops first
    return {name: int.from_bytes(buf[at:at + size], "little")
            for (name, size), at in zip(fields, starts, strict=False)}


_ASCII_PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
# ASCII: controls go (tab, newline, return become spaces), punctuation is set apart by spaces
_ASCII_CLEAN: dict[int, str | None] = {**dict.fromkeys([*range(32), 127]), 9: " ", 10: " ", 13: " "}
_ASCII_CLEAN.update({ord(c): f" {c} " for c in _ASCII_PUNCT})
_CJK = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
        (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def words(text: str) -> list[str]:
    """The text's words after the source tokenizer's BertNormalizer and BertPreTokenizer."""
    if text.isascii():
        return text.translate(_ASCII_CLEAN).lower().split()
    import unicodedata

    out = []
    for ch in text:
        cp = ord(ch)
        if ch in "\t\n\r" or (ch.isspace() and unicodedata.category(ch)[0] != "C"):
            out.append(" ")
        elif cp == 0 or cp == 0xFFFD or unicodedata.category(ch)[0] == "C":
            continue
        elif any(lo <= cp <= hi for lo, hi in _CJK):
            out.append(f" {ch} ")
        else:
            out.append(ch)
    nfd = unicodedata.normalize("NFD", "".join(out))
    # marks dropped, then lowercased per character, as the source tokenizer does
    text = "".join(c.lower() for c in nfd if unicodedata.category(c) != "Mn")
    return "".join(f" {ch} " if ch in _ASCII_PUNCT or unicodedata.category(ch)[0] == "P" else ch
                   for ch in text).split()


def _specials(text: str) -> list[tuple[str, bool]]:
    """``text`` cut around the special tokens typed in it: [(part, whether a special token)]."""
    if "[" not in text or not any(t in text for t in SPECIALS):
        return [(text, False)]
    out, start, at = [], 0, text.find("[")
    while at >= 0:
        hit = next((t for t in SPECIALS if text.startswith(t, at)), "")
        if hit:
            out += [(text[start:at], False), (hit, True)]
            start = at + len(hit)
        at = text.find("[", at + (len(hit) or 1))
    out.append((text[start:], False))
    return out


class Vocab:
    """token -> id over the mmap of ``vocab.bin``: open addressing, linear probing."""

    def __init__(self, buf: mmap.mmap) -> None:
        h = header(buf, VOCAB_MAGIC, VOCAB_FIELDS)
        size, n, slots, pool, longest = h["size"], h["words"], h["slots"], h["pool"], h["longest"]
        if h["version"] != 1 or not slots or slots & (slots - 1) or size + 4 * (slots + n + 1) + pool != len(buf):
            raise ValueError("not a vocabulary of version 1")
        view = memoryview(buf)
        self.words, self.mask, self.longest = n, slots - 1, longest
        self._slots = view[size:size + 4 * slots].cast("I")
        self._offsets = view[size + 4 * slots:size + 4 * (slots + n + 1)].cast("I")
        self._pool = view[size + 4 * (slots + n + 1):]

    def get(self, word: str) -> int:
        """The id of ``word``, -1 when it is not a token."""
        raw = word.encode("utf-8")
        slot = slot_of(raw, self.mask)
        while entry := self._slots[slot]:  # a token's id + 1, 0 for an empty slot
            if self._pool[self._offsets[entry - 1]:self._offsets[entry]] == raw:
                return entry - 1
            slot = (slot + 1) & self.mask
        return -1


def slot_of(raw: bytes, mask: int) -> int:
    """The first slot of a token's UTF-8 bytes: mod 2**61 - 1, then Fibonacci hashing (the top bits)."""
    return ((int.from_bytes(raw, "little") % 2305843009213693951) * 0x9E3779B97F4A7C15
            & 0xFFFFFFFFFFFFFFFF) >> (64 - mask.bit_length())


def wordpiece(word: str, vocab: Vocab, unk: int) -> list[int]:
    """Greedy longest match, continuations prefixed ``##``; a word that cannot be split is [UNK]."""
    if len(word) > MAX_WORD:
        return [unk]
    whole = vocab.get(word)
    if whole >= 0:
        return [whole]
    ids, start, n, longest = [], 0, len(word), vocab.longest
    while start < n:
        # why: no token is longer than ``longest``: a long word tries at most that many ends per piece
        for end in range(min(n, start + longest), start, -1):
            found = vocab.get(word[start:end] if start == 0 else "##" + word[start:end])
            if found >= 0:
                break
        else:
            return [unk]
        ids.append(found)
        start = end
    return ids


# -- the files ------------------------------------------------------------------------------------

def _read_stamps(state_dir: str | None) -> dict[str, str]:
    if not state_dir:
        return {}
    from lazy_harness.regular_file import read_regular

    try:
        data = read_regular(os.path.join(state_dir, STAMP), 4096, flags=os.O_NOFOLLOW).decode("utf-8", "replace")
    except OSError:
        return {}
    return dict(line.partition("\t")[::2] for line in data.splitlines())  # path -> identity and digest


def _write_stamps(state_dir: str, stamps: dict[str, str]) -> None:
    from lazy_harness.atomic import atomic_write, ensure_dir

    try:
        ensure_dir(state_dir)  # private to the user, as every folder of ours
        atomic_write(os.path.join(state_dir, STAMP), "".join(f"{p}\t{s}\n" for p, s in sorted(stamps.items())))
    except OSError:
        pass  # why: the stamp only saves time; without it the next load hashes again


def _hash_fd(fd: int) -> str:
    import hashlib

    os.lseek(fd, 0, os.SEEK_SET)
    with open(fd, "rb", closefd=False) as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _open_checked(path: str, want: str, stamps: dict[str, str]) -> tuple[mmap.mmap, bool]:
    """The file mapped, once its bytes are the pinned ones; and whether it had to be hashed."""
    from lazy_harness.regular_file import open_regular

    try:
        fd, st = open_regular(path)  # why: a FIFO in a model file's place held the embedding in open()
        try:
            seen = f"{st.st_dev} {st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {want}"
            hashed = stamps.get(path) != seen
            if hashed:
                got = _hash_fd(fd)
                if got != want:
                    raise _error(f"{path}: SHA-256 {got} is not the pinned {want}; not used")
                stamps[path] = seen
            if not st.st_size:
                raise _error(f"{path}: empty")
            return mmap.mmap(fd, 0, access=mmap.ACCESS_READ), hashed
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise _error(f"{path}: missing") from None
    except OSError as exc:
        raise _error(f"{path}: cannot be read: {exc.strerror or exc}") from None


class StaticModel:
    """The table and the vocabulary, checked and mapped."""

    def __init__(self, model_dir: str | None = None, state_dir: str | None = None) -> None:
        folder = model_dir or MODEL_DIR
        stamps = _read_stamps(state_dir)
        table_path, vocab_path = os.path.join(folder, "table.bin"), os.path.join(folder, "vocab.bin")
        self._table, hashed_t = _open_checked(table_path, PINS["table.bin"], stamps)
        self._vocab_map, hashed_v = _open_checked(vocab_path, PINS["vocab.bin"], stamps)
        if state_dir and (hashed_t or hashed_v):
            _write_stamps(state_dir, stamps)
        try:
            self.vocab = Vocab(self._vocab_map)
        except (ValueError, TypeError) as exc:
            raise _error(f"{vocab_path}: malformed: {exc}") from None
        try:
            h = header(self._table, TABLE_MAGIC, TABLE_FIELDS)
            size, rows, dims = h["size"], h["rows"], h["dims"]
            if h["version"] != 1 or h["dtype"] != INT8 or rows != self.vocab.words or not dims \
                    or size + rows * (4 + dims) != len(self._table):
                raise ValueError("not an int8 table of version 1 for this vocabulary")
        except (ValueError, TypeError) as exc:
            raise _error(f"{table_path}: malformed: {exc}") from None
        view = memoryview(self._table)
        self.dims = dims
        self._scales = view[size:size + 4 * rows].cast("f")
        self._rows = view[size + 4 * rows:].cast("b")
        self.unk = self.vocab.get(UNK)
        self._packed: dict[int, int] = {}

    def ids(self, text: str) -> list[int]:
        """The source tokenizer's ids for ``text`` (no [CLS] and [SEP] around it)."""
        out = []
        for part, special in _specials(text):
            if special:
                out.append(self.vocab.get(part))
            else:
                out += [i for w in words(part) for i in wordpiece(w, self.vocab, self.unk)]
        return out

    def embed(self, text: str) -> bytes:
        """``text``'s vector: ``dims`` signed bytes, the largest ±127 (all zero without a known token),
        summed exactly (``INT_SCALE``) so that :meth:`embed_many` gives the very same bytes."""
        d, rows, scales = self.dims, self._rows, self._scales
        times: dict[int, int] = {}
        for i in self.ids(text):
            times[i] = times.get(i, 0) + 1
        # zip walks the rows side by side (twice as fast as adding one row at a time into a list)
        acc = list(map(sum, zip(*[map(mul, rows[i * d:(i + 1) * d], repeat(round(scales[i] * INT_SCALE) * n, d))
                                  for i, n in times.items()], strict=True)))
        return _to_int8(acc, d)

    def warm(self) -> bool:
        """Whether rows are packed for :meth:`embed_many` already (then faster for a few texts too)."""
        return bool(self._packed)

    def embed_many(self, texts: list[str]) -> list[bytes]:
        """:meth:`embed` of each text, five times faster for many: a token's row packed into one integer."""
        import sys
        from array import array

        d, order, packed = self.dims, sys.byteorder, self._packed
        out = []
        for text in texts:
            if len(packed) > PACKED_ROWS:  # why: a long-lived process keeps its memory bounded
                packed.clear()
            ids, total = self.ids(text), 0
            for i in ids:
                row = packed.get(i)
                if row is None:
                    lanes = array("Q", [r * round(self._scales[i] * INT_SCALE) + BIAS
                                        for r in self._rows[i * d:(i + 1) * d]])
                    row = packed[i] = int.from_bytes(lanes.tobytes(), order)
                total += row
            sums = array("Q", total.to_bytes(8 * d, order))
            out.append(_to_int8([x - BIAS * len(ids) for x in sums], d))
        return out


def _to_int8(acc: list[int], d: int) -> bytes:
    peak = max(map(abs, acc), default=0)  # 0: a text without a known token (no sums at all for ``embed``)
    if not peak:
        return bytes(d)
    k = 127.0 / peak
    return bytes([round(v * k) & 0xFF for v in acc])


_loaded: dict[str | None, StaticModel] = {}


def load(model_dir: str | None = None, state_dir: str | None = None) -> StaticModel:
    """The model (checked, then kept for the life of the process): one per folder of model files, whatever
    ``state_dir`` (where the stamps that spare the next process the hash go) a later call names. Kept per
    state folder too, each call with a new one mapped the files again and held them open for good."""
    if model_dir not in _loaded:
        _loaded[model_dir] = StaticModel(model_dir, state_dir)
    return _loaded[model_dir]

