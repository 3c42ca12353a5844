"""The real Codex CLI with a config.toml it cannot load: ``codex exec`` (the worker's distill call) stops,
and lh doctor's ``codex`` line (the distiller) fails naming the file and line as Codex does, for TOML
that does not parse and for a value Codex refuses. No model call is made."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator

import pytest

from codex_home import CodexHome

pytestmark = pytest.mark.e2e

NO_MODEL = "http://127.0.0.1:9/v1"  # nothing here asks the model


@pytest.fixture
def home(codex_bin) -> Iterator[CodexHome]:
    made = CodexHome(NO_MODEL, codex_bin)
    yield made
    made.close()


def codex_line(out: str) -> str:
    return next((line for line in out.splitlines() if line.split(":")[0].split()[1:] == ["codex"]),
                f"<no codex line in>\n{out}")


@pytest.mark.parametrize(("broken", "line"), [
    ('model = "gpt-5"\n[projects."/home/me/p"\ntrust_level = "trusted"\n', 2),  # not TOML
    ('sandbox_mode = "bogus"\n', 1),  # TOML, a value Codex refuses
])
def test_doctor_fails_the_codex_distiller_on_a_config_codex_cannot_load(home, broken, line):
    config = home.codex_home / "config.toml"
    config.write_text(broken + config.read_text())
    call = subprocess.run(["codex", "exec", "--ephemeral", "--skip-git-repo-check", "-"], input="hi", env=home.env,
                          cwd=home.project, capture_output=True, text=True, timeout=60)
    assert call.returncode != 0 and "config.toml" in call.stderr, call.stderr  # the worker's call would stop
    doctor = home.lh("doctor")
    said = codex_line(doctor.stdout)
    assert said.startswith("fail  codex: "), doctor.stdout
    assert re.search(re.escape(str(config)) + rf":{line}:\d+: \S", said), said
    assert doctor.returncode == 1
