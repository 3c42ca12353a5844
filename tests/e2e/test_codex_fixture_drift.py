"""The committed Codex rollouts still look like what the installed Codex CLI writes.

Fails when a Codex upgrade adds, drops or renames what the rollout reader depends on: record types,
response item types and roles, the content item kinds that tell typed text from injected text, and
the session_meta fields that classify a session. Then re-record (python
tests/e2e/record_codex_fixtures.py) and re-check worker/rollout.py. Skipped for another version
than the one the fixtures were recorded with (their session_meta names it).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import record_codex_fixtures

pytestmark = pytest.mark.e2e

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "codex"


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _shape(path: Path) -> dict[str, set]:
    records = _records(path)
    items = [r["payload"] for r in records if r.get("type") == "response_item"]
    meta = next(r["payload"] for r in records if r.get("type") == "session_meta")
    kinds = {
        k
        for i in items
        for k in (i.get("internal_chat_message_metadata_passthrough") or {}).get("content_item_kinds") or []
    }
    return {
        "types": {r["type"] for r in records},
        "items": {(i.get("type"), i.get("role")) for i in items},
        "kinds": kinds,
        "meta": {(k, meta.get(k)) for k in ("originator", "source", "thread_source")},
    }


@pytest.fixture(scope="module")
def codex_version() -> str:
    found = shutil.which("codex")
    if found is None or shutil.which("tmux") is None:
        if os.environ.get("CI"):
            pytest.fail("codex or tmux is not on PATH in CI")
        pytest.skip("Codex CLI or tmux not on PATH")
    out = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=30).stdout
    return out.split()[-1]


@pytest.mark.parametrize("kind", record_codex_fixtures.KINDS)
def test_rollout_shape_unchanged(kind: str, tmp_path: Path, codex_version: str) -> None:
    committed = FIXTURES / f"{kind}.jsonl"
    recorded_with = _records(committed)[0]["payload"]["cli_version"]
    if codex_version != recorded_with:
        pytest.skip(f"fixtures recorded with codex {recorded_with}, this is {codex_version}")
    with record_codex_fixtures.ResponsesStandIn(record_codex_fixtures.script()) as standin:
        home = record_codex_fixtures.CodexHome(standin.base_url)
        try:
            found = record_codex_fixtures.record(kind, home, standin)
            fresh = tmp_path / "fresh.jsonl"
            record_codex_fixtures.Sanitizer(home, standin.port).file(found, fresh)
        finally:
            home.close()

    assert _shape(fresh) == _shape(committed)
