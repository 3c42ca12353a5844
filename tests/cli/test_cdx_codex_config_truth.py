"""What Codex's own configuration says about our hooks: a config.toml Codex cannot read (it names the
file, line and column in ``hooks/list``'s ``errors``, under the cwd, and lists no hook), and
``[features] hooks = false`` (``hooks/list`` lists no hook and says nothing; ``config/read`` gives the
effective ``features.hooks`` and, with ``includeLayers``, the file it comes from). Install, doctor and
status pass Codex's words on instead of sending the person to ``/hooks``."""

import pytest

from tests.cli.lhrun import invoke
from tests.cli.test_codex_doctor_status import codex_rows, system_bin_without_claude
from tests.support import fake_codex_app_server as fake_codex

__all__ = ["system_bin_without_claude"]  # a fixture used below

# what codex-cli 0.171.0 answered for the review's typo (``[projects."/home/me/p"`` without its ``]``);
# tests/e2e/test_cdx_codex_config_truth.py checks the real one
TYPO = 'model = "gpt-5"\n[projects."/home/me/p"\ntrust_level = "trusted"\n'
TYPO_REASON = "2:23: unclosed table, expected `]`"
# the fake, taught the two answers of codex 0.171.0 observed with these config.toml files
CONFIG = '''
def config_state():
    import tomllib
    path = os.path.join(home, "config.toml")
    try:
        with open(path, "rb") as fh:
            return path, tomllib.load(fh), None
    except OSError:
        return path, {}, None
    except tomllib.TOMLDecodeError:
        return path, None, f"{path}:''' + TYPO_REASON + '''"

def hooks_answer(cwd):
    path, data, error = config_state()
    if error:
        return {"hooks": [], "warnings": [], "errors": [{"path": cwd, "message": error}]}
    off = (data.get("features") or {}).get("hooks") is False
    return {"hooks": [] if off else listing(), "warnings": [], "errors": []}

def config_read(rid):
    path, data, error = config_state()
    if error:
        return answer(rid, error={"code": -32603, "message": "failed to read configuration layers: " + error})
    features = dict(data.get("features") or {})
    origins = {f"features.{k}": {"name": {"type": "user", "file": path, "profile": None}, "version": "sha256:0"}
               for k in features}
    features.setdefault("memories", False)
    answer(rid, {"config": {"model": data.get("model"), "features": features}, "origins": origins,
                 "layers": [{"name": {"type": "user", "file": path, "profile": None}, "config": data}]})

for line in sys.stdin:'''
LISTED = '"hooks": listing(), "warnings": [], "errors": []'
READ = '    elif method == "config/batchWrite":'


@pytest.fixture
def codex_bin(tmp_path, monkeypatch, system_bin_without_claude):
    bin_dir = tmp_path / "bin"
    script = fake_codex.install(bin_dir)
    text = script.read_text()
    assert LISTED in text and READ in text and "\nfor line in sys.stdin:" in text  # the fake answers as expected
    text = text.replace(LISTED, "**hooks_answer(c)").replace("\nfor line in sys.stdin:", CONFIG)
    text = text.replace(READ, '    elif method == "config/read":\n        config_read(rid)\n' + READ)
    script.write_text(text)
    # why not /usr/bin itself: a claude installed there (npm install -g) would be the distiller
    monkeypatch.setenv("PATH", f"{bin_dir}:{system_bin_without_claude}")
    return bin_dir


@pytest.fixture
def project(tmp_path, monkeypatch):
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def codex_config(home, text: str):
    path = home / ".codex" / "config.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


def trust_of(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("trust:"))


def row(rows: list[str], check: str) -> str:
    return next(r for r in rows if r.split(":")[0].split()[1:] == check.split())


# -- a config.toml Codex cannot read -------------------------------------------------------------------------

def test_install_passes_codexs_config_error_on_and_exits_1(isolated_home, codex_bin, project):
    cfg = codex_config(isolated_home, TYPO)
    r = invoke("hooks", "install", "--agent", "codex")
    trust = trust_of(r.out)
    assert f"{cfg}:{TYPO_REASON}" in trust, r.out
    assert "/hooks" not in trust
    assert r.code == 1
    assert fake_codex.trusted(isolated_home / ".codex") == {}


def test_doctor_fails_codex_hooks_with_codexs_config_error(isolated_home, codex_bin, project):
    invoke("hooks", "install", "--agent", "codex")
    cfg = codex_config(isolated_home, TYPO)
    r = invoke("doctor")
    rows = codex_rows(r.out)
    hooks = row(rows, "codex hooks")
    assert hooks.startswith("fail  codex hooks: ") and f"{cfg}:{TYPO_REASON}" in hooks, rows
    assert not any("unknown" in x for x in rows), rows
    assert r.code == 1


def test_status_shows_codexs_config_error(isolated_home, codex_bin, project):
    invoke("hooks", "install", "--agent", "codex")
    cfg = codex_config(isolated_home, TYPO)
    line = next(x for x in invoke("status").out.splitlines() if x.startswith("codex: "))
    assert f"{cfg}:{TYPO_REASON}" in line and "trust unknown" not in line


# -- [features] hooks = false ---------------------------------------------------------------------------------

def off_message(cfg) -> str:
    return f"Codex's hooks are off ([features] hooks = false in {cfg})"


def test_install_says_codexs_hooks_are_off_and_exits_1(isolated_home, codex_bin, project):
    cfg = codex_config(isolated_home, 'model = "gpt-5"\n\n[features]\nhooks = false\n')
    r = invoke("hooks", "install", "--agent", "codex")
    assert off_message(cfg) in trust_of(r.out), r.out
    assert "/hooks" not in trust_of(r.out)
    assert r.code == 1
    assert (isolated_home / ".codex" / "hooks.json").exists()  # the hooks are in place for when it is fixed


def test_doctor_fails_and_status_says_codexs_hooks_are_off(isolated_home, codex_bin, project):
    invoke("hooks", "install", "--agent", "codex")
    cfg = codex_config(isolated_home, "[features]\nhooks = false\n")
    r = invoke("doctor")
    hooks = row(codex_rows(r.out), "codex hooks")
    assert hooks.startswith(f"fail  codex hooks: {off_message(cfg)}"), r.out
    assert r.code == 1
    line = next(x for x in invoke("status").out.splitlines() if x.startswith("codex: "))
    assert off_message(cfg) in line


def test_hooks_on_in_config_toml_installs_and_trusts_as_before(isolated_home, codex_bin, project):
    codex_config(isolated_home, "[features]\nhooks = true\n")
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0, r.out
    assert trust_of(r.out).startswith("trust: 4 hooks trusted")
    assert row(codex_rows(invoke("doctor").out), "codex trust") == "ok    codex trust: Codex trusts our hooks"


def test_doctor_warns_when_codexs_hooks_load_another_install(isolated_home, codex_bin, project, tmp_path):
    from pathlib import Path

    from lazy_harness import settings
    from lazy_harness.cli import hooks_codex

    assert invoke("hooks", "install", "--agent", "codex").code == 0
    hooks_json = Path(hooks_codex.inspect(str(project)).path)
    mine = settings.package_folder(settings.split_command(settings.command_for("SessionStart")))
    other = tmp_path / "other-venv" / "site-packages"
    (other / "lazy_harness" / "hooks").mkdir(parents=True)
    (other / "lazy_harness" / "hooks" / "launch.py").write_text("")
    text = hooks_json.read_text(encoding="utf-8")
    assert mine and mine in text
    hooks_json.write_text(text.replace(mine, str(other)), encoding="utf-8")
    hooks = row(codex_rows(invoke("doctor").out), "codex hooks")
    assert hooks.startswith("warn  codex hooks: ") and str(other) in hooks and "another install" in hooks, hooks
