"""handoff.md: the open items a session left for the next one.

    # Open items for the next session
    <!-- lazy-harness handoff session=<id> task=<id> written=<ISO ts> project=<name> -->

    Written <ISO ts> at the end of session <id>.

    - item one

Each item is one line after ``- ``, so an item that starts with ``-`` or ``#`` stays an item. The
parser is ``memory.files.read_handoff`` (the read-back hook's); items are shaped here so that it
reads back exactly what was written: an open checkbox ``[ ]`` is dropped from the text and an item
already ticked ``[x]`` is not open, so it is not written.
"""

from lazy_harness.logfile import stamp
from lazy_harness.memory import files
from lazy_harness.memory.sanitize import one_line

TITLE = "# Open items for the next session"


def items(raw) -> list[str]:
    """Open items as single lines; blank and ticked ones dropped, a bare string is one item."""
    if isinstance(raw, str):
        raw = [raw]
    out = []
    for value in raw or []:
        item = one_line(value)
        if item[:3] in ("[x]", "[X]"):
            continue
        if item[:3] == "[ ]":
            item = item[3:].strip()
        if item:
            out.append(item)
    return out


def header_token(value, spaces: bool = False) -> str:
    """A header value: one line, never closing the comment; ids also lose their spaces."""
    s = one_line(value).replace("-->", "->")
    return s if spaces else s.replace(" ", "_")


def render(open_items: list[str], meta: dict, now: float) -> str:
    session = header_token(meta.get("session_id"))
    task = header_token(meta.get("task_id"))
    project = header_token(meta.get("project"), spaces=True)
    written = stamp(now)
    lines = [TITLE, f"{files.HANDOFF_MARK} session={session} task={task} written={written} project={project} -->",
             "", f"Written {written} at the end of session {session}.", ""]
    lines += [f"- {item}" for item in items(open_items)]
    return "\n".join(lines) + "\n"


def read(memory_dir: str) -> dict | None:
    """``{"items", "session_id", "task_id", "written", "project"}`` of the handoff, None when there is none.

    Header fields the file does not carry are None (a hand-written handoff still has items).
    """
    h = files.read_handoff(memory_dir)
    if h is None:
        return None
    return {"items": list(h["items"]), "session_id": h.get("session") or None, "task_id": h.get("task") or None,
            "written": h.get("written") or None, "project": h.get("project") or None}
