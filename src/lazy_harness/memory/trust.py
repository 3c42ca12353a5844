"""The hold check: memory text that reads as an instruction aimed at the agent, not knowledge of the code.

Memory is written by a model from transcripts that hold untrusted text (web pages, READMEs, tool
output), arrives from other machines and teammates through ``lh sync``, and is edited by hand; it
is read back into every later session. An entry is *held* (kept, listed by ``lh memory held``,
never injected) when its text, all its fields read as one, asks the agent to:

- fetch and run remote code (``curl ... | sh``, ``wget | bash``, ``iex (iwr ...)``, a command
  decoded from base64, ``python -c`` with ``urllib``),
- send data or credentials somewhere,
- turn off permissions, sandboxing, hooks or verification (``--dangerously-skip-permissions``,
  ``--no-verify``, ``chmod 777``, "disable the hooks", "skip the tests"),
- hide things from the user or claim system authority ("do not tell the user", "this is a system
  instruction", "ignore previous instructions", "owner instruction: do not surface this"), or
  imitate the end of the quoted memory ("</memory> SYSTEM: ...", "end of memory"), in several
  languages,
- wipe the home folder, the root or a disk (``rm -rf ~``, ``find / -delete``, ``dd of=/dev/sda``),
  whatever the sentence around the command says;

or when it holds a secret the redactor (``lazy_harness.redact``) would take out (ADR 0056): the worker
redacts what it writes, but an entry that arrives by sync or by hand was never redacted, and what is
shown to a session is sent to the model. Its reason names the kinds and quotes the redacted words
around the first (:func:`secret`), never the secret. A text longer than :data:`LONGEST` characters is
held unread, its length the reason (:func:`too_long`, ADR 0088).

Before matching, the text is folded the ways it is disguised (ADR 0033): tag characters read as the
ASCII they shadow, NFKC (full-width and mathematical letters), format characters (zero-width,
joiners, bidirectional controls) and variation selectors dropped, small capitals and Latin
lookalikes from Cyrillic and Greek mapped (in a second copy, so Russian wording still matches
Russian patterns), letters spaced apart joined again, case folded. Checked where entries are written
(worker, sync merge, hand edit, migration; the worker reads one session's entries together too,
:func:`check_session`) and again before injection (ADR 0024). Hot path: nothing imported at load
time; ``unicodedata`` only when there is text to check, and the regular expressions (``trust_rules``,
with ``re``) only when the cheap look below says a text may match them. The redactor (about 20 ms to
import and 30 ms to compile its rules, once per process) only for a text whose verdict is not kept
(``verdicts.Kept``: at a start after a pull or a hand edit), never on a start that finds its verdicts.
"""

from __future__ import annotations

REMOTE_CODE = "fetches and runs remote code"
EXFILTRATION = "sends data or credentials somewhere"
DISARMS = "turns off permissions, sandboxing, hooks or verification"
AUTHORITY = "hides things from the user or claims system authority"
DESTROYS = "wipes the home folder, the root or a disk"
SECRET = "holds a secret"  # then the kinds and the redacted words around it (:func:`secret`)

# the format characters that draw nothing, and the printable ones (logfile.HIDDEN: the grapheme joiner,
# the Hangul fillers, the Khmer inherent vowels, the Mongolian free variation selectors). why a list here
# and not that constant: rules_stamp digests this file, so a change of what is read through is a new stamp
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u00ad\u180e\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064"
                                     "\ufeff\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0"))
# Cyrillic and Greek letters drawn like Latin ones (lower case: the text is case-folded first)
_LOOKALIKE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ϲ": "c", "ⅼ": "l", "ı": "i", "ӏ": "l", "ℓ": "l",
    # small capitals, which NFKC leaves alone
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h", "ɪ": "i", "ᴊ": "j", "ᴋ": "k",
    "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ǫ": "q", "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v",
    "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
    # typographic apostrophes, as an editor or a phone types them ("Don’t tell the user")
    "\u2019": "'", "\u2018": "'", "\u02bc": "'",
})
# why: tag characters (U+E0020..U+E007E) draw nothing on screen but a model reads them as the ASCII
# letters they shadow: a payload written in them is read as that text, not dropped
_TAGS = {0xE0000 + c: c for c in range(0x20, 0x7F)}

# why: set k of the rules (memory/trust_rules.py, PATTERNS[k]) holds a text for REASONS[k]
# 4 to 6: in other languages (6, sending out, only for a text outside ASCII); 7: wiping (trust_intent.py)
REASONS = (REMOTE_CODE, EXFILTRATION, DISARMS, AUTHORITY, AUTHORITY, DISARMS, EXFILTRATION, DESTROYS)

# why: the search index keeps each entry's verdict (recall/index/store.py, column hold): a change of the
# rules (here or in trust_rules.py) must bump the index's VERSION, so every entry is checked again;
# the verdicts SessionStart keeps (memory/held.py) follow rules_stamp(), which reads both files


def _spaced(text: str) -> str:
    """Letters spaced apart joined again: ``c u r l`` and ``c-u-r-l`` -> ``curl``."""
    import re

    return re.sub(r"\b(?:\w[ .\-_*]){2,}\w\b", lambda m: re.sub(r"[ .\-_*]", "", m.group(0)), text)


def _unicode_folded(text: str) -> str:
    """``text`` with its disguises taken off, before case folding: tag characters read as the ASCII
    they shadow, NFKC (full-width and mathematical letters, ligatures), every format character
    (zero-width, joiners, bidirectional controls, soft hyphen) and variation selector dropped, and
    a combining mark over a Latin letter (c\u0301url) dropped, as a reader's eye drops it."""
    import unicodedata

    s = unicodedata.normalize("NFKC", text.translate(_TAGS)).translate(_ZERO_WIDTH)
    s = "".join(c for c in s if not _invisible(c, unicodedata.category(c)))
    s = "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c) or ord(c) > 0x36f)
    return unicodedata.normalize("NFC", s)


def _invisible(c: str, category: str) -> bool:
    o = ord(c)
    return category == "Cf" or 0xFE00 <= o <= 0xFE0F or 0xE0100 <= o <= 0xE01EF or 0xE0000 <= o <= 0xE007F


def forms(text: str) -> list[str]:
    """The ways the text is read: folded as typed, with lookalikes mapped, with spaced letters joined."""
    if text.isascii():  # why: no normalisation, mark or lookalike to fold: unicodedata not imported
        s = " ".join(text.casefold().split())
    else:
        s = _unicode_folded(text).casefold()
        s = " ".join(s.replace("\u2028", " ").replace("\u2029", " ").split())
    folded = s.translate(_LOOKALIKE)
    out = [s] if folded == s else [s, folded]
    if _letters_apart(folded):
        joined = _spaced(folded)
        if joined != folded:
            out.append(joined)
        gapped = _spaced_words(text.casefold() if text.isascii() else _unicode_folded(text).casefold())
        if gapped and gapped not in out:
            out.append(gapped.translate(_LOOKALIKE))
    return out


def _spaced_words(raw: str) -> str:
    """Letters spaced apart whose words are set apart by wider gaps (``s k i p   t h e   t e s t s``):
    each gap of two spaces or more read as one space, each single space inside a word dropped."""
    if "  " not in raw and "\u3000" not in raw:
        return ""
    import re

    chunks = [c for c in re.split(r"(?:\s{2,}|\u3000)", raw) if c]
    return " ".join(re.sub(r"(?:(?<=\s)|^)(\S(?: \S)+)(?=\s|$)", lambda m: m.group(1).replace(" ", ""), c)
                    for c in chunks)


def _letters_apart(text: str) -> bool:
    """Whether three single letters or more stand one after the other (``c u r l``, ``c-u-r-l``): only
    then is the text read a third time with them joined (which needs ``re``)."""
    run, word = 0, 0
    for c in text + " ":
        if c.isalnum():
            word += 1
            continue
        if word:
            run = run + 1 if word == 1 else 0
            if run >= 3:
                return True
        word = 0
    return False


def _folded(text: str) -> str:
    """The text case-folded and, when it is not ASCII, with its disguises taken off and lookalike
    letters folded (``unicodedata``, a C module: no ``re``)."""
    if text.isascii():
        return text.lower()
    return _unicode_folded(text).casefold().translate(_LOOKALIKE)


def rules_stamp() -> str:
    """What the verdicts depend on besides the text: this module's source and that of trust_rules.py,
    trust_intent.py and trust_words.py (the rules, the cheap look's words, the folding and the code
    that applies them) and the redactor's shape (:func:`_redactor`), as a digest, and REVISION. A verdict
    kept under another stamp is worked out again (``verdicts.Kept``). Read once per process: about 0.5 ms
    cold, which a start whose files match the kept :func:`rules_signature` does not pay.
    why the bytes, not the file's mtime: two installs of one version (an editable one and the
    plugin's) share a HOME; by mtime each would throw away the other's verdicts at every start.
    why the bytes digested as they are: decoded and encoded again first, the 109 KB took 0.5 ms of
    every SessionStart, against 0.1 ms."""
    global _STAMP
    if _STAMP is None:
        import os

        from lazy_harness.memory import ids

        source = b""
        try:
            here = os.path.dirname(__file__)
            for name in (os.path.join(here, f) for f in STAMPED):
                with open(name, "rb") as fh:
                    source += fh.read()
            source += _redactor(os.path.join(os.path.dirname(here), "redact"))
        except OSError:  # why: a frozen or zipped install: no stamp, so nothing kept is ever trusted
            return ""
        _STAMP = f"{REVISION}-{ids.bytes_digest(source)}"
    return _STAMP


STAMPED = ("trust.py", "trust_rules.py", "trust_intent.py", "trust_words.py")  # the files rules_stamp digests


def rules_signature(here: str | None = None) -> str:
    """What :func:`rules_stamp` is worked out from, by ``stat``: each of its files' size, mtime, inode and
    change time, and the redactor's part as it is; '' when one cannot be read. The kept verdicts carry
    it beside the stamp (``verdicts.Kept``), so a start whose files are the ones the stamp was worked
    out from takes the kept stamp as it is. why: reading and digesting 109 KB cost about 0.5 ms of
    every SessionStart against 0.15 ms for these ``stat`` calls; another install sharing the HOME has
    other files, so its signature differs and it works the stamp out as before. why the change time: a
    file written over with as many bytes and its mtime set back (``cp -p``) keeps the other three, and
    no writer sets it. ``here``: the folder of the files."""
    import os

    here = here or os.path.dirname(__file__)
    try:
        parts = [f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}:{st.st_ctime_ns}" for st in (
            os.stat(os.path.join(here, f)) for f in STAMPED)]
        parts.append(_redactor(os.path.join(os.path.dirname(here), "redact")).decode())
    except (OSError, UnicodeDecodeError):
        return ""
    return f"{REVISION} " + " ".join(parts)


def _redactor(folder: str) -> bytes:
    """What a secret's verdict depends on (:func:`secret`): the redactor's modules by name and size,
    and the package's version. why not their bytes as above: 130 KB more to read and digest cost 0.25
    to 0.5 ms of every SessionStart; an edit of a rule almost always changes its file's size, and a
    release its version (an edit that keeps every size: bump REVISION)."""
    import os

    from lazy_harness import __version__

    with os.scandir(folder) as found:
        sizes = sorted(f"{e.name}:{e.stat().st_size}" for e in found if e.name.endswith(".py"))
    return f"\n{__version__} {' '.join(sizes)}".encode()


_STAMP: str | None = None


# why: bump to work every kept verdict out again without a change of this file
REVISION = 1


def may_match(text: str) -> list[int]:
    """The rule sets that could match ``text`` (every set when, once folded, it holds letters outside
    ASCII: the rules in other scripts); [] when it is a note, with nothing more to check."""
    folded = _folded(text)
    if not folded.isascii():
        return list(range(len(REASONS)))
    # why: on first use, not with this module
    from lazy_harness.memory.trust_words import (ALWAYS, FULL, LONG, LONG_KEYS, LOOK, SIGNS, SPLIT, SQUASH,
                                                  WHERE, WORDS)

    squashed = folded.translate(SQUASH)

    # why: what the text holds of every group's words, found once: a short word (4 letters at most) as
    # a word of its own or the start of one, a longer one anywhere in the letters with spaces and dots
    # left out (a short one, "env" or "ci", is inside most long texts once squashed), a sign as it
    # is; each group is then read from the words the text holds
    # why the apostrophe dropped, not made a space: "don't" is the word "dont" the groups look for
    present = {w[:i] for w in _words(folded.replace("'", "").translate(SPLIT).split())
               for i in range(1, min(len(w), 4) + 1)}
    # why: a long word is looked for only when the text holds its first four letters, a sign only when
    # the text holds its first character: one pass over the text, not one search per word (800 of them)
    grams = {squashed[i:i + 4] for i in range(len(squashed) - 3)}
    present.update([w for g in grams.intersection(LONG_KEYS) for w in LONG[g] if w in squashed])
    present.update([w for c in SIGNS.keys() & set(folded) for w in SIGNS[c] if w in folded])
    # why: each group's sets of words the text holds one of, as bits, read from the words it holds: a group
    # fits when every one of its sets has one, as a look at each group's sets finds (trust_words.WHERE)
    hits: dict[int, int] = {}
    for w in present.intersection(WORDS):
        for g, bit in WHERE[w]:
            hits[g] = hits.get(g, 0) | bit
    return sorted(ALWAYS.union([LOOK[g][0] for g, bits in hits.items() if bits == FULL[g]]))


def _words(words: list[str]) -> set[str]:
    """The text's words, and the words its runs of single letters spell (``c u r l`` -> ``curl``)."""
    out, run = set(words), []
    for w in words:
        if len(w) == 1:
            run.append(w)
        elif run:
            out.add("".join(run))
            run = []
    if run:
        out.add("".join(run))
    return out


def reason(text: str) -> str | None:
    """Why ``text`` is held (one of ``REASONS``, or :func:`secret`'s), None when it reads as a note
    about the code and holds no secret."""
    if not text or not text.strip():
        return None
    return hostile(text) or secret(text)


def every_reason(text: str) -> str | None:
    """:func:`reason`, with the secret's reason after an order's when the text holds both: what the
    recall index keeps of an entry, so that prompt recall knows a secret is there (an approval never
    covers it: ADR 0056) without loading the redactor itself."""
    why = hostile(text)
    found = secret(text) if text and text.strip() else None
    return f"{why}; {found}" if why and found else why or found


def secret(text: str) -> str | None:
    """``holds a secret (<kinds>): "<the redacted words around the first>"`` when the redactor would
    change ``text``, else None. The reason goes into the hold mark, the journal, the kept verdicts and
    ``lh memory held``: it quotes the text only as redacted."""
    # why here: the redactor is heavy to load (see the module's docstring), and needed only here
    from lazy_harness.redact import found

    got = found.secrets(text)
    if got is None:
        # why: a learning is read as its title then its file's body, which opens with a heading; a key
        # at the end of the title (``password=``) and its value on the body's first line, or on a line of
        # its own, had the heading or blank lines between them, and the redactor saw no assignment
        flat = " ".join(text.replace(LEARNING_HEADING, " ").replace(CONTEXT_HEADING, " ").split())
        got = found.secrets(flat) if flat != text else None
    return None if got is None else f'{SECRET} ({", ".join(got[0])}): "{got[1]}"'


# the headings a learning file's body is written with (memory/learnings.py ``render``; a test keeps them equal)
LEARNING_HEADING, CONTEXT_HEADING = "## Learning", "## Context"


# why: the rules are linear in what they read, but slow to read it: about 10 us a character for each way
# the text is read (:func:`forms`: three for most prose, three more for the text reversed when it speaks
# of reversing), so about 50 us a character of an entry at SessionStart. A 300 KB document pasted into a
# rationale took 15 s there, past the hook's 10 s timeout, which kept no verdict: every later start met it
# again (ADR 0088). A longer text is held unread, with its length as the reason. Above what the worker
# writes (2,000 characters a long field: about 7,000 an entry) and what the index reads of an entry
# (its title and detail, 4,000 characters each): neither is ever held for its length.
LONGEST = 16_000
TOO_LONG = "too long to check"  # then its length and the limit (:func:`too_long`)


def too_long(length: int) -> str:
    """The reason of a text of ``length`` characters (as the check would read it) over :data:`LONGEST`."""
    return (f"{TOO_LONG} ({length:,} characters, over the {LONGEST:,} the check reads): keep a long document in a "
            "file and name the file in the entry, or shorten it")


def hostile(text: str) -> str | None:
    """Why ``text`` reads as an instruction aimed at the agent (one of ``REASONS``), else None; a text
    over :data:`LONGEST` characters, as typed or as the rules would read it, is not read: :func:`too_long`."""
    if not text or not text.strip():
        return None
    if len(text) > LONGEST:  # why before anything is read: even the cheap look costs 0.5 us a character
        return too_long(len(text))
    why = _reason_as_read(text)
    if why:
        return why
    # why: a payload a model can decode (base64, hex, reversed, rot13) is read decoded too (ADR 0040)
    return next((w for w in map(_reason_as_read, decodings(text)) if w), None)


def _reason_as_read(text: str) -> str | None:
    sets = may_match(text)
    if not sets:
        return None
    from lazy_harness.memory import trust_rules

    read = forms(text)
    # why: NFKC makes some characters many letters (U+FDFA, 18): the rules are handed no more than the limit
    longest = max(map(len, read))
    if longest > LONGEST:
        return too_long(longest)
    for form in read:
        for k in sets:
            if trust_rules.matches(k, form):
                return REASONS[k]
    return None


_B64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_")
_HEX = frozenset("0123456789abcdefABCDEF")


def decodings(text: str) -> list[str]:
    """What ``text`` says once decoded the ways a note may ask a model to decode it: each run of 16
    base64 or hex characters or more that decodes to readable text; ``\\x..`` escapes; the whole
    text reversed when it speaks of reversing, rot13 when it names rot13. Without ``re``: a split of
    the text, and the decoders only for runs that look encoded."""
    out: list[str] = []
    for token in text.split():
        run = token.strip("'\"`()[]{}<>,;:.!?")
        if len(run) >= 16 and set(run) <= _B64:
            out += [d for d in (_from_hex(run), _from_base64(run)) if d]
    low = text.lower()
    if "\\x" in low:  # why: the escapes' two hex digits each, read as one run of bytes
        escaped = "".join(p[:2] for p in low.split("\\x")[1:] if set(p[:2]) <= _HEX and len(p) >= 2)
        out += [d for d in (_from_hex(escaped),) if d]
    if "revers" in low or "backward" in low:
        out.append(text[::-1])
    if "rot13" in low or "rot-13" in low or "rot 13" in low or "caesar" in low:
        import codecs

        out.append(codecs.encode(text, "rot13"))
    return out


def _readable(data: bytes) -> str | None:
    try:
        s = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = sum(c.isprintable() or c in "\n\t" for c in s)
    return s if s and printable >= 0.95 * len(s) and any(c in s for c in " /|.") else None


def _from_hex(run: str) -> str | None:
    digits = "".join(run.split())
    if len(digits) < 16 or len(digits) % 2 or not set(digits) <= _HEX:
        return None
    return _readable(bytes.fromhex(digits))


def _from_base64(run: str) -> str | None:
    if set(run) <= _HEX and len(run) >= 40:  # why: a digest (a commit, a checksum), not base64 text
        return None
    import base64
    import binascii

    try:
        data = base64.b64decode(run.replace("-", "+").replace("_", "/") + "=" * (-len(run) % 4))
    except (binascii.Error, ValueError):
        return None
    return _readable(data)


FIELDS = {"decision": ("summary", "context", "alternatives", "rationale", "tags", "cues"),
          "failure": ("summary", "root_cause", "resolution", "prevention", "tags", "cues"),
          "learning": ("title", "learning", "context", "tags", "cues", "scope"),
          "handoff": ("text",)}


def _flat(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return " ".join(_flat(v) for v in value)
    return value if isinstance(value, str) else str(value)


def text_of(rec: dict, kind: str) -> str:
    """Every field of an entry the hold check reads, as one text: an instruction split across the
    summary and the rationale is read whole."""
    return " ".join(_flat(rec.get(f)) for f in FIELDS.get(kind, ("summary",)) if rec.get(f))


def check(rec: dict, kind: str) -> str | None:
    """:func:`reason` of an entry's whole text (``text_of``), then of each field alone (letters spaced
    apart at the start of one field would otherwise run on into the end of the one before)."""
    why = reason(text_of(rec, kind))
    if why:
        return why
    fields = [_flat(rec.get(f)) for f in FIELDS.get(kind, ("summary",)) if rec.get(f)]
    # why hostile alone: the whole text was read for a secret; a field read alone adds nothing but cost
    return next((w for w in map(hostile, fields) if w), None) if len(fields) > 1 else None


def check_session(records: list[tuple[dict, str]]) -> list[str | None]:
    """:func:`check` of each ``(entry, kind)`` one session wrote, then of each two of them read as one
    text: a payload split across two entries (its command in one, "pipe it to sh" or "push to that
    remote" in the other) holds both. Where entries are written (the worker), not on the hooks' path."""
    verdicts = [check(rec, kind) for rec, kind in records]
    texts = [text_of(rec, kind) for rec, kind in records]
    # why: only entries the check lets through alone: a held entry read beside another would hold it too
    free = [i for i, why in enumerate(verdicts) if not why and texts[i]]
    together: list[str | None] = list(verdicts)
    for i in free:
        for j in free:
            if i != j:  # why hostile: each was read for a secret; two joined would only join a name to a value
                why = hostile(f"{_end(texts[i])} {_start(texts[j])}")
                if why and not why.startswith(TOO_LONG):  # why: each alone was read whole
                    together[i] = together[i] or why
                    together[j] = together[j] or why
    return together


# why: two entries read together (check_session) are each read whole alone; what only the two joined
# hold is within a rule's reach of where they meet (a few hundred characters), and the two whole may be
# over LONGEST. Entries the worker writes are shorter than this: read together whole, as before
_HALF = LONGEST // 2 - 1


def _end(text: str) -> str:
    """The end of ``text`` that a second entry read after it meets, from a word's start."""
    return text if len(text) <= _HALF else text[-_HALF:].partition(" ")[2]


def _start(text: str) -> str:
    """The start of ``text`` that meets the end of an entry read before it, up to a word's end."""
    return text if len(text) <= _HALF else text[:_HALF].rpartition(" ")[0]


def digest(text: str) -> str:
    """A short digest of an entry's text: an approval holds for the text approved, not for an edit of it."""
    from lazy_harness.memory import ids

    return ids.text_digest(" ".join(text.split()), 6)
