"""Review: ``lh status`` with a config.toml holding one wrong value (``model = 42``) showed every key
at its default: the default memory folder and its (empty) sessions instead of the ``[memory] path``
the hooks go on using, and the default spend caps. Only the wrong key keeps its default, as in the
hooks and ``lh memory``; the wrong value is still named."""

import os


from tests.cli.lhrun import invoke
from tests.test_config_review_fixes import _config


def test_status_keeps_the_good_keys_of_a_file_with_one_wrong_value(tmp_path, monkeypatch):
    mem = tmp_path / "mymem"
    path = _config(f'[memory]\npath = "{mem}"\n[budget]\ndaily_usd = 7.0\n'
                   '[compound_loop]\nenabled = true\nmodel = 42\n')
    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.chdir(project)
    r = invoke("status")
    first = r.out.splitlines()[0]
    assert f"(memory: {mem}{os.sep}" in first
    assert "of $7.00" in r.out
    assert f"{path}:7: compound_loop.model: expected a string, got 42" in r.err
    assert "compound loop: paused: config.toml is invalid" in r.out


def test_status_still_runs_with_a_syntax_error(tmp_path, monkeypatch):
    path = _config("[compound_loop\nenabled = true\n")
    monkeypatch.chdir(tmp_path)
    r = invoke("status")
    assert r.code == 0
    assert f"{path}:1: TOML syntax error" in r.err
    assert "compound loop: paused: config.toml is invalid" in r.out


def test_status_marks_the_memory_folder_as_the_default_when_memory_path_is_wrong(tmp_path, monkeypatch):
    monkeypatch.delenv("NOPE", raising=False)
    path = _config('[memory]\npath = "$NOPE/mem"\n')
    monkeypatch.chdir(tmp_path)
    r = invoke("status")
    first = r.out.splitlines()[0]
    assert "not the folder config.toml names" in first and f"{path}:2: memory.path" in first
    assert "lh config validate" in first

