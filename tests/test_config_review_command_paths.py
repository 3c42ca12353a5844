"""Review: ``compound_loop.claude_path`` and ``worker.codex_path`` are run as written (the worker's
argv[0], ``shutil.which`` for ``auto``): ``~/bin/claude`` or ``bin/claude`` is never found there,
while lh doctor expanded the ``~`` and said "ok". Such a value is a config error naming the key."""


from lazy_harness import config, paths

from tests.cli.lhrun import invoke
from tests.test_config_review_fixes import _config


def _fake_claude(home) -> str:
    bin_dir = home / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "claude"
    exe.write_text("#!/bin/sh\necho '2.1.300 (Claude Code)'\n")
    exe.chmod(0o755)
    return str(exe)


def test_a_tilde_claude_path_is_an_error_naming_the_key_and_line(isolated_home):
    _fake_claude(isolated_home)
    path = _config('[compound_loop]\nenabled = true\nclaude_path = "~/bin/claude"\n')
    r = invoke("config", "validate")
    assert r.code == 1
    assert f"{path}:3: compound_loop.claude_path: expected a name on PATH or an absolute path" in r.out
    assert '"~/bin/claude"' in r.out


def test_doctor_does_not_call_a_tilde_claude_path_ok(isolated_home):
    fake = _fake_claude(isolated_home)
    _config('[compound_loop]\nenabled = true\nclaude_path = "~/bin/claude"\n')
    out = invoke("doctor").out
    assert "compound_loop.claude_path" in out
    # why the fake's own path: a claude on PATH (CI installs one) is the default's, and may be "ok"
    assert not any(line.startswith("ok") and fake in line for line in out.splitlines())


def test_a_relative_codex_path_is_an_error():
    _config('[worker]\ncodex_path = "tools/codex"\n')
    _, errors, _ = config.parse_file(paths.config_file())
    assert len(errors) == 1 and ":2: worker.codex_path: expected a name on PATH or an absolute path" in errors[0]


def test_a_name_an_absolute_path_or_empty_stay_valid(isolated_home):
    exe = _fake_claude(isolated_home)
    for value in ("claude", exe, "", "claude-2"):
        _config(f'[compound_loop]\nclaude_path = "{value}"\n[worker]\ncodex_path = "{value}"\n')
        _, errors, _ = config.parse_file(paths.config_file())
        assert errors == [], value
