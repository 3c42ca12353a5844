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


def _frontmatter(text: str, path: str) -> tuple[str, str, dict, str, str]:
    """(BOM, newline, frontmatter, the text from its closing ``---`` on, the frontmatter's own lines) of
    a learning file; a file an editor saved with a BOM, CRLF or bare CR line ends keeps them."""
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
    except RecursionError:  # why: a list nested thousands deep (a synced file) stopped forget with a traceback
        raise LhError(f"{path}: frontmatter nested too deep to read; not changed") from None
    if not isinstance(front, dict):
        raise LhError(f"{path}: frontmatter is not a mapping")
    return bom, nl, _settled(front, body[:end + len(nl) + 3]), body[end + len(nl):], head


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


def with_fields(text: str, path: str, fields: dict, keep_layout: bool = True) -> str:
    """``text`` of a learning file with ``fields`` set in its frontmatter; the body stays byte for byte.
    ``keep_layout``: only the lines of those fields change (a person's comments and flow lists stay),
    unless a field's value spans lines or is given twice; then, as without it, the frontmatter is
    written out again whole."""
    import yaml

    bom, nl, front, rest, raw = _frontmatter(text, path)
    front.update(fields)
    head = _lines_set(raw, nl, fields, front) if keep_layout else None
    if head is None:
        head = yaml.safe_dump(front, sort_keys=False, width=10**9, allow_unicode=True,
                              default_flow_style=False).replace("\n", nl)
    return bom + "---" + nl + head + rest


def _lines_set(head: str, nl: str, fields: dict, want: dict) -> str | None:
    """``head`` (the frontmatter's lines) with each of ``fields`` on a line of its own: its line replaced
    (a comment on it goes with the old value), or added at the end; None when a field's value spans
    lines, the key is given twice, or the result does not read as ``want`` (then it is written whole)."""
    import re

    import yaml

    if not head.endswith(nl):  # an empty frontmatter: written whole
        return None
    lines = head.split(nl)
    for key, value in fields.items():
        # why quoted forms too: ``"status": x`` is the key, and a second line of it would be read apart
        at = [i for i, ln in enumerate(lines) if re.match(rf"""(["']?){re.escape(key)}\1[ \t]*:""", ln)]
        line = yaml.safe_dump({key: value}, width=10**9, allow_unicode=True, default_flow_style=False).rstrip("\n")
        if len(at) > 1 or "\n" in line or (at and not lines[at[0]].startswith(key)):
            return None
        if not at:
            lines.insert(len(lines) - 1, line)  # why -1: the head ends with a line end (an empty last part)
            continue
        after = lines[at[0] + 1] if at[0] + 1 < len(lines) else ""
        if after[:1] in (" ", "\t", "-"):  # the old value goes on under it (a block, a list, a folded line)
            return None
        lines[at[0]] = line
    out = nl.join(lines)
    try:
        same = yaml.safe_load(out.replace(nl, "\n")) == want
    except yaml.YAMLError:
        same = False
    return out if same else None


def fields_of(text: str, path: str) -> dict:
    """The status fields of a learning file's frontmatter, read as every reader reads them: a status
    in lower case (``frontmatter.canonical``), a field given twice settled."""
    front = _frontmatter(text, path)[2]
    out = {k: front.get(k) if isinstance(front.get(k), (str, type(None))) else str(front.get(k))
           for k in STATUS_FIELDS}
    out["status"] = frontmatter.canonical("status", out["status"])
    return out
