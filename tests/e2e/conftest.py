"""Fixtures for the e2e suite: the real `claude` binary against the loopback stand-in."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# why: the helpers are plain modules beside this file; putting the folder on sys.path makes
# them importable under any --import-mode and from record_fixtures.py alike.
sys.path.insert(0, str(Path(__file__).parent))

from claude_env import CLAUDE_ENV_VAR, ClaudeHome, claude_version, find_claude  # noqa: E402
from codex_home import find_codex  # noqa: E402
from loop_home import LoopHome  # noqa: E402
from standin import Script, StandIn  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: runs the real Claude Code CLI against a loopback stand-in")


@pytest.fixture(scope="session")
def claude_bin() -> str:
    binary = find_claude()
    if binary is None:
        reason = (
            f"Claude Code CLI not found: set {CLAUDE_ENV_VAR} or put `claude` on PATH"
            " (npm install -g @anthropic-ai/claude-code)"
        )
        print(f"\nSKIP e2e: {reason}", file=sys.stderr)
        pytest.skip(reason)
    return binary


@pytest.fixture(scope="session")
def codex_bin() -> str:
    """The real Codex CLI; outside CI a machine without it skips the Codex tests, in CI they fail."""
    import os

    binary = find_codex()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("codex not found in CI: .ci/run installs @openai/codex")
        pytest.skip("Codex CLI not found: put `codex` on PATH (npm install -g @openai/codex)")
    return binary


@pytest.fixture(scope="session")
def cli_version(claude_bin: str) -> tuple[int, ...]:
    """The version of the CLI under test, e.g. (2, 1, 330)."""
    return claude_version(claude_bin)


@pytest.fixture(scope="session")
def tmux_bin() -> str:
    binary = shutil.which("tmux")
    if binary is None:
        reason = "tmux not found: interactive e2e tests need it (apt-get install tmux)"
        print(f"\nSKIP e2e: {reason}", file=sys.stderr)
        pytest.skip(reason)
    return binary


@pytest.fixture
def standin() -> Iterator[StandIn]:
    """A running stand-in with a default script; set `standin.script` fields before running claude."""
    with StandIn(Script()) as server:
        yield server


@pytest.fixture
def claude_home(tmp_path: Path, standin: StandIn, claude_bin: str) -> Iterator[ClaudeHome]:
    """An isolated HOME (first-run questions answered) with a project folder, wired to `standin`."""
    home = ClaudeHome.create(tmp_path, standin.url, claude_bin)
    try:
        yield home
    finally:
        home.close()


@pytest.fixture
def interactive_home(claude_home: ClaudeHome, tmux_bin: str) -> ClaudeHome:
    """`claude_home`, for tests that also need tmux."""
    return claude_home


@pytest.fixture
def loop_home(claude_home: ClaudeHome, standin: StandIn) -> Iterator[LoopHome]:
    """`claude_home` for lazy-harness tests (call `.install()`); teardown ends the workers its hooks spawned."""
    home = LoopHome(claude_home, standin)
    try:
        yield home
    finally:
        home.kill_workers()
