"""A Codex-only install seen from the commands that default to Claude Code: plain ``lh hooks
uninstall`` names Codex's hooks.json still holding ours and the command that removes them; ``lh
doctor`` with neither claude nor codex on PATH names codex's install too."""

import json

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.cli.test_codex_doctor_status import here, lines_of, system_bin_without_claude  # noqa: F401

ON_BOTH = "lh hooks uninstall --agent codex"


def _ours_in_codex() -> int:
    with open(paths.codex_hooks_file(), encoding="utf-8") as fh:
        return json.dumps(json.load(fh)).count("lazy_harness")


def test_plain_uninstall_after_a_codex_install_names_codex_hooks(here):  # noqa: F811
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    r = invoke("hooks", "uninstall")
    assert r.code == 0, r.err
    assert r.out.startswith("nothing to remove: ")
    assert paths.codex_hooks_file() in r.out and ON_BOTH in r.out, r.out
    assert _ours_in_codex()  # left for the command it names
    assert invoke("hooks", "uninstall", "--agent", "codex").code == 0
    again = invoke("hooks", "uninstall")
    assert ON_BOTH not in again.out, again.out


def test_plain_uninstall_says_nothing_of_codex_without_its_hooks(here):  # noqa: F811
    assert invoke("hooks", "install").code == 0
    r = invoke("hooks", "uninstall")
    assert r.code == 0 and r.out.startswith("removed ") and "codex" not in r.out.lower(), r.out


def test_doctor_names_codex_when_neither_cli_is_found_and_codex_holds_ours(here, monkeypatch,  # noqa: F811
                                                                           system_bin_without_claude):  # noqa: F811
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    monkeypatch.setenv("PATH", str(system_bin_without_claude))  # codex gone too
    r = invoke("doctor")
    line = lines_of(r.out)["claude"]
    assert line.startswith("fail  claude: claude not found on PATH"), line
    assert "npm install -g @openai/codex" in line and "@anthropic-ai/claude-code" in line, line


def test_doctor_names_only_claude_code_without_codex_hooks(here, monkeypatch, system_bin_without_claude):  # noqa: F811
    monkeypatch.setenv("PATH", str(system_bin_without_claude))
    line = lines_of(invoke("doctor").out)["claude"]
    assert line.startswith("fail  claude: ") and "@openai/codex" not in line, line
