"""Trust entries of ours that lh hooks install|uninstall --agent codex left in Codex's config.toml.

Codex keys trust by place (``<hooks.json>:<event>:<group>:<index>``) and the hash covers a hook's
definition: a hook the person puts before ours moves ours, and our hash stays at the old place,
which their hook now holds. Install and uninstall remove such entries (found through Codex's
``config/read``), or name them when config.toml may not be written. Uninstall without a codex on
PATH cannot ask Codex: it reads config.toml and names the tables of ours it still holds."""

import json
import os

import pytest

from tests.cli.lhrun import invoke
from tests.cli.test_cdxfx_uninstall_refused import CONFIG_READ
from tests.cli.test_codex_doctor_status import system_bin_without_claude
from tests.support import fake_codex_app_server as fake_codex

__all__ = ["system_bin_without_claude"]  # a fixture used below

MOVED = ("; your own hooks in that file may have moved up a place: Codex skips them until you trust them "
         "again in /hooks")


@pytest.fixture
def codex_bin(tmp_path, monkeypatch):
    """The fake codex, whose ``config/read`` answers ``hooks.state`` from what it holds (as codex 0.171.0
    answers from config.toml)."""
    bin_dir = tmp_path / "bin"
    script = fake_codex.install(bin_dir)
    batch = '    elif method == "config/batchWrite":'
    text = script.read_text()
    assert batch in text
    script.write_text(text.replace(batch, CONFIG_READ))
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    return bin_dir


def codex_home(home):
    return home / ".codex"


def put_before_ours(home, event="SessionStart", command="echo hi"):
    """The person's own group, put before ours in ``event`` (ours moves a place down)."""
    path = codex_home(home) / "hooks.json"
    data = json.loads(path.read_text())
    data["hooks"][event].insert(0, {"hooks": [{"type": "command", "command": command}]})
    path.write_text(json.dumps(data, indent=2) + "\n")


def key(home, place):
    return f"{codex_home(home) / 'hooks.json'}:{place}"


def set_trust(home, state):
    (codex_home(home) / "fake-trust.json").write_text(json.dumps(state))


def test_reinstall_removes_our_entry_left_where_the_persons_hook_now_sits(isolated_home, codex_bin):
    codex_home(isolated_home).mkdir()
    set_trust(isolated_home, {"elsewhere:stop:0:0": "sha256:abc"})  # an entry of the person's
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    ours_then = fake_codex.trusted(codex_home(isolated_home))[key(isolated_home, "session_start:0:0")]
    put_before_ours(isolated_home)
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0, r.out + r.err
    config = codex_home(isolated_home) / "config.toml"
    assert (f"trust: 4 hooks trusted in {config}; removed 1 entry of ours left at a place no longer ours: "
            f"{key(isolated_home, 'session_start:0:0')}") in r.out.splitlines()
    state = fake_codex.trusted(codex_home(isolated_home))
    assert key(isolated_home, "session_start:0:0") not in state
    assert state[key(isolated_home, "session_start:1:0")] == ours_then
    assert state["elsewhere:stop:0:0"] == "sha256:abc" and len(state) == 5


def test_reinstall_leaves_the_persons_hook_they_trusted_at_that_place(isolated_home, codex_bin):
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    put_before_ours(isolated_home)
    state = fake_codex.trusted(codex_home(isolated_home))
    state[key(isolated_home, "session_start:0:0")] = "sha256:theirs"  # trusted in /hooks: their hash there
    set_trust(isolated_home, state)
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0 and "removed" not in r.out, r.out
    assert fake_codex.trusted(codex_home(isolated_home))[key(isolated_home, "session_start:0:0")] == "sha256:theirs"


def test_reinstall_names_our_left_entry_when_config_toml_is_read_only(isolated_home, codex_bin):
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    state = fake_codex.trusted(codex_home(isolated_home))
    put_before_ours(isolated_home)
    # Codex's /hooks trusted ours at its new place; our hash stays at the old one
    state[key(isolated_home, "session_start:1:0")] = state[key(isolated_home, "session_start:0:0")]
    set_trust(isolated_home, state)
    config = codex_home(isolated_home) / "config.toml"
    config.write_text("# mine\n")
    os.chmod(config, 0o444)
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0, r.out + r.err
    [line] = [x for x in r.out.splitlines() if x.startswith("trust:")]
    assert line.startswith(f"trust: 4 hooks trusted in {config}; entries of ours left at places no longer ours ("
                           f"{config}: read-only; left untouched): delete these tables from it by hand: ")
    assert line.endswith(f'[hooks.state."{key(isolated_home, "session_start:0:0")}"]')
    assert fake_codex.trusted(codex_home(isolated_home)) == state
    assert config.read_bytes() == b"# mine\n"


def test_uninstall_removes_our_entry_left_where_the_persons_hook_now_sits(isolated_home, codex_bin):
    codex_home(isolated_home).mkdir()
    set_trust(isolated_home, {"elsewhere:stop:0:0": "sha256:abc"})
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    put_before_ours(isolated_home)  # no install since: ours sit one place down, untrusted there
    r = invoke("hooks", "uninstall", "--agent", "codex")
    assert r.code == 0, r.out + r.err
    # three of ours at their places, and SessionStart's hash at its old place (its new one held none)
    assert f"trust: removed 4 entries from {codex_home(isolated_home) / 'config.toml'}" in r.out.splitlines()
    assert fake_codex.trusted(codex_home(isolated_home)) == {"elsewhere:stop:0:0": "sha256:abc"}
    assert "lazy_harness" not in (codex_home(isolated_home) / "hooks.json").read_text()


# -- uninstall with codex not on PATH ----------------------------------------------------------------------


def installed_then_theirs_after_ours(home):
    """Install (trusted); the person adds a Stop hook after ours; config.toml holds the trust tables Codex
    wrote (the fake keeps them in fake-trust.json), one of the person's and another file's too."""
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    path = codex_home(home) / "hooks.json"
    data = json.loads(path.read_text())
    data["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]})
    path.write_text(json.dumps(data, indent=2))
    state = {**fake_codex.trusted(codex_home(home)), key(home, "stop:1:0"): "sha256:mine",
             "/elsewhere/hooks.json:stop:0:0": "sha256:other"}
    text = "".join(f'[hooks.state."{k}"]\ntrusted_hash = "{v}"\n\n' for k, v in state.items())
    config = codex_home(home) / "config.toml"
    config.write_text(text)
    return config


def test_uninstall_without_codex_names_the_trust_tables_left(isolated_home, codex_bin, monkeypatch,
                                                            system_bin_without_claude):
    config = installed_then_theirs_after_ours(isolated_home)
    before = config.read_bytes()
    monkeypatch.setenv("PATH", str(system_bin_without_claude))
    r = invoke("hooks", "uninstall", "--agent", "codex")
    assert r.code == 0, r.out + r.err
    tables = ", ".join(f'[hooks.state."{key(isolated_home, place)}"]' for place in
                       ("session_end:0:0", "session_start:0:0", "stop:0:0", "user_prompt_submit:0:0"))
    assert r.out.splitlines()[-1] == (f"trust: entries left in {config} (codex is not on PATH); they trust nothing "
                                      f"now; to tidy up, delete these tables from it by hand: {tables}{MOVED}")
    assert config.read_bytes() == before  # Codex's file, not written by lh


def test_uninstall_without_codex_names_every_place_of_ours_when_config_toml_is_not_toml(
        isolated_home, codex_bin, monkeypatch, system_bin_without_claude):
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    (codex_home(isolated_home) / "config.toml").write_text("[hooks.state\n")
    monkeypatch.setenv("PATH", str(system_bin_without_claude))
    r = invoke("hooks", "uninstall", "--agent", "codex")
    [line] = [x for x in r.out.splitlines() if x.startswith("trust:")]
    assert line.startswith(f"trust: entries left in {codex_home(isolated_home) / 'config.toml'} (codex is not on "
                           "PATH)")
    assert line.count("[hooks.state.") == 4 and "moved up" not in line


def test_uninstall_without_codex_says_the_persons_hooks_moved_when_no_table_of_ours_is_left(
        isolated_home, codex_bin, monkeypatch, system_bin_without_claude):
    config = installed_then_theirs_after_ours(isolated_home)
    config.write_text('[hooks.state."/elsewhere/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:other"\n')
    monkeypatch.setenv("PATH", str(system_bin_without_claude))
    r = invoke("hooks", "uninstall", "--agent", "codex")
    assert r.out.splitlines()[-1] == f"trust: {config} holds no entry of ours (codex is not on PATH){MOVED}"
