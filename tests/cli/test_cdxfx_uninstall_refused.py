"""lh hooks uninstall --agent codex when Codex lists none of the file's hooks (it refuses hooks.json, or
cannot load its config.toml): our trust entries are still removed from config.toml when Codex can
edit it, found by the hash Codex gives our hooks' definitions; otherwise uninstall says they are left
and which ones."""

import json

import pytest

from tests.cli.lhrun import invoke
from tests.cli.test_codex_refused_hooks_file import LISTED, REFUSAL
from tests.support import fake_codex_app_server as fake_codex

# config/read answers hooks.state from what config/batchWrite wrote (the real one reads config.toml);
# a file ``fake-config-error`` in CODEX_HOME stands for a config.toml Codex cannot load: hooks/list
# reports it under the cwd (as codex 0.171.0 does) and config/read fails
CONFIG_READ = '''    elif method == "config/read":
        if os.path.exists(os.path.join(home, "fake-config-error")):
            answer(rid, error={"code": -32603, "message": "config.toml:3:1: invalid table header"})
        else:
            answer(rid, {"config": {"hooks": {"state": {k: {"trusted_hash": v} for k, v in trusted().items()}}}})
    elif method == "config/batchWrite":'''
ERRORS = '"errors": []'
CONFIG_ERRORS = ('"errors": [{"message": "config.toml:3:1: invalid table header"}] '
                 'if os.path.exists(os.path.join(home, "fake-config-error")) else []')
STRICTER_LISTED = ('"hooks": [] if refusal() or os.path.exists(os.path.join(home, "fake-config-error")) '
                   'else listing(), "warnings": [refusal()] if refusal() else []')


@pytest.fixture
def codex_bin(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    script = fake_codex.install(bin_dir)
    text = script.read_text()
    batch = '    elif method == "config/batchWrite":'
    assert LISTED in text and ERRORS in text and "\nfor line in sys.stdin:" in text and batch in text
    text = (text.replace(LISTED, STRICTER_LISTED).replace(ERRORS, CONFIG_ERRORS)
            .replace("\nfor line in sys.stdin:", REFUSAL).replace(batch, CONFIG_READ))
    script.write_text(text)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    return bin_dir


def installed_with_theirs(home):
    """Install (trusted), with a hook of the person's in the file, trusted too; returns hooks.json."""
    codex = home / ".codex"
    target = codex / "hooks.json"
    codex.mkdir()
    target.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo mine"}]}]}}))
    (codex / "fake-trust.json").write_text(json.dumps({"elsewhere:stop:0:0": "sha256:abc"}))
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    trusted = fake_codex.trusted(codex)
    mine = f"{target}:stop:0:0"
    trusted[mine] = "sha256:mine"  # the person trusted theirs in /hooks
    (codex / "fake-trust.json").write_text(json.dumps(trusted))
    assert len(trusted) == 6
    return target


def add_schema(target):
    data = json.loads(target.read_text())
    target.write_text(json.dumps({"$schema": "https://example.com/hooks.schema.json", **data}, indent=2))


def test_uninstall_removes_our_trust_entries_when_codex_refuses_the_file(isolated_home, codex_bin):
    target = installed_with_theirs(isolated_home)
    add_schema(target)  # from now on Codex refuses the file: hooks/list lists none of it
    r = invoke("hooks", "uninstall", "--agent", "codex")
    assert r.code == 0, r.out + r.err
    trust = [line for line in r.out.splitlines() if line.startswith("trust:")]
    assert trust and "removed 4 entries" in trust[0], r.out
    assert "unknown field `$schema`" in trust[0]  # why nothing of the file runs still
    assert "moved up" not in trust[0]  # theirs is before ours: it keeps its place
    assert fake_codex.trusted(isolated_home / ".codex") == {"elsewhere:stop:0:0": "sha256:abc",
                                                            f"{target}:stop:0:0": "sha256:mine"}
    assert json.loads(target.read_text())["$schema"]  # the person's key stays


def test_uninstall_says_which_entries_are_left_when_codex_cannot_load_its_config(isolated_home, codex_bin):
    target = installed_with_theirs(isolated_home)
    (isolated_home / ".codex" / "fake-config-error").write_text("")
    r = invoke("hooks", "uninstall", "--agent", "codex")
    assert r.code == 0, r.out + r.err
    assert "echo mine" in target.read_text() and "lazy_harness" not in target.read_text()
    trust = [line for line in r.out.splitlines() if line.startswith("trust:")]
    assert trust, r.out
    line = trust[0]
    assert "entries left in" in line and "config.toml:3:1: invalid table header" in line, line
    for place in ("session_start:0:0", "stop:1:0", "session_end:0:0", "user_prompt_submit:0:0"):
        assert f"{target}:{place}" in line, line
    assert len(fake_codex.trusted(isolated_home / ".codex")) == 6  # nothing written to a config Codex cannot read


def test_a_hook_of_theirs_after_ours_is_said_to_need_trusting_again(isolated_home, codex_bin):
    target = installed_with_theirs(isolated_home)
    data = json.loads(target.read_text())
    data["hooks"]["SessionStart"].append({"hooks": [{"type": "command", "command": "echo later"}]})
    target.write_text(json.dumps(data))
    add_schema(target)
    r = invoke("hooks", "uninstall", "--agent", "codex")
    trust = [line for line in r.out.splitlines() if line.startswith("trust:")]
    assert trust and "removed 4 entries" in trust[0] and "moved up a place" in trust[0], r.out
