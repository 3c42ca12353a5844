"""A learning's status fields (``status``, ``deprecated_*``) in its YAML frontmatter: read them, and
set them with the rest of the file kept byte for byte (a BOM and CRLF or CR line ends included).

Below both ``memory.changes`` (which sets them, journalled) and ``memory.journal`` (whose undo puts
them back), so neither imports the other for it.
"""

from __future__ import annotations

from lazy_harness.errors import LhError
from lazy_harness.memory import frontmatter

STATUS_FIELDS = ("status", "deprecated_by", "deprecated_on", "deprecated_reason")
MAX_FRONTMATTER = 65536


def _frontmatter(text: str, path: str) -> tuple[str, str, dict, str]:
    """(BOM, newline, frontmatter, the text from its closing ``---`` on) of a learning file; a file an
    editor saved with a BOM, CRLF or bare CR line ends keeps them."""
    import yaml

    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom):]
    # why "\r" too: a file saved with bare CR ends (a classic Mac OS editor) is read as LF by every reader
    # (frontmatter.as_lf); refused here, it could be neither forgotten nor approved
    nl = "\r\n" if body.startswith("---\r\n") else "\r" if body.startswith("---\r") else "\n"
    end = body.find(nl + "---", 3)
    if not body.startswith("---" + nl) or end < 0:
        raise LhError(f"{path}: no frontmatter to mark")
    head = body[3 + len(nl):end + len(nl)]
    if len(head) > MAX_FRONTMATTER:
        raise LhError(f"{path}: frontmatter over {MAX_FRONTMATTER} characters; not changed")
    try:
        # why: an alias repeats what it names without copying it; written out (the journal, the file)
        # a few nested ones grow into gigabytes. Nothing we write uses them
        if any(isinstance(event, (yaml.AliasEvent,)) or getattr(event, "anchor", None)
               for event in yaml.parse(head, Loader=yaml.SafeLoader)):
            raise LhError(f"{path}: frontmatter uses YAML anchors or aliases; not changed")
        front = yaml.safe_load(head) or {}
    except yaml.YAMLError as exc:
        raise LhError(f"{path}: frontmatter is not valid YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(front, dict):
        raise LhError(f"{path}: frontmatter is not a mapping")
    return bom, nl, _settled(front, body[:end + len(nl) + 3]), body[end + len(nl):]


def _settled(front: dict, block: str) -> dict:
    """``front`` (as YAML read it: the last line of a key given twice) with such a key's value as every
    reader reads it (``frontmatter.settle``): a writer that puts the file back writes one line of it,
    and a scope given as ``project`` and ``general`` stays ``project``."""
    twice = frontmatter.repeated_keys(block)
    if twice:
        parsed = frontmatter.parse_frontmatter(block)
        read = parsed[0] if parsed is not None else {}
        for key in twice:
            if key in ("scope", *STATUS_FIELDS):
                front[key] = read.get(key)
    return front


def with_fields(text: str, path: str, fields: dict) -> str:
    """``text`` of a learning file with ``fields`` set in its frontmatter; the body stays byte for byte."""
    import yaml

    bom, nl, front, rest = _frontmatter(text, path)
    front.update(fields)
    head = yaml.safe_dump(front, sort_keys=False, width=10**9, allow_unicode=True, default_flow_style=False)
    return bom + "---" + nl + head.replace("\n", nl) + rest


def fields_of(text: str, path: str) -> dict:
    """The status fields of a learning file's frontmatter, read as every reader reads them: a status
    in lower case (``frontmatter.canonical``), a field given twice settled."""
    front = _frontmatter(text, path)[2]
    out = {k: front.get(k) if isinstance(front.get(k), (str, type(None))) else str(front.get(k))
           for k in STATUS_FIELDS}
    out["status"] = frontmatter.canonical("status", out["status"])
    return out
