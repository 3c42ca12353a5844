"""lh doctor and lh status on Codex CLI: hooks installed, trusted (as the app-server reports), sessions seen."""

import pytest

from lazy_harness import paths
from lazy_harness import queue as spool
from tests.cli.lhrun import invoke
from tests.cli.test_status import SIDS, task
from tests.support import fake_codex_app_server as fake_codex
from tests.support import memory_samples as ms


@pytest.fixture(scope="session")
def system_bin_without_claude(tmp_path_factory):
    """/usr/bin and /bin as links, less any ``claude`` or ``codex`` (a machine where Claude Code or
    Codex was installed with ``npm install -g`` has one in /usr/bin): the tests below are of a machine
    without them (one that needs a codex puts its fake first)."""
    import os

    out = tmp_path_factory.mktemp("system-bin")
    for folder in ("/usr/bin", "/bin"):
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
            if name not in ("claude", "codex") and not (out / name).exists():
                (out / name).symlink_to(os.path.join(folder, name))
    return out


@pytest.fixture
def here(tmp_path, monkeypatch, system_bin_without_claude):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    bin_dir = tmp_path / "bin"
    fake_codex.install(bin_dir)
    monkeypatch.setenv("PATH", f"{bin_dir}:{system_bin_without_claude}")
    return {"project": project, "bin": bin_dir}


def codex_rows(out: str) -> list[str]:
    """The lines of Codex's hooks (codex hooks, codex trust, codex sessions); not the distiller's ``codex``."""
    return [line for line in out.splitlines() if line.split(":")[0].split()[1:2] == ["codex"]
            and line.split(":")[0].split()[2:]]


def lines_of(out: str) -> dict[str, str]:
    """check name -> its line (the last one of that name)."""
    return {line.split(":")[0].split(None, 1)[1]: line for line in out.splitlines()}


def write_config(text: str) -> None:
    import os

    cfg = paths.config_file()
    os.makedirs(os.path.dirname(cfg), exist_ok=True)
    with open(cfg, "w") as fh:
        fh.write(text)


def test_doctor_reports_codex_hooks_trusted_and_sessions_seen(here):
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    task(spool.DONE, SIDS[0], here["project"], 60, agent="codex", outcome="processed")
    task(spool.PENDING, SIDS[1], here["project"], 30, agent="codex")
    task(spool.DONE, SIDS[2], here["project"], 90, outcome="processed")  # Claude Code's
    rows = codex_rows(invoke("doctor").out)
    assert rows[0].startswith("ok    codex hooks: ") and "SessionStart" in rows[0]
    assert rows[1] == "ok    codex trust: Codex trusts our hooks"
    assert rows[2].startswith("ok    codex sessions: 2 seen")


def test_doctor_fails_hooks_codex_does_not_trust(here):
    fake_codex.control(here["bin"], "refuse")
    invoke("hooks", "install", "--agent", "codex")
    rows = codex_rows(invoke("doctor").out)
    trust = next(row for row in rows if "codex trust" in row)
    assert trust.startswith("fail  codex trust: not trusted: ") and "lh hooks install --agent codex" in trust


def test_doctor_says_trust_is_unknown_without_codex_and_suggests_installing_with_it(here, monkeypatch, tmp_path,
                                                                                    system_bin_without_claude):
    out = invoke("doctor").out
    assert "info  codex hooks: " in out and "lh hooks install --agent codex" in out
    invoke("hooks", "install", "--agent", "codex")
    monkeypatch.setenv("PATH", str(system_bin_without_claude))
    rows = codex_rows(invoke("doctor").out)
    assert any(row.startswith("warn  codex trust: unknown: codex is not on PATH") for row in rows)


def test_doctor_says_nothing_of_codex_where_it_is_neither_installed_nor_set_up(here, monkeypatch,
                                                                              system_bin_without_claude):
    monkeypatch.setenv("PATH", str(system_bin_without_claude))
    assert codex_rows(invoke("doctor").out) == []


def test_doctor_warns_of_a_damaged_hooks_json(here):
    path = paths.codex_hooks_file()
    import os

    os.makedirs(os.path.dirname(path))
    with open(path, "w") as fh:
        fh.write("{oops")
    rows = codex_rows(invoke("doctor").out)
    assert rows[0].startswith(f"warn  codex hooks: cannot read {path}: not valid JSON (line 1")


def test_status_shows_codex_and_marks_codex_sessions(here):
    invoke("hooks", "install", "--agent", "codex")
    task(spool.DONE, SIDS[0], here["project"], 60, agent="codex", outcome="skipped", reason="too short")
    task(spool.DONE, SIDS[1], here["project"], 30, outcome="skipped", reason="too short")
    out = invoke("status").out.splitlines()
    line = next(x for x in out if x.startswith("codex: "))
    assert "hooks installed (4 in" in line and "trust trusted" in line and line.endswith("; 1 session seen")
    assert any(SIDS[0][:8] + " (Codex)" in x for x in out)
    assert any(SIDS[1][:8] + "  skipped" in x for x in out)


def test_status_says_nothing_of_codex_when_it_is_not_set_up(here):
    assert not any(x.startswith("codex: ") for x in invoke("status").out.splitlines())


def test_hooks_status_shows_the_codex_hooks(here):
    invoke("hooks", "install", "--agent", "codex")
    out = invoke("hooks", "status").out
    assert any(x.startswith("codex: hooks installed (4 in ") and "trust trusted" in x for x in out.splitlines())


# -- a machine with Codex alone (no claude): the distiller doctor checks is the one the worker uses -------------

@pytest.mark.parametrize("distiller", ["auto", "codex"])
def test_doctor_passes_a_codex_only_machine(here, distiller):
    write_config(f'[worker]\ndistiller = "{distiller}"\n')
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    r = invoke("doctor")
    found = lines_of(r.out)
    assert r.code == 0, r.out
    assert found["codex"] == (f"ok    codex: {here['bin'] / 'codex'}: codex-cli 0.171.0; it distils sessions "
                              f"(worker.distiller = {distiller})")
    assert found["claude"].startswith("info  claude: claude not found on PATH: not needed here")
    assert "hint" not in found["claude"]
    assert found["hooks"].startswith("info  hooks: no Claude Code settings file holds lazy-harness hooks; "
                                     "Codex's hooks.json does")
    assert "hint" not in found["hooks"]
    assert not any(line.startswith("fail") for line in r.out.splitlines()), r.out


def test_hooks_status_on_a_codex_only_machine_gives_no_install_hint(here):
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    out = invoke("hooks", "status").out
    assert "no Claude Code settings file holds lazy-harness hooks (Codex's hooks.json does, below)" in out
    assert "hint: lh hooks install)" not in out


def test_a_codex_distiller_not_found_fails_and_names_its_install(here, monkeypatch, tmp_path,
                                                                 system_bin_without_claude):
    from tests.support import fake_claude

    write_config('[worker]\ndistiller = "codex"\n')
    fake_claude.install(tmp_path / "claude-bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'claude-bin'}:{system_bin_without_claude}")
    assert invoke("hooks", "install").code == 0
    r = invoke("doctor")
    found = lines_of(r.out)
    assert r.code == 1
    assert found["codex"].startswith("fail  codex: codex not found on PATH; it distils sessions (worker.distiller "
                                     "= codex)") and "npm install -g @openai/codex" in found["codex"]
    assert found["claude"].startswith("ok    claude: ")


def test_codex_hooks_and_a_claude_distiller_without_claude_still_fail(here):
    write_config('[worker]\ndistiller = "claude"\n')
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    r = invoke("doctor")
    found = lines_of(r.out)
    assert r.code == 1
    assert found["claude"].startswith("fail  claude: claude not found on PATH") and "codex" not in lines_of(r.out)
    assert found["hooks"].startswith("info  hooks: ")  # Codex's hooks.json holds ours


def test_neither_agent_holding_our_hooks_fails_the_hooks_line(here):
    found = lines_of(invoke("doctor").out)
    assert found["hooks"] == ("fail  hooks: no settings file holds lazy-harness hooks  (hint: lh hooks install, "
                              "or lh hooks install --agent codex)")


def _switch_off(event: str) -> None:
    """What Codex's /hooks writes when the person switches one hook off: ``hooks.state."<key>".enabled``."""
    import json
    import os

    from lazy_harness import codex_trust

    hooks = codex_trust.status(paths.codex_hooks_file(), os.getcwd())
    key = next(h["key"] for h in hooks if h["eventName"] == event)
    enabled = os.path.join(paths.codex_home(), "fake-enabled.json")
    with open(enabled, "w") as fh:
        json.dump({key: False}, fh)


def test_a_hook_switched_off_in_codexs_hooks_menu_is_named_by_doctor_status_and_install(here):
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    _switch_off("stop")
    rows = codex_rows(invoke("doctor").out)
    assert "ok    codex trust: Codex trusts our hooks" in rows  # trusted all the same
    off = next(row for row in rows if "codex hooks on" in row)
    assert off.startswith("fail  codex hooks on: switched off in Codex's /hooks: stop"), off
    assert "switched off in Codex's /hooks: stop" in invoke("status").out
    again = invoke("hooks", "install", "--agent", "codex").out
    assert "warning: switched off in Codex's /hooks: stop" in again and "left as you set it" in again
    import json
    import os

    with open(os.path.join(paths.codex_home(), "fake-enabled.json")) as fh:
        assert list(json.load(fh).values()) == [False]  # install does not turn it back on


def test_doctor_says_nothing_of_switched_off_hooks_when_all_are_on(here):
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    assert "codex hooks on" not in invoke("doctor").out
    assert "switched off" not in invoke("status").out


def test_install_leaves_a_read_only_config_toml_alone_and_says_how_to_trust_by_hand(here):
    """config/batchWrite rewrites Codex's config.toml (where Codex keeps trust): a file without its
    owner's write bit is the person's "no tool edits this", for the file we ask Codex to write too."""
    import os
    import stat

    config = os.path.join(paths.codex_home(), "config.toml")
    os.makedirs(os.path.dirname(config), exist_ok=True)
    with open(config, "w") as fh:
        fh.write('model = "gpt-5.1-codex"  # mine\n')
    os.chmod(config, 0o444)
    out = invoke("hooks", "install", "--agent", "codex")
    assert out.code == 0, out.out
    assert "trust: not done (" in out.out and "read-only; left untouched" in out.out and "/hooks" in out.out
    assert stat.S_IMODE(os.stat(config).st_mode) == 0o444
    with open(config) as fh:
        assert fh.read() == 'model = "gpt-5.1-codex"  # mine\n'
    assert not os.path.exists(os.path.join(paths.codex_home(), "fake-trust.json"))


def test_uninstall_with_a_read_only_config_toml_says_the_persons_own_hooks_need_trusting_again(here):
    import json
    import os

    assert invoke("hooks", "install", "--agent", "codex").code == 0
    hooks_file = paths.codex_hooks_file()
    with open(hooks_file) as fh:
        data = json.load(fh)
    data["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": "my-own.sh", "timeout": 5}]})
    with open(hooks_file, "w") as fh:
        json.dump(data, fh)
    config = os.path.join(paths.codex_home(), "config.toml")
    with open(config, "a") as fh:
        fh.write("# mine\n")
    os.chmod(config, 0o444)
    out = invoke("hooks", "uninstall", "--agent", "codex").out
    assert "read-only; left untouched" in out and "trust them again in /hooks" in out, out
