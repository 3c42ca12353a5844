"""``lh hooks install`` checks config.toml before it changes anything: a file it cannot read (a TOML
syntax error) or in which it cannot switch the compound loop on (a [[compound_loop]] array, a
compound_loop that is no table, an inline table saying enabled = false, a file another user may
write) is refused in one line naming the file (and the line), and settings.json is left byte for
byte as it was; before, the hooks were registered first and the install stopped at the loop."""

import json
import os

import pytest

from lazy_harness import paths
from tests.cli.lhrun import invoke

SETTINGS = json.dumps({"model": "opus", "hooks": {"Stop": [{"matcher": "", "hooks": [
    {"type": "command", "command": "notify.sh"}]}]}}, indent=3) + "\n"


def setup(text: str, mode: int = 0o600) -> tuple[str, str]:
    cfg = paths.config_file()
    os.makedirs(os.path.dirname(cfg), exist_ok=True)
    with open(cfg, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(cfg, mode)
    target = paths.user_settings_file()
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w", encoding="utf-8") as fh:
        fh.write(SETTINGS)
    return cfg, target


def assert_refused_untouched(r, cfg: str, target: str, *words: str) -> None:
    assert r.code == 1, r
    with open(target, encoding="utf-8") as fh:
        assert fh.read() == SETTINGS
    assert sorted(os.listdir(os.path.dirname(target))) == ["settings.json"]  # no backup, nothing beside it
    assert "settings:" not in r.out and "hooks:" not in r.out, r.out
    assert "Traceback" not in r.err and r.err.count("\n") == 1 and cfg in r.err, r.err
    for word in words:
        assert word in r.err, r.err


@pytest.mark.parametrize("text, words", [
    ("[compound_loop]\nenabled = true\nmodel = \n", (":3: TOML syntax error",)),
    ('[compound_loop]\nmodel = "claude-haiku\n', (":2: TOML syntax error", "not closed")),
    ("[recall]\nsemantic = true\nsemantic = false\n", (":3: TOML syntax error", "set twice")),
], ids=["no-value", "open-string", "key-twice"])
def test_a_toml_syntax_error_is_refused_before_settings_json(text, words):
    cfg, target = setup(text)
    assert_refused_untouched(invoke("hooks", "install"), cfg, target, *words)


@pytest.mark.parametrize("text, words", [
    ("[[compound_loop]]\nenabled = true\n", (":1: ", "cannot set compound_loop.enabled")),
    ("compound_loop = 5\n", (":1: ", "cannot set compound_loop.enabled")),
    ("compound_loop = { enabled = false }\n", (":1: ", "cannot set compound_loop.enabled", "braces")),
], ids=["array-of-tables", "not-a-table", "inline-off"])
def test_a_file_the_loop_cannot_be_switched_on_in_is_refused_before_settings_json(text, words):
    cfg, target = setup(text)
    assert_refused_untouched(invoke("hooks", "install"), cfg, target, *words)
    with open(cfg, encoding="utf-8") as fh:
        assert fh.read() == text


def test_a_config_another_user_may_write_is_refused_before_settings_json():
    cfg, target = setup("[compound_loop]\nenabled = false\n", mode=0o664)
    assert_refused_untouched(invoke("hooks", "install"), cfg, target)


def test_after_the_fix_install_does_it_all_in_one_run():
    cfg, target = setup("[[compound_loop]]\nenabled = true\n")
    assert invoke("hooks", "install").code == 1
    with open(cfg, "w", encoding="utf-8") as fh:
        fh.write("[compound_loop]\nenabled = false\n")
    r = invoke("hooks", "install")
    assert r.code == 0, r
    assert "compound_loop.enabled switched on" in r.out
    with open(target, encoding="utf-8") as fh:
        assert "Stop" in json.load(fh)["hooks"]
