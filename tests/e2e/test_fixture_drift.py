"""The committed transcript fixtures still look like what the installed CLI writes.

Fails when a Claude Code upgrade adds, drops or renames record types or the fields that
classify user records: then re-record (python tests/e2e/record_fixtures.py) and re-check the parser.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import record_fixtures

pytestmark = pytest.mark.e2e

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"


def _shape(path: Path) -> dict[str, set[str]]:
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    users = [r for r in records if r.get("type") == "user"]
    return {
        "types": {r["type"] for r in records},
        "attachments": {r["attachment"]["type"] for r in records if r.get("type") == "attachment"},
        "entrypoints": {r.get("entrypoint", "") for r in users},
        "prompt_sources": {r.get("promptSource", "") for r in users},
    }


@pytest.mark.parametrize("name", ["headless", "interactive"])
def test_fresh_recording_has_the_fixture_shape(name: str, tmp_path: Path, claude_bin: str, tmux_bin: str) -> None:
    record_fixtures.record(name, claude_bin, tmp_path)

    assert _shape(tmp_path / f"{name}.jsonl") == _shape(FIXTURES / f"{name}.jsonl")
