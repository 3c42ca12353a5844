"""Finding the processes a test started: by the HOME each test runs under (tests/conftest.py gives
every test its own), read from ``/proc/<pid>/environ``, the environment the process started with."""

import os


def _each(name: str, keep) -> list[int]:
    """The pids whose ``/proc/<pid>/<name>`` bytes ``keep`` takes (Linux ``/proc``; none elsewhere)."""
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/{name}", "rb") as fh:
                if keep(fh.read()):
                    found.append(int(entry))
        except OSError:
            continue  # gone between the listing and the read, or not ours to read
    return found


def started_with_home(home) -> list[int]:
    """The pids of the processes started with ``HOME=home`` (Linux ``/proc``; none elsewhere)."""
    want = f"HOME={home}".encode()
    return _each("environ", lambda data: want in data.split(b"\0"))


def children(pid: int) -> list[int]:
    """The pids whose parent is ``pid`` (Linux ``/proc``; none elsewhere)."""
    def parent(stat: bytes) -> bool:
        fields = stat[stat.rfind(b")") + 2:].split()  # why after the last ")": a name may hold spaces
        return len(fields) > 1 and int(fields[1]) == pid

    return _each("stat", parent)


def describe(pids: list[int]) -> list[str]:
    """What each of ``pids`` is, for a failing test's message: its command line, state and age."""
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv = fh.read().replace(b"\0", b" ").decode(errors="replace").strip()
            with open(f"/proc/{pid}/status", encoding="utf-8") as fh:
                state = next((ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("State:")), "?")
            with open(f"/proc/{pid}/wchan", encoding="utf-8") as fh:
                wchan = fh.read().strip()
        except OSError as exc:
            out.append(f"{pid}: gone ({exc.strerror})")
            continue
        out.append(f"{pid}: {argv!r} state {state} waiting in {wchan or '-'}")
    return out


def end(pids: list[int], wait: float = 10.0, sig: int = 9) -> None:
    """Send ``sig`` (SIGKILL) to each of ``pids`` and wait (bounded) until none is running any more."""
    import time

    for pid in pids:
        try:
            os.kill(pid, sig)
        except OSError:
            pass
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and any(os.path.exists(f"/proc/{pid}/environ") and _alive(pid) for pid in pids):
        time.sleep(0.02)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            fh.read(1)
        return True
    except OSError:
        return False
