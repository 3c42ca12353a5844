"""Review: with the hooks in and the compound loop on but no ``claude`` (nor ``codex``) to run,
``lh status`` said "compound loop: enabled" and nothing else: every session then failed to distill at
its end. Status names the missing executable and where to look, as ``lh doctor`` does."""

import os

from lazy_harness import paths

from tests.cli.lhrun import invoke


def _loop_on(extra: str = "") -> None:
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("[compound_loop]\nenabled = true\n" + extra)
    os.chmod(path, 0o600)


def _fake(folder, name: str) -> str:
    folder.mkdir(exist_ok=True)
    exe = folder / name
    exe.write_text("#!/bin/sh\necho '2.1.300 (Claude Code)'\n")
    exe.chmod(0o755)
    return str(exe)


def test_status_says_when_no_claude_can_be_run(tmp_path, monkeypatch):
    _loop_on()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.chdir(tmp_path)
    lines = invoke("status").out.splitlines()
    assert "compound loop: enabled" in lines
    line = next((x for x in lines if x.startswith("distiller: ")), "")
    assert "claude not found on PATH" in line and "sessions fail to distill" in line and "lh doctor" in line


def test_status_is_quiet_about_a_claude_that_is_there(tmp_path, monkeypatch):
    _loop_on()
    monkeypatch.setenv("PATH", os.path.dirname(_fake(tmp_path / "bin", "claude")))
    monkeypatch.chdir(tmp_path)
    assert not any(x.startswith("distiller: ") for x in invoke("status").out.splitlines())


def test_status_names_a_configured_claude_path_that_is_missing(tmp_path, monkeypatch):
    _loop_on(f'claude_path = "{tmp_path}/nowhere/claude"\n')
    monkeypatch.setenv("PATH", os.path.dirname(_fake(tmp_path / "bin", "claude")))
    monkeypatch.chdir(tmp_path)
    line = next((x for x in invoke("status").out.splitlines() if x.startswith("distiller: ")), "")
    assert f"{tmp_path}/nowhere/claude not found" in line


def test_status_says_nothing_of_the_distiller_while_the_loop_is_off(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.chdir(tmp_path)
    assert not any(x.startswith("distiller: ") for x in invoke("status").out.splitlines())
