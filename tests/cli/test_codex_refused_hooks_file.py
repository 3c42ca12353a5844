"""A hooks.json Codex refuses: codex-cli 0.171.0 reads only ``description`` and ``hooks`` at its top and
refuses the whole file for any other key (``$schema`` too); its ``hooks/list`` then lists none of the
file's hooks and says why in the answer's ``warnings``. Install and doctor pass Codex's reason on."""

import json

import pytest

from lazy_harness import paths, settings
from tests.cli.lhrun import invoke
from tests.cli.test_codex_doctor_status import codex_rows
from tests.support import fake_codex_app_server as fake_codex

EVENTS = {"SessionStart", "Stop", "SessionEnd", "UserPromptSubmit"}
# the fake app-server, made as strict as the real one: a top-level key other than these two and the file
# is refused, with the warning codex 0.171.0 writes (tests/e2e/test_codex_budget_codex.py checks the real one)
REFUSAL = '''
def refusal():
    try:
        with open(hooks_file) as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    extra = [k for k in data if k not in ("description", "hooks")]
    if not extra:
        return None
    return (f"failed to parse hooks config {hooks_file}: unknown field `{extra[0]}`, expected `description` "
            "or `hooks` at line 1 column 22")

for line in sys.stdin:'''
LISTED = '"hooks": listing(), "warnings": []'
STRICT_LISTED = '"hooks": [] if refusal() else listing(), "warnings": [refusal()] if refusal() else []'


@pytest.fixture
def codex_bin(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    script = fake_codex.install(bin_dir)
    text = script.read_text()
    assert LISTED in text and "\nfor line in sys.stdin:" in text  # the fake still answers as this test expects
    script.write_text(text.replace(LISTED, STRICT_LISTED).replace("\nfor line in sys.stdin:", REFUSAL))
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    return bin_dir


def kept_note(home):
    target = home / ".codex" / "hooks.json"
    target.parent.mkdir()
    target.write_text(json.dumps({"hooks": {}, "x-note": "my notes"}) + "\n")
    return target


def test_install_says_codex_refuses_the_file_and_why(isolated_home, codex_bin):
    target = kept_note(isolated_home)
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 1  # Codex runs none of the hooks: not a success
    data = json.loads(target.read_text())
    assert data["x-note"] == "my notes"  # the person's key stays: their file, their call
    assert {o.event for o in settings.find_ours(data)} == EVENTS
    warning = next(line for line in r.out.splitlines() if line.startswith("warning:") and "x-note" in line)
    assert str(target) in warning and '"description"' in warning and '"hooks"' in warning
    trust = next(line for line in r.out.splitlines() if line.startswith("trust:"))
    assert f"Codex refuses {target}: unknown field `x-note`" in trust
    assert "remove `x-note`" in trust and "type /hooks" not in trust  # Codex lists no hook to trust there
    assert fake_codex.trusted(isolated_home / ".codex") == {}


def test_doctor_fails_codex_hooks_with_codexs_reason(isolated_home, codex_bin, tmp_path, monkeypatch):
    target = kept_note(isolated_home)
    invoke("hooks", "install", "--agent", "codex")
    monkeypatch.chdir(tmp_path)
    r = invoke("doctor")
    rows = codex_rows(r.out)
    hooks = next(row for row in rows if "codex hooks" in row)
    assert hooks.startswith(f"fail  codex hooks: Codex refuses {target}: unknown field `x-note`"), rows
    assert "remove `x-note`" in hooks
    assert not any(row.split(":")[0].split()[1:] == ["codex", "trust"] and row.startswith("ok") for row in rows)
    assert r.code == 1


def test_status_says_codex_refuses_the_file(isolated_home, codex_bin):
    target = kept_note(isolated_home)
    invoke("hooks", "install", "--agent", "codex")
    line = next(x for x in invoke("status").out.splitlines() if x.startswith("codex: "))
    assert f"Codex refuses {target}" in line and "x-note" in line


def test_once_the_key_is_gone_install_trusts_the_hooks(isolated_home, codex_bin):
    target = kept_note(isolated_home)
    invoke("hooks", "install", "--agent", "codex")
    data = json.loads(target.read_text())
    del data["x-note"]
    target.write_text(json.dumps(data))
    r = invoke("hooks", "install", "--agent", "codex")
    assert "trust: 4 hooks trusted" in r.out and not any(line.startswith("warning:") for line in r.out.splitlines())
    assert codex_rows(invoke("doctor").out)[0].startswith("ok    codex hooks: ")


def test_a_description_is_no_reason_to_warn(isolated_home, codex_bin):
    target = isolated_home / ".codex" / "hooks.json"
    target.parent.mkdir()
    target.write_text(json.dumps({"description": "my hooks", "hooks": {}}))
    r = invoke("hooks", "install", "--agent", "codex")
    assert "trust: 4 hooks trusted" in r.out and "warning:" not in r.out
    assert paths.codex_hooks_file() == str(target)
