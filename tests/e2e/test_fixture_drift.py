"""The committed transcript fixtures still look like what the installed CLI writes.

Fails when a Claude Code upgrade adds, drops or renames record types or the fields that
classify user records: then re-record (python tests/e2e/record_fixtures.py) and re-check the parser.
The fixtures come from one CLI version (the pinned newest); an older supported CLI writes an older
shape, which the compound-loop tests check end to end, so for it this comparison is skipped.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import record_fixtures

pytestmark = pytest.mark.e2e

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"


def _recorded_with(path: Path) -> tuple[int, ...]:
    """The newest CLI version named in a fixture's records ("version": "2.1.328")."""
    found = [json.loads(line).get("version", "") for line in path.read_text().splitlines() if line.strip()]
    versions = [tuple(int(n) for n in v.split(".")) for v in found if re.fullmatch(r"\d+\.\d+\.\d+", v)]
    assert versions, f"{path}: no record names the CLI version"
    return max(versions)


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
def test_fresh_recording_has_the_fixture_shape(
    name: str, tmp_path: Path, claude_bin: str, tmux_bin: str, cli_version: tuple[int, ...]
) -> None:
    recorded = _recorded_with(FIXTURES / f"{name}.jsonl")
    if cli_version < recorded:
        pytest.skip(f"the fixtures come from Claude Code {'.'.join(map(str, recorded))}; "
                    f"{'.'.join(map(str, cli_version))} is older (its transcripts are checked end to end)")
    record_fixtures.record(name, claude_bin, tmp_path)

    assert _shape(tmp_path / f"{name}.jsonl") == _shape(FIXTURES / f"{name}.jsonl")
