"""The markers of model calls under way (ADR 0013): ``<spend folder>/calls-open/<call id>.json``
(pid, start, the budget it was given), one per call, written with the check of the caps under the
spend lock (``budget.open_call``). The spend folder (``paths.spend_dir``) is the ledger's, not a Claude
Code profile's: every spender of one ledger shares it.

The caller holds an ``flock`` on its marker for the whole call; the kernel drops it when the process
dies, so a marker nobody locks is a killed call (SIGKILL, the OOM killer), whose claude runs on: the
next ``budget.open_call`` settles it (:func:`settle`) into one ledger line at its estimate, at most its
budget (``outcome`` ``killed``), once. Until then every reader counts it so too.
"""

from __future__ import annotations

import fcntl
import json
import os
from dataclasses import dataclass

from lazy_harness import paths
from lazy_harness.atomic import held, lock, write_locked
from lazy_harness.cost import ledger
from lazy_harness.regular_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

OPEN_DIR = "calls-open"  # in the spend folder (paths.spend_dir): one marker per call under way
LOCK_NAME = "spend.lock"  # beside it: held while a caller checks the caps and writes its marker
# Where both were before, under each profile's queue state folder (ADR 0013, amendment): an older
# version's calls there are still counted, and its killed ones settled under its lock too
LEGACY_LOCK = ".spend.lock"


def open_calls_dir(env: Mapping[str, str] | None = None) -> str:
    """One marker per model call under way: machine-local (pids), the ledger's, never synced."""
    return os.path.join(paths.spend_dir(env), OPEN_DIR)


def lock_file(env: Mapping[str, str] | None = None) -> str:
    """The spend lock: held while a caller checks the caps and writes its call's marker."""
    return os.path.join(paths.spend_dir(env), LOCK_NAME)


def legacy_open_calls_dir(env: Mapping[str, str] | None = None) -> str:
    """Where a version before kept the markers: in this profile's queue state folder."""
    return os.path.join(paths.state_dir(env), OPEN_DIR)


@dataclass
class OpenCall:
    """A model call under way, as its marker says; ``live`` while its process holds the marker's lock."""

    call: str
    pid: int
    who: str
    started: float
    budget: float
    kind: str = "distill"
    project: str = ""
    session: str = ""
    task: str = ""
    prompt_chars: int = 0
    estimate: float = 0.0  # what the call was expected to cost
    live: bool = True
    path: str = ""
    fd: int | None = None  # the marker's lock, in the process that made the call

    def fields(self) -> dict:
        return {"call": self.call, "pid": self.pid, "who": self.who, "started": self.started, "budget": self.budget,
                "kind": self.kind, "project": self.project, "session": self.session, "task": self.task,
                "prompt_chars": self.prompt_chars, "estimate": self.estimate}

    @property
    def counted(self) -> float:
        """What a killed call is counted at: its estimate, at most its budget (see :func:`settle`)."""
        return min(self.budget, self.estimate)

    def close(self, remove: bool = True) -> None:
        """The call is over: its marker goes (after its ledger line), then its lock. ``remove`` False
        (its line could not be written) leaves the marker to be settled like a killed call's."""
        if remove and self.path:
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _read(path: str) -> OpenCall | None:
    """The marker at ``path``, or None when it is gone or not one (a hand edit): never counted."""
    try:  # why open_regular: a FIFO named as a marker held the budget check (the worker) and lh cost in open()
        with open(open_regular(path)[0], encoding="utf-8") as fh:
            data = json.load(fh)
        call = OpenCall(**{k: data[k] for k in ("call", "pid", "who", "started", "budget")},
                        **{k: data[k] for k in ("kind", "project", "session", "task", "prompt_chars", "estimate")
                           if k in data})
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    if not (isinstance(call.pid, int) and ledger.valid({"ts": call.started, "total_cost_usd": call.budget})
            and isinstance(call.call, str) and ledger.valid({"ts": call.started, "total_cost_usd": call.estimate})):
        return None
    call.path = path
    call.live = held(path)
    return call


def _marker_paths(folder: str) -> list[str]:
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names if n.endswith(".json") and not n.startswith(".")]


def open_calls(env: Mapping[str, str] | None = None) -> list[OpenCall]:
    """Every marker of a model call under way (``live``) or killed mid-call (not ``live``), those an
    older version left in this profile's queue state folder included."""
    found = (_read(p) for p in sorted(_marker_paths(open_calls_dir(env)) + _marker_paths(legacy_open_calls_dir(env)),
                                      key=os.path.basename))
    return [c for c in found if c is not None]


def legacy_lock(env: Mapping[str, str] | None) -> int | None:
    """The older version's spend lock, where that version kept markers (None: it never ran here). why:
    it settles a killed call's marker under that lock alone; both settling one wrote two ledger lines."""
    if not os.path.isdir(legacy_open_calls_dir(env)):
        return None
    return lock(os.path.join(paths.state_dir(env), LEGACY_LOCK))


def who() -> str:
    """What runs this call, for the person waiting on it: ``lh distill``, the worker."""
    import sys

    # why: the call is made by the same code for the worker and every command; only argv tells them apart
    argv = sys.argv or [""]
    head, name = os.path.split(argv[0])
    if name == "lh" or (name == "__main__.py" and os.path.basename(head) == "lazy_harness"):
        return f"lh {argv[1]}" if len(argv) > 1 else "lh"
    return "the worker" if name == "__main__.py" and os.path.basename(head) == "worker" else "lazy-harness"


def mark(folder: str, call: OpenCall) -> OpenCall:
    """Write the call's marker already locked: temp file, lock, write, fsync, rename."""
    path = os.path.join(folder, f"{call.call}.json")
    # why a temp named as atomic_write names its own: the worker's start sweeps a killed writer's
    fd = write_locked(path, json.dumps(call.fields(), separators=(",", ":")).encode())
    call.path, call.fd, call.live = path, fd, True
    return call


def settle(env: Mapping[str, str] | None = None) -> int:
    """Under the spend lock: each killed call gets one ledger line at its estimate, at most its budget
    (none when the ledger already holds its line: killed between its line and its marker's removal),
    then its marker goes. Returns how many lines were written.

    Why the estimate, not the budget: the budget is all that was left, so counting it paused
    distillation for the rest of the day after any kill -9 of the worker; the estimate is how a call
    stopped by SIGTERM or its timeout is counted too."""
    killed = [c for c in open_calls(env) if not c.live]
    if not killed:
        return 0
    # why every line too, not this machine's only: a line of the version before older than what the spend
    # key adopted (62 days) settled its call, and was written a second time; a remote cannot know a
    # marker's id (its time in ns, pid, random bytes) before this machine wrote its line. why this
    # machine's as well: a remote's old lines merged after its line do not end that read before it
    since = min(c.started for c in killed)
    settled = {ledger.call_of(e) for mine in (True, False) for e in ledger.read_since(since, env, mine=mine)}
    written = 0
    for c in killed:
        if c.call not in settled:
            ledger.record_killed(c.fields(), c.counted, env)
            written += 1
        try:
            os.unlink(c.path)
        except FileNotFoundError:
            pass
    return written


def wait_open_calls(env: Mapping[str, str] | None = None) -> None:
    """Return once every call running now has ended (its process released its marker's lock)."""
    for call in open_calls(env):
        try:
            fd, _ = open_regular(call.path)  # why: a FIFO put there since it was read held the wait
        except OSError:
            continue  # ended already
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
        finally:
            os.close(fd)
