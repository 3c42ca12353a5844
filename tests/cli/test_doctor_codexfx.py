"""lh doctor's ``codex`` line (the distiller) when Codex cannot load its config.toml: every ``codex exec``
stops at that error, so the worker's calls would all fail. The line fails and names the file and the
line as Codex does (the words ``lh hooks install --agent codex`` and ``lh status`` pass on), and when
Codex cannot be asked, a file that is not TOML at all is still named with its line."""

from tests.cli.lhrun import invoke
from tests.cli.test_cdx_codex_config_truth import TYPO, TYPO_REASON, codex_bin, codex_config, project, trust_of
from tests.cli.test_codex_doctor_status import lines_of, system_bin_without_claude, write_config
from tests.support import fake_codex_app_server as fake_codex

__all__ = ["codex_bin", "project", "system_bin_without_claude"]  # fixtures used below


def codex_line(out: str) -> str:
    return lines_of(out)["codex"]


def test_a_config_toml_codex_cannot_load_fails_the_distiller_line(isolated_home, codex_bin, project):
    cfg = codex_config(isolated_home, TYPO)
    r = invoke("doctor")
    line = codex_line(r.out)
    assert line.startswith("fail  codex: "), r.out
    assert f"{cfg}:{TYPO_REASON}" in line and "it distils sessions" in line
    assert "\n" not in line
    assert r.code == 1


def test_the_distiller_line_says_what_install_and_status_say(isolated_home, codex_bin, project):
    cfg = codex_config(isolated_home, TYPO)
    said = trust_of(invoke("hooks", "install", "--agent", "codex").out).removeprefix("trust: not done: ")
    reason = said.split(f"{cfg}:{TYPO_REASON}")[0] + f"{cfg}:{TYPO_REASON}"
    r = invoke("doctor")
    assert codex_line(r.out).startswith(f"fail  codex: {reason}"), r.out
    assert lines_of(r.out)["codex hooks"].startswith(f"fail  codex hooks: {reason}")
    status = next(x for x in invoke("status").out.splitlines() if x.startswith("codex: "))
    assert reason in status


def test_a_valid_config_toml_leaves_the_distiller_line_ok(isolated_home, codex_bin, project):
    codex_config(isolated_home, 'model = "gpt-5"\n')
    line = codex_line(invoke("doctor").out)
    assert line.startswith("ok    codex: "), line


def test_a_config_toml_that_is_not_toml_is_named_when_codex_cannot_be_asked(isolated_home, codex_bin, project):
    fake_codex.control(codex_bin, "old")  # its app-server knows no hooks/list
    cfg = codex_config(isolated_home, TYPO)
    r = invoke("doctor")
    line = codex_line(r.out)
    assert line.startswith("fail  codex: ") and str(cfg) in line and "line 2" in line, r.out
    assert r.code == 1


def test_a_claude_distiller_does_not_ask_codex_about_its_config(isolated_home, codex_bin, project, tmp_path,
                                                                 monkeypatch):
    from tests.support import fake_claude

    write_config('[worker]\ndistiller = "claude"\n')
    fake_claude.install(tmp_path / "claude-bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'claude-bin'}:{codex_bin}:/usr/bin:/bin")
    codex_config(isolated_home, TYPO)
    out = invoke("doctor").out
    assert "codex" not in lines_of(out)
    assert not any(c["argv"][:1] == ["app-server"] for c in fake_codex.calls(codex_bin))
