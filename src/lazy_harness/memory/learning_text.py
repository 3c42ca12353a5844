"""A learning's text as its file holds it: the fields ``learnings.render`` wrote it from, the digest of
its text (``text_digest``, ADR 0063) and whether the person edited it by hand since it was written. One
rule for the store, ``lh memory show``, consolidation and the SessionStart digest, which marks a text
edited by hand shown beside another text of its title. Hot path: only our hot-path modules at import
time (``hashlib`` is imported where a digest is taken).
"""

from __future__ import annotations

from lazy_harness.memory.sanitize import normalise

LEARNING_HEAD, CONTEXT_HEAD = "## Learning\n\n", "\n\n## Context\n\n"  # the body's sections, as render writes them


def fields_of(meta: dict, body: str) -> dict:
    """A learning file read back as the fields ``learnings.render`` wrote it from (title, learning, context,
    tags, cues, scope): what the learned check was trained and measured on (``trust.text_of``). why not
    the file's text: its headings and a list's brackets moved every score up (worker/learned_check.py).
    A body not in ``render``'s form (edited by hand) is its learning whole."""
    learning, context = body.strip(), ""
    if learning.startswith(LEARNING_HEAD.strip()) and CONTEXT_HEAD.strip() in learning:
        learning, _, context = learning.removeprefix(LEARNING_HEAD.strip()).rpartition(CONTEXT_HEAD.strip())
    return {**{k: meta.get(k) for k in ("title", "tags", "cues", "scope")},
            "learning": learning.strip(), "context": context.strip()}


def text_key(text: object) -> str:
    """12 hex characters of a learning's text once normalised: the same words in another case or
    spacing are the same text, any other word is a new one. No text (None) is the empty text its file
    holds (``learnings.render`` writes it so): read back, it was taken for a text edited by hand."""
    import hashlib  # why here: the SessionStart digest asks only when a title is shown twice

    return hashlib.sha256(normalise("" if text is None else text).encode("utf-8", "replace")).hexdigest()[:12]


def edited_by_hand(meta: dict, body: str) -> bool:
    """Whether a learning's text was edited since it was written: the digest it was written with
    (``text_digest``) is not that of its text now. A file written before ``text_digest`` cannot tell."""
    wrote = meta.get("text_digest")
    return isinstance(wrote, str) and bool(wrote) and text_key(fields_of(meta, body)["learning"]) != wrote


def file_edited_by_hand(path: str) -> bool:
    """:func:`edited_by_hand` of the learning file ``path``, read whole; False when it cannot be read."""
    from lazy_harness.memory.frontmatter import parse_frontmatter
    from lazy_harness.regular_file import read_regular

    try:  # why read_regular: a FIFO named like a learning is never waited on
        parsed = parse_frontmatter(read_regular(path).decode("utf-8", "replace"))
    except OSError:
        return False
    return parsed is not None and edited_by_hand(*parsed)
