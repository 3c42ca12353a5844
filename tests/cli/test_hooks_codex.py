"""lh hooks install|uninstall --agent codex: $CODEX_HOME/hooks.json merged as settings.json is, and
trusted through a (fake) codex app-server."""

import json

import pytest

from lazy_harness import codex_trust, codex_trust_server, paths, settings

from tests.cli.lhrun import invoke
from tests.cli.test_codex_doctor_status import system_bin_without_claude
from tests.support import fake_codex_app_server as fake_codex

__all__ = ["system_bin_without_claude"]  # a fixture used below

EVENTS = {"SessionStart", "Stop", "SessionEnd", "UserPromptSubmit"}
THEIRS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
                    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}]}}


@pytest.fixture
def codex_bin(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    fake_codex.install(bin_dir)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    return bin_dir


def hooks_file(home):
    return home / ".codex" / "hooks.json"


def test_install_writes_our_four_hooks_with_the_agent_flag_and_trusts_them(isolated_home, codex_bin):
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0, r.out + r.err
    data = json.loads(hooks_file(isolated_home).read_text())
    ours = settings.find_ours(data)
    assert {o.event for o in ours} == EVENTS
    assert all(o.command.endswith(f"{o.event} --agent codex || exit 0") for o in ours)
    assert {o.event: o.timeout for o in ours}["SessionEnd"] == 3  # Codex clamps SessionEnd to 3 s
    assert "trust: 4 hooks trusted" in r.out
    state = fake_codex.trusted(isolated_home / ".codex")
    assert len(state) == 4 and all(v.startswith("sha256:") for v in state.values())
    assert fake_codex.calls(codex_bin)[-1]["argv"] == ["app-server"]
    assert not (isolated_home / ".claude" / "settings.json").exists()  # Claude Code's file is not touched


def test_install_honours_codex_home(isolated_home, codex_bin, tmp_path, monkeypatch):
    home = tmp_path / "elsewhere"
    monkeypatch.setenv("CODEX_HOME", str(home))
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    assert {o.event for o in settings.find_ours(json.loads((home / "hooks.json").read_text()))} == EVENTS
    assert not hooks_file(isolated_home).exists()
    assert fake_codex.calls(codex_bin)[-1]["codex_home"] == str(home)


def test_install_keeps_the_persons_entries_and_uninstall_restores_the_file_byte_for_byte(isolated_home, codex_bin):
    target = hooks_file(isolated_home)
    target.parent.mkdir()
    original = (json.dumps(THEIRS, indent=4) + "\n").encode()
    target.write_bytes(original)
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    data = json.loads(target.read_text())
    assert data["hooks"]["PreToolUse"] == THEIRS["hooks"]["PreToolUse"]
    assert data["hooks"]["Stop"][0] == THEIRS["hooks"]["Stop"][0]
    r = invoke("hooks", "uninstall", "--agent", "codex")
    assert r.code == 0 and "removed" in r.out
    assert target.read_bytes() == original


def test_uninstall_of_a_file_that_held_only_ours_deletes_it(isolated_home, codex_bin):
    invoke("hooks", "install", "--agent", "codex")
    r = invoke("hooks", "uninstall", "--agent", "codex")
    assert r.code == 0 and "deleted" in r.out
    assert not hooks_file(isolated_home).exists()


def test_a_damaged_hooks_json_is_never_overwritten(isolated_home, codex_bin):
    target = hooks_file(isolated_home)
    target.parent.mkdir()
    target.write_bytes(b'{"hooks": {"Stop": [}\n')
    for command in ("install", "uninstall"):
        r = invoke("hooks", command, "--agent", "codex")
        assert r.code == 1
        lines = [line for line in (r.out + r.err).splitlines() if line.strip()]
        assert len(lines) == 1 and str(target) in lines[0] and "line 1" in lines[0], lines
        assert target.read_bytes() == b'{"hooks": {"Stop": [}\n'


@pytest.mark.parametrize("mode, why", [("old", "unknown method hooks/list"), ("crash", "exit 3")])
def test_a_trust_that_fails_says_what_to_do_and_leaves_the_hooks_installed(isolated_home, codex_bin, mode, why):
    fake_codex.control(codex_bin, mode)
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0
    line = next(line for line in r.out.splitlines() if line.startswith("trust:"))
    assert why in line and "open codex, type /hooks and trust" in line
    assert {o.event for o in settings.find_ours(json.loads(hooks_file(isolated_home).read_text()))} == EVENTS


def test_without_codex_on_path_the_hooks_are_installed_and_the_person_told(isolated_home, tmp_path, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0
    assert "trust: not done (codex is not on PATH)" in r.out
    assert hooks_file(isolated_home).exists()


def test_an_app_server_that_never_answers_is_given_up_on(isolated_home, codex_bin, monkeypatch):
    fake_codex.control(codex_bin, "silent")
    monkeypatch.setattr(codex_trust_server, "TIMEOUT", 0.5)
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0
    assert "did not answer in time" in r.out and "open codex, type /hooks" in r.out


def test_a_refused_write_is_reported_as_not_trusted(isolated_home, codex_bin):
    fake_codex.control(codex_bin, "refuse")
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0
    assert "codex still lists as not trusted" in r.out


def test_reinstall_keeps_one_entry_per_event_and_trust_stays(isolated_home, codex_bin):
    invoke("hooks", "install", "--agent", "codex")
    before = hooks_file(isolated_home).read_bytes()
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0 and "already installed" in r.out and "trust: 4 hooks trusted" in r.out
    assert hooks_file(isolated_home).read_bytes() == before


def test_claude_stays_the_default_and_codex_refuses_claude_files(isolated_home, codex_bin):
    assert invoke("hooks", "install").code == 0
    assert (isolated_home / ".claude" / "settings.json").exists() and not hooks_file(isolated_home).exists()
    assert all("--agent" not in o.command for o in settings.find_ours(
        json.loads((isolated_home / ".claude" / "settings.json").read_text())))
    r = invoke("hooks", "install", "--agent", "codex", "--project")
    assert r.code == 2 and "--agent codex writes" in r.err


def test_trust_status_reads_what_codex_reports(isolated_home, codex_bin, tmp_path):
    invoke("hooks", "install", "--agent", "codex")
    hooks = codex_trust.status(paths.codex_hooks_file(), str(tmp_path))
    assert sorted(h["eventName"] for h in hooks) == ["sessionEnd", "sessionStart", "stop", "userPromptSubmit"]
    assert {h["trustStatus"] for h in hooks} == {"trusted"}


def test_uninstall_removes_our_trust_entries_and_keeps_the_persons(isolated_home, codex_bin):
    home = isolated_home / ".codex"
    home.mkdir()
    (home / "fake-trust.json").write_text(json.dumps({"theirs:stop:0:0": "sha256:abc"}))
    invoke("hooks", "install", "--agent", "codex")
    assert len(fake_codex.trusted(home)) == 5
    r = invoke("hooks", "uninstall", "--agent", "codex")
    assert r.code == 0 and "trust: removed 4 entries" in r.out
    assert fake_codex.trusted(home) == {"theirs:stop:0:0": "sha256:abc"}


def test_uninstall_keeps_the_persons_trusted_hook_trusted_where_it_moves(isolated_home, codex_bin):
    """Codex keys a hook's trust by its place (``<file>:<event>:<group>:<index>``). The person added a
    SessionStart hook after ours and trusted it; once ours go, theirs is group 0: it is trusted there,
    and no entry is left under a place no hook holds."""
    home = isolated_home / ".codex"
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    path = hooks_file(isolated_home)
    data = json.loads(path.read_text())
    data["hooks"]["SessionStart"].append({"hooks": [{"type": "command", "command": "echo mine"}]})
    path.write_text(json.dumps(data, indent=2) + "\n")
    [mine] = [h for h in codex_trust.listed(str(path), str(isolated_home)) if h["command"] == "echo mine"]
    trusted = fake_codex.trusted(home)
    trusted[mine["key"]] = mine["currentHash"]  # the person trusts it in /hooks
    (home / "fake-trust.json").write_text(json.dumps(trusted))
    assert mine["key"].endswith(":session_start:1:0")
    r = invoke("hooks", "uninstall", "--agent", "codex")
    assert r.code == 0 and "trust: removed 4 entries" in r.out and "1 of your hooks moved up" in r.out, r.out
    [now] = codex_trust.listed(str(path), str(isolated_home))
    assert now["command"] == "echo mine" and now["key"].endswith(":session_start:0:0")
    assert now["trustStatus"] == "trusted"
    assert fake_codex.trusted(home) == {now["key"]: mine["currentHash"]}


def test_uninstall_without_codex_still_removes_the_hooks(isolated_home, codex_bin, monkeypatch,
                                                        system_bin_without_claude):
    invoke("hooks", "install", "--agent", "codex")
    monkeypatch.setenv("PATH", str(system_bin_without_claude))
    r = invoke("hooks", "uninstall", "--agent", "codex")
    assert r.code == 0 and "deleted" in r.out and "trust:" not in r.out
    assert not hooks_file(isolated_home).exists()


def test_install_leaves_the_bytes_of_the_persons_own_entries_as_they_were(isolated_home, codex_bin):
    target = hooks_file(isolated_home)
    target.parent.mkdir()
    stop = '{"hooks": [ {"type": "command", "command": "notify-send done"} ]}'
    guard = '"PreToolUse": [{ "matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}] }]'
    original = ('{\n    "description": "mine",\n    "hooks": {\n        "Stop": [\n            ' + stop
                + '\n        ],\n        ' + guard + '\n    }\n}\n')
    target.write_text(original)
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0, r.out + r.err
    text = target.read_text()
    assert '        "Stop": [\n            ' + stop + ",\n            {\n" in text  # ours follows, indented as theirs
    assert "\n        " + guard + ",\n" in text
    assert text.startswith('{\n    "description": "mine",\n    "hooks": {\n')
    assert json.loads(text) == settings.merged(json.loads(original), settings.CODEX_EVENTS, agent=settings.CODEX)
    assert invoke("hooks", "uninstall", "--agent", "codex").code == 0
    assert target.read_text() == original
