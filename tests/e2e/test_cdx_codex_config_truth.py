"""What the real Codex CLI's own configuration says about our hooks, passed on by install, doctor and
status: a config.toml it cannot load (it names the file, line and column), ``[features] hooks = false``
(it runs no hook at all), and ``lh knowledge handoff-now`` run in Codex's sandbox (``codex sandbox``,
as its agent's shell commands run), where the queue cannot be written. No model call is made."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from codex_home import CodexHome

pytestmark = pytest.mark.e2e

NO_MODEL = "http://127.0.0.1:9/v1"  # nothing here asks the model
ROLLOUT = Path(__file__).resolve().parents[1] / "fixtures" / "codex" / "interactive.jsonl"


@pytest.fixture
def home(codex_bin) -> Iterator[CodexHome]:
    made = CodexHome(NO_MODEL, codex_bin)
    yield made
    made.close()


def line_of(out: str, start: str) -> str:
    return next((line for line in out.splitlines() if line.startswith(start)), f"<no line {start!r} in>\n{out}")


def test_a_config_toml_codex_cannot_load_is_named_as_codex_names_it(home):
    config = home.codex_home / "config.toml"
    config.write_text('model = "gpt-5"\n[projects."/home/me/p"\ntrust_level = "trusted"\n')
    said = re.escape(str(config)) + r":2:\d+: \S"
    trust = line_of(home.install(code=1).stdout, "trust:")
    assert re.search(said, trust) and "/hooks" not in trust, trust
    doctor = home.lh("doctor")
    assert doctor.returncode == 1
    assert re.search(said, line_of(doctor.stdout, "fail  codex hooks: ")), doctor.stdout
    assert re.search(said, line_of(home.lh("status").stdout, "codex: "))


def test_hooks_turned_off_in_config_toml_are_named(home):
    config = home.codex_home / "config.toml"
    config.write_text(config.read_text() + "\n[features]\nhooks = false\n")
    off = f"Codex's hooks are off ([features] hooks = false in {config})"
    trust = line_of(home.install(code=1).stdout, "trust:")
    assert off in trust and "/hooks" not in trust, trust
    doctor = home.lh("doctor")
    assert doctor.returncode == 1
    assert line_of(doctor.stdout, "fail  codex hooks: ").startswith(f"fail  codex hooks: {off}"), doctor.stdout
    assert off in line_of(home.lh("status").stdout, "codex: ")


def test_handoff_now_in_codexs_sandbox_says_to_run_it_in_your_shell(home):
    home.install()
    sessions = home.codex_home / "sessions" / "2026" / "11" / "28"
    sessions.mkdir(parents=True)
    text = ROLLOUT.read_text(encoding="utf-8").replace("/home/user/project", str(home.project))
    sid = json.loads(text.splitlines()[0])["payload"]["id"]
    (sessions / f"rollout-2026-11-28T23-58-47-{sid}.jsonl").write_text(text)
    home.queue.mkdir(parents=True, exist_ok=True)  # as after any session
    before = sorted(p for p in home.queue.rglob("*") if p.is_file())
    done = subprocess.run(["codex", "sandbox", "--", "lh", "knowledge", "handoff-now"], env=home.env,
                          cwd=home.project, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    said = line_of(done.stderr, "lh: ")
    assert "Codex's sandbox keeps lh from writing its queue" in said, done.stderr
    assert f"lh knowledge handoff-now --session {sid}" in said and "your own shell" in said
    assert sorted(p for p in home.queue.rglob("*") if p.is_file()) == before
