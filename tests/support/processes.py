"""Finding the processes a test started: by the HOME each test runs under (tests/conftest.py gives
every test its own), read from ``/proc/<pid>/environ``, the environment the process started with."""

import os


def started_with_home(home) -> list[int]:
    """The pids of the processes started with ``HOME=home`` (Linux ``/proc``; none elsewhere)."""
    want = f"HOME={home}".encode()
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                if want in fh.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:
            continue  # gone between the listing and the read, or not ours to read
    return found
