"""A project memory written in Japanese reaches the real Codex CLI whole: SessionStart's text is held
within 6,000 bytes of UTF-8, under the size (about 2,500 tokens) above which Codex replaces a hook's
text by a head/tail preview and a file path. ``codex exec`` against the Responses stand-in, with
lazy-harness installed by the real ``lh hooks install --agent codex``."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator

import pytest

from codex_home import CodexHome
from responses_standin import ResponsesScript, ResponsesStandIn

pytestmark = pytest.mark.e2e

SUMMARY = "決定{i}：請求キューはPostgresに置き、夜間のバキュームジョブで古い行を整理する。"
RATIONALE = "運用チームが既にバックアップしているので、別のストアを増やさない。監視も今のままでよい。"
FAILURE = "失敗{i}：インポートがBOMで止まった。CSVの先頭に見えない文字があった。"
PREVENTION = "読み込む前にBOMを取り除き、テストで確認する。"


@pytest.fixture
def standin() -> Iterator[ResponsesStandIn]:
    with ResponsesStandIn(ResponsesScript(text="ok")) as server:
        yield server


@pytest.fixture
def home(standin, codex_bin) -> Iterator[CodexHome]:
    made = CodexHome(standin.base_url, codex_bin)
    yield made
    made.close()


def japanese_memory(home: CodexHome) -> list[str]:
    """40 decisions and 6 failures in Japanese, as the worker writes them; every summary."""
    mdir = home.memory_dir()
    mdir.mkdir(parents=True, exist_ok=True)
    summaries = []
    with open(mdir / "decisions.jsonl", "w", encoding="utf-8") as fh:
        for i in range(40):
            summaries.append(SUMMARY.format(i=i) * 5)
            fh.write(json.dumps({"ts": f"2026-11-{10 + i % 18:02d}T10:{i:02d}:00+00:00", "type": "decision",
                                 "project": "project", "session_id": "5e6f7a8b-c0de", "task_id": f"t-{i}",
                                 "summary": summaries[-1], "rationale": RATIONALE * 5, "via": "session"},
                                ensure_ascii=False) + "\n")
    with open(mdir / "failures.jsonl", "w", encoding="utf-8") as fh:
        for i in range(6):
            summaries.append(FAILURE.format(i=i) * 2)
            fh.write(json.dumps({"ts": f"2026-11-{20 + i:02d}T10:00:00+00:00", "type": "failure",
                                 "project": "project", "session_id": "5e6f7a8b-c0de", "task_id": f"t-f{i}",
                                 "summary": summaries[-1], "prevention": PREVENTION * 3, "via": "session"},
                                ensure_ascii=False) + "\n")
    return summaries


def test_a_japanese_memory_reaches_the_model_whole_at_session_start(home, standin):
    home.install()
    summaries = japanese_memory(home)
    home.hold_worker()  # the Stop task stays queued; nothing is distilled
    done = subprocess.run(["codex", "exec", "--skip-git-repo-check", "--sandbox", "read-only", "hi"],
                          cwd=home.project, env=home.env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    first = standin.turn_requests()[0]
    assert "hook_outputs" not in first.all_text() and "truncated output" not in first.all_text()
    [digest] = [m for m in first.messages("developer") if "(lazy-harness)" in m]
    assert len(digest.encode("utf-8")) <= 6000
    shown = [s for s in summaries if s in digest]
    assert len(shown) >= 5  # failures first, then the newest decisions, each whole
    assert digest.rstrip().split("\n")[-1].startswith("Left out for space:")  # the text's end reached the model
    logged = [line for line in home.hook_lines() if " SessionStart " in line and "agent=codex" in line]
    assert logged and re.search(r"codex: \d+/6000 bytes", logged[-1]), home.hook_lines()


def test_a_hooks_json_codex_refuses_is_named_with_codexs_reason(home):
    home.hooks_file.write_text(json.dumps({"hooks": {}, "x-note": "my notes"}) + "\n")
    done = home.install(code=1)  # the hooks are written (the person's key kept), trust is not done: exit 1
    trust = next(line for line in done.stdout.splitlines() if line.startswith("trust:"))
    assert f"Codex refuses {home.hooks_file}: unknown field `x-note`" in trust, done.stdout
    assert json.loads(home.hooks_file.read_text())["x-note"] == "my notes"
    doctor = home.lh("doctor")
    assert doctor.returncode == 1
    assert any(line.startswith(f"fail  codex hooks: Codex refuses {home.hooks_file}: unknown field `x-note`")
               for line in doctor.stdout.splitlines()), doctor.stdout
