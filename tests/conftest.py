"""Every test runs in a private HOME: Claude dir, XDG dirs and config all point into tmp_path.

A guard fails any test that writes into the real home's ``.claude`` or lazy-harness folders: it
compares the whole tree (every path with its kind, size and mtime; symlinks not followed) before
and after. When one listing of the real trees is cheap (``PER_TEST_BUDGET``) this happens for every
test. On a larger ``~/.claude`` the whole tree is compared around each test module, and on a huge one
(``PER_MODULE_BUDGET``) once for the whole run; every test still gets the folders lazy-harness writes
(queue/, logs/, settings.json, each project's memory/ and the config and data folders) plus the top
level of ``~/.claude``. Measured: 2 ms for 400 entries, 65 to 320 ms for 20,000 (idle to loaded).

When the suite runs inside a Claude Code session (``CLAUDECODE`` set), that session keeps writing
its own files: transcripts named by session id under ``projects/``, and its housekeeping folders and
top-level files. Those changes are not blamed on a test; anything lazy-harness writes still is.
"""

import os
import re
import stat
import sys
import tempfile
import time
from pathlib import Path

import pytest

REAL_HOME = Path(os.path.expanduser("~"))
REAL_CLAUDE = str(REAL_HOME / ".claude")
GUARDED = [REAL_CLAUDE, str(REAL_HOME / ".config" / "lazy-harness"),
           str(REAL_HOME / ".local" / "share" / "lazy-harness")]
ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
PER_TEST_BUDGET = 0.005  # seconds one whole listing may take for the guard to run it for every test
PER_MODULE_BUDGET = 0.05  # ... for every test module; above it, once per run
# Paths under ~/.claude that lazy-harness writes: never taken for a live session's own files.
OURS = re.compile(r"^(queue|logs|settings\.json|projects/[^/]+/memory)(/|$)")
# Paths a running Claude Code session writes (ignored only when the suite runs inside one).
LIVE = re.compile(r"^(projects/[^/]+(/[0-9a-f]{8}-[0-9a-f-]{27}(\.jsonl$|/.*))?$"
                  r"|(todos|shell-snapshots|statsig|debug|session-env|file-history|ide|plans|cache|"
                  r"telemetry|backups)(/.*)?$"
                  r"|(?!settings\.json$)[^/]+\.(json|jsonl)$|\.[^/]+$)")
INSIDE_CLAUDE_CODE = bool(os.environ.get("CLAUDECODE"))

# why: the tests' own helpers make folders and files with plain makedirs and open, whose mode is the
# umask's; under a umask of 002 (Ubuntu's and Fedora's default for a user whose group is their own)
# those came out open to the group, and the product rightly refused them (ADR 0031): hundreds of
# tests failed on such a machine. The product never relies on the umask for its own folders
# (tests/hooks/test_group_writable_umask.py runs the hooks under 002 and checks them).
os.umask(0o022)


def _listing(top: str, enter) -> dict[str, tuple[int, int, int]]:
    """``top`` and the paths under it -> (kind, size, mtime_ns); folders as (kind, 0, 0), since their
    entries are listed themselves. ``enter(path)`` says which folders to list."""
    out: dict[str, tuple[int, int, int]] = {}
    try:
        st = os.lstat(top)
    except OSError:
        return out
    out[top] = (stat.S_IFMT(st.st_mode), 0, 0)
    stack = [top] if stat.S_ISDIR(st.st_mode) else []
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                out[entry.path] = (stat.S_IFDIR, 0, 0)
                if enter(entry.path):
                    stack.append(entry.path)
            else:
                out[entry.path] = (stat.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns)
    return out


def _rel(path: str) -> str | None:
    """``path`` relative to the real ~/.claude, or None when it lies outside it."""
    if path.startswith(REAL_CLAUDE + os.sep):
        return path[len(REAL_CLAUDE) + 1:]
    return None


def whole_trees() -> dict:
    out: dict = {}
    for top in GUARDED:
        out.update(_listing(top, lambda p: True))
    return out


def our_folders() -> dict:
    """What lazy-harness writes, plus the top level of ~/.claude: cheap on any ~/.claude."""
    out = _listing(REAL_CLAUDE, lambda p: False)
    for top in [*GUARDED[1:], *(os.path.join(REAL_CLAUDE, name) for name in ("queue", "logs"))]:
        out.update(_listing(top, lambda p: True))
    try:
        slugs = os.listdir(os.path.join(REAL_CLAUDE, "projects"))
    except OSError:
        slugs = []
    for slug in slugs:
        out.update(_listing(os.path.join(REAL_CLAUDE, "projects", slug, "memory"), lambda p: True))
    return out


def touched(before: dict, after: dict) -> list[str]:
    """Paths added, removed or changed, less what a live Claude Code session writes."""
    out = []
    for path in sorted(set(before) | set(after)):
        if before.get(path) == after.get(path):
            continue
        rel = _rel(path)
        if INSIDE_CLAUDE_CODE and rel is not None and LIVE.match(rel) and not OURS.match(rel):
            continue
        out.append(path)
    return out


class _Guard:
    def __init__(self):
        started = time.perf_counter()
        self.first = whole_trees()
        cost = time.perf_counter() - started
        self.scope = "test" if cost <= PER_TEST_BUDGET else "module" if cost <= PER_MODULE_BUDGET else "session"
        self.snapshot = whole_trees if self.scope == "test" else our_folders
        self.last = self.first if self.scope == "test" else our_folders()

    def check(self, when: str) -> None:
        """Compare with the previous check (the end of the last test: one listing per test)."""
        now = self.snapshot()
        changed, self.last = touched(self.last, now), now
        assert not changed, f"{when} touched the real home: {changed[:5]}"


@pytest.fixture(scope="session")
def _home_guard():
    guard = _Guard()
    yield guard
    if guard.scope == "session":
        changed = touched(guard.first, whole_trees())
        assert not changed, f"a test of this run touched the real home: {changed[:5]}"


@pytest.fixture(scope="module", autouse=True)
def _home_guard_module(_home_guard):
    """On a larger ~/.claude: the whole tree, compared around each test module."""
    if _home_guard.scope != "module":
        yield
        return
    before = whole_trees()
    yield
    changed = touched(before, whole_trees())
    assert not changed, f"a test of this module touched the real home: {changed[:5]}"


@pytest.fixture(scope="session")
def _without_codex(tmp_path_factory):
    """``folder -> the same folder without codex``: a folder of links to everything a PATH folder
    holds but ``codex``, made once per run. why not drop the folder: ``npm install -g`` puts codex in
    /usr/bin, beside ``sh``, ``git`` and ``python3`` that the tests run."""
    made: dict[str, str] = {}

    def same_without(folder: str) -> str:
        if folder not in made:
            farm = tmp_path_factory.mktemp("path-without-codex")
            for name in os.listdir(folder):
                if name != "codex":
                    os.symlink(os.path.join(folder, name), farm / name)
            made[folder] = str(farm)
        return made[folder]

    return same_without


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch, _home_guard, request, _without_codex):
    """A fresh HOME with CLAUDE_CONFIG_DIR, XDG dirs and LH_CONFIG unset (so defaults resolve into it),
    and, outside the e2e suite, no real ``codex`` on PATH."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    if request.node.get_closest_marker("e2e") is None:
        # why: with Codex installed, the distiller "auto" picks it when claude is absent and lh doctor
        # reports on it: a unit test sees the same machine whether or not Codex is installed (CI puts
        # it on PATH); one that needs a codex puts the fake one first (tests/support/fake_codex.py)
        kept = [_without_codex(d) if d and os.access(os.path.join(d, "codex"), os.X_OK) else d
                for d in os.environ.get("PATH", "").split(os.pathsep)]
        monkeypatch.setenv("PATH", os.pathsep.join(kept))
    for var in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "LH_CONFIG", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
                "XDG_STATE_HOME", "LH_WORKER_CALL",
                "CLAUDE_PROJECT_DIR", "CLAUDE_CODE_ENTRYPOINT"):  # last: a run from claude -p
        monkeypatch.delenv(var, raising=False)
    from lazy_harness.memory import lines

    lines.NOTED.clear()  # why: files a read noted in this process are another test's, never this one's
    yield home
    _end_lingering_workers(home)
    _home_guard.check("the test")


def _end_lingering_workers(home) -> None:
    """End the workers a test's hooks left behind in its HOME: a worker with tasks that wait (a spend
    cap, an API down) lingers up to compound_loop.linger_minutes to retry them, which must not outlive
    the test that made them; so would a resident answerer."""
    import signal

    from lazy_harness.recall.resident import client

    names = []
    if (home / ".claude" / "queue").exists():
        names.append(b"lazy_harness.worker")
    # the resident answerer a test's hook started (ADR 0029): it would wait for questions for
    # minutes. Looked for whenever the test had an index (not only when the answerer's lock is
    # there: one spawned just before the test ended may not have taken it yet)
    if os.path.isdir(client.folder()):
        # and one under the module path before ADR 0047 (a test starts one as an upgrade would find it)
        names += [b"lazy_harness.recall.resident.answerer", b"lazy_harness.recall.answerer"]
    if not names:
        return
    from tests.support.processes import started_with_home

    for pid in started_with_home(home):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmdline = fh.read()
            if any(n in cmdline for n in names):
                os.kill(pid, signal.SIGTERM)
                os.kill(pid, signal.SIGCONT)  # why: a stopped one (a test stops an answerer) acts on it only then
        except OSError:
            continue


@pytest.fixture
def python() -> str:
    return sys.executable


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """The fake ``claude`` (tests/support/fake_claude.py) first on PATH; returns its bin folder."""
    from tests.support import fake_claude

    return fake_claude.use(tmp_path, monkeypatch)


@pytest.fixture
def project(tmp_path):
    """An empty project folder ``proj`` (modules that need another shape define their own)."""
    p = tmp_path / "proj"
    p.mkdir()
    return p


@pytest.fixture
def tmpdir_at(monkeypatch):
    """Point TMPDIR at ``path`` for this test (tempfile reads it once and keeps it: forgotten here)."""
    def point(path) -> str:
        monkeypatch.setenv("TMPDIR", str(path))
        monkeypatch.setattr(tempfile, "tempdir", None)
        return str(path)
    return point


@pytest.fixture
def zone(monkeypatch):
    """``zone(tz)``: this process's local time zone from now on; the one before comes back after the test."""
    def to(tz: str) -> None:
        monkeypatch.setenv("TZ", tz)
        time.tzset()

    yield to
    monkeypatch.undo()
    time.tzset()


def noon_zone(now: float) -> str:
    """A POSIX time zone (a whole number of minutes east of UTC) whose local time at ``now`` is about
    noon: the next local midnight, and with it a new day, week or month, is some 12 hours away."""
    east = (43200 - int(now) % 86400) // 60 * 60
    east = east - 86400 if east > 43200 else east
    sign = "-" if east >= 0 else "+"  # why: POSIX counts west of UTC as positive
    return f"LHNOON{sign}{abs(east) // 3600:02d}:{abs(east) % 3600 // 60:02d}"


@pytest.fixture
def one_local_day(zone):
    """The test runs within one local day, whatever the wall clock: for a test whose spend or memory is
    written at the wall clock while the code it runs (in this process or a child, which inherits ``TZ``)
    asks its own clock for "today" or "this month"; a midnight between the two put them on different
    days. A test that sets its own zone with ``zone`` afterwards gets that one."""
    zone(noon_zone(time.time()))
