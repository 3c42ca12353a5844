"""Tasks that wait in the queue instead of failing (ADR 0013).

A waiting task goes back into the pending folder under its own name with ``wait_reason``, ``waits``
(how many times it waited) and, unless it waits for a spend cap, ``not_before``: the worker leaves
it alone until then (``compound_loop.wait_seconds``, 60 s by default, doubling per wait up to an
hour). A task that waits for the account's usage limit waits until the reset its message names (a
time of day or a date, in the zone it names or else local time, or an epoch; at most
:data:`LONGEST_LIMIT_WAIT`), else as above. A task
paused by a cap has no ``not_before``: the worker's cap check
(worker/calls.cap_reached) holds the whole queue instead, so raising the cap lets it run at the next
worker start.

If a newer task of the same session was queued meanwhile, the waiting one is finished as
superseded (the newer one covers the whole session; the cursor keeps its prompt small), and the newer
one takes over its wait and counts, unless the person asked for it (``handoff-now``, ``retry``).

The detached worker stays for waiting tasks (``compound_loop.linger_minutes``, ADR 0021): one at a
time (``linger_lock``), waking at the next task's time or the next probe of a full disk (``next_wake``).
"""

from __future__ import annotations

import os
import re

from lazy_harness import paths, queue
from lazy_harness.atomic import atomic_write, lock

FIRST_WAIT = 60.0  # compound_loop.wait_seconds by default
LONGEST_WAIT = 3600.0
# why 8 days: a weekly limit resets within 7; a reset further away is a misread, and the task runs then
LONGEST_LIMIT_WAIT = 8 * 86400.0
_AFTER_RESET = 60.0  # the reset is said to the minute: be past it
_EPOCH = re.compile(r"limit reached\|(\d{9,11})\b", re.IGNORECASE)
# a reset shown to the minute and passed less than this long ago is now: refused within the reset's
# own minute (10:00:40 is shown "10am"), or a local clock a little ahead of the server's
_JUST_PASSED = 3600.0
# claude: "resets 1pm (Europe/Paris)", "resets Oct 9, 10am (zone)", "resets Jan 2, 2027, 10am (zone)";
# codex exec: "try again at 3:05 PM", "try again at Oct 9th, 2026 10:00 AM" (the machine's local time)
_RESETS = re.compile(r"\b(?:resets|try again)\s+(?:at\s+)?"
                     r"(?:(?P<mon>[A-Za-z]{3})[a-z]*\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?,?\s+"
                     r"(?:(?P<year>\d{4}),?\s+)?(?:at\s+)?)?"
                     r"(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>am|pm)\b(?:\s*\((?P<tz>[A-Za-z0-9_+\-/]+)\))?",
                     re.IGNORECASE)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def not_before(q: str, name: str) -> float:
    try:
        raw = queue.read_task(os.path.join(q, name)).get("not_before", "")
    except OSError:
        return 0.0
    try:
        return float(raw) if raw else 0.0
    except ValueError:
        return 0.0


def ready(q: str, names: list[str], now: float) -> list[str]:
    """The pending ``names`` whose wait is over."""
    return [n for n in names if not_before(q, n) <= now]


def requeue(q: str, name: str, fields: dict, reason: str, now: float, paused: bool,
            first_wait: float = FIRST_WAIT, until: float | None = None) -> str:
    """Put the claimed task ``name`` back into the queue to wait; returns what happened. ``paused``: no
    time of its own (a spend cap, a full disk: the worker's check holds the whole queue instead);
    ``until``: its own time (a usage limit's reset), instead of the doubling wait.
    With no room to write the task again, the claim is renamed back as it was (a rename needs none)."""
    try:
        return _requeue(q, name, fields, reason, now, paused, first_wait, until)
    except OSError:
        try:
            os.replace(os.path.join(q, queue.PROCESSING, name), os.path.join(q, name))
        except FileNotFoundError:
            pass  # why: the rewrite got as far as renaming it back
        return "waiting (task file left as it was: no room to note why)"


def _requeue(q: str, name: str, fields: dict, reason: str, now: float, paused: bool, first_wait: float,
             until: float | None) -> str:
    data = {k: v for k, v in fields.items() if k != "task_id"}
    waits = int(data["waits"]) + 1 if str(data.get("waits", "")).isdigit() else 1
    data["waits"] = str(waits)
    data["wait_reason"] = " ".join(reason.split())[:500]
    if paused:
        data.pop("not_before", None)
    elif until is not None:
        data["not_before"] = repr(until)
    else:
        data["not_before"] = repr(now + min(LONGEST_WAIT, first_wait * 2 ** (waits - 1)))
    sid = paths.safe_session_id(data.get("session_id", ""))
    lock_fd = lock(os.path.join(q, queue.STATE, f"{sid}.lock"))  # why: the same lock as queue.enqueue for this session
    try:
        newer = queue.pending_of(q, data.get("session_id", ""))
        if newer is not None and newer[0] != name:
            _hand_over_the_ask(q, newer[0], data, now)
            queue.finish(q, name, data, "skipped", f"superseded by {queue.task_id(newer[0])} while waiting")
            return "superseded"
        tmp = os.path.join(q, queue.TMP, name)
        atomic_write(tmp, queue.format_task(data))
        os.replace(tmp, os.path.join(q, name))
        try:
            os.unlink(os.path.join(q, queue.PROCESSING, name))
        except FileNotFoundError:
            pass
        return "waiting"
    finally:
        os.close(lock_fd)


def limit_reset(said: str, now: float) -> float | None:
    """When the usage limit ``said`` names resets (a minute past it, at most
    :data:`LONGEST_LIMIT_WAIT` from ``now``): ``usage limit reached|<epoch>``; claude's ``resets 1pm
    (Europe/Paris)``, ``resets 1:30am``, ``resets Oct 9, 10am (zone)``, ``resets Jan 2, 2027, 10am
    (zone)``; codex's ``try again at 3:05 PM``, ``try again at Oct 9th, 2026 10:00 AM`` (the zone
    named, else local time). A time of day passed less than an hour ago is now: the least wait.
    None when it names no reset still to come, or names a zone this Python cannot load (then the
    doubling wait applies)."""
    m = _EPOCH.search(said)
    if m is None:
        at = _reset_time(said, now)
    elif float(m.group(1)) > now:
        at = float(m.group(1))
    else:
        return None  # why: an epoch is to the second; one already past names nothing to wait for
    if at is None:
        return None
    return min(max(at, now) + _AFTER_RESET, now + LONGEST_LIMIT_WAIT)


def _reset_time(said: str, now: float) -> float | None:
    """The time ``resets ...`` / ``try again at ...`` names: the next such time of day (on its date,
    when given) not before :data:`_JUST_PASSED` ago; None when there is none, or its zone is unknown."""
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    m = _RESETS.search(said)
    if m is None or not 1 <= int(m.group("h")) <= 12 or int(m.group("m") or 0) > 59:
        return None
    zone = None
    if m.group("tz"):
        try:
            zone = ZoneInfo(m.group("tz"))
        except (ZoneInfoNotFoundError, ValueError, OSError):
            # why: a zone the CLI knows (Bun's ICU carries its own) but this Python cannot load (no tzdata):
            # read as local time, an hour already passed there would wait until tomorrow
            return None
    # why naive without a zone: .timestamp() then takes the local offset of the reset's own day (DST)
    here = datetime.fromtimestamp(now, zone)
    hour = int(m.group("h")) % 12 + (12 if m.group("ap").lower() == "pm" else 0)
    at = here.replace(hour=hour, minute=int(m.group("m") or 0), second=0, microsecond=0)
    gone = here - timedelta(seconds=_JUST_PASSED)
    if m.group("mon"):
        month = m.group("mon").lower()
        if month not in _MONTHS:
            return None
        try:
            at = at.replace(year=int(m.group("year") or at.year), month=_MONTHS.index(month) + 1,
                            day=int(m.group("day")))
            if at <= gone and not m.group("year"):
                at = at.replace(year=at.year + 1)
        except ValueError:  # why: no such day (Feb 30, or Feb 29 of the next year)
            return None
    elif at <= gone:
        at += timedelta(days=1)
    elif at - timedelta(days=1) > gone:  # why: "11:59pm" read just after midnight is yesterday's, just passed
        at -= timedelta(days=1)
    return at.timestamp() if at > gone else None


def _hand_over_the_ask(q: str, newer: str, data: dict, now: float) -> None:
    """A waiting task superseded by a newer one of its session: the newer one takes its wait and counts
    (``queue.produce.carry_wait``), and its event when the person asked for it (``queue.task.ASKED_EVENTS``),
    as ``queue.enqueue`` does for a task it replaces. The caller holds the session's lock, which every
    writer of its pending task takes."""
    from lazy_harness.queue.produce import carry_wait
    from lazy_harness.queue.task import ASKED_EVENTS, hand_over_ask

    path = os.path.join(q, newer)
    try:
        fields = queue.read_task(path)
    except OSError:
        return  # claimed meanwhile: it runs as it is
    before = dict(fields)
    if fields.get("event") not in ASKED_EVENTS:
        # why: dropped, a call that always times out (or a usage limit) began afresh with each turn
        # queued during its call, and never reached max_attempts
        carry_wait(data, fields, now)
        hand_over_ask(data, fields)
    if fields != before:
        atomic_write(path, queue.format_task(fields))


def linger_lock(q: str) -> int | None:
    """One worker lingers at a time (``.worker-linger.lock``, never deleted): its descriptor, or None."""
    from lazy_harness.atomic import try_lock

    return try_lock(os.path.join(q, ".worker-linger.lock"))


def next_wake(q: str, now: float, probe_at: float | None) -> float | None:
    """When a waiting task's time comes (or the next probe of a full disk); None when nothing waits."""
    times = [t for t in (not_before(q, n) for n in queue.pending(q)) if t > now]
    if probe_at is not None:
        times.append(probe_at)
    return min(times) if times else None
