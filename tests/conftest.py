"""Every test runs in a private HOME: Claude dir, XDG dirs and config all point into tmp_path.

A guard fails any test that writes into the real home's ``.claude`` or lazy-harness folders.
"""

import os
import sys
from pathlib import Path

import pytest

REAL_HOME = Path(os.path.expanduser("~"))
GUARDED = [REAL_HOME / ".claude", REAL_HOME / ".config" / "lazy-harness",
           REAL_HOME / ".local" / "share" / "lazy-harness"]
ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _snapshot() -> dict[str, float]:
    out = {}
    for base in GUARDED:
        if base.exists():
            for p in [base, *base.rglob("*")] if base.name != ".claude" else [base]:
                try:
                    out[str(p)] = p.stat().st_mtime
                except OSError:
                    pass
    return out


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """A fresh HOME with CLAUDE_CONFIG_DIR, XDG dirs and LH_CONFIG unset (so defaults resolve into it)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in ("CLAUDE_CONFIG_DIR", "LH_CONFIG", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
                "LH_WORKER_CALL", "CLAUDE_PROJECT_DIR"):
        monkeypatch.delenv(var, raising=False)
    before = _snapshot()
    yield home
    after = _snapshot()
    touched = sorted(p for p, m in after.items() if before.get(p) != m)
    assert not touched, f"test touched the real home: {touched[:5]}"


@pytest.fixture
def python() -> str:
    return sys.executable
