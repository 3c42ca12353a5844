"""``lh status`` with a settings.json that does not parse said "not registered ... (lh hooks install)",
a hint that fails: install refuses a file it cannot parse. The line names the file and what is wrong
with it, as ``lh doctor`` does."""

from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms


def _hooks_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("hooks:"))


def test_status_names_the_settings_file_that_does_not_parse(isolated_home, tmp_path, monkeypatch):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    user_file = isolated_home / ".claude" / "settings.json"
    user_file.parent.mkdir(parents=True, exist_ok=True)
    user_file.write_text('{"hooks": ')
    outcome = invoke("status")
    line = _hooks_line(outcome.out)
    assert outcome.code == 0
    assert str(user_file) in line and "not valid JSON" in line
    assert "fix the JSON" in line and "(lh hooks install)" not in line
    assert user_file.read_text() == '{"hooks": '


def test_status_names_a_settings_file_holding_an_array(isolated_home, tmp_path, monkeypatch):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    user_file = isolated_home / ".claude" / "settings.json"
    user_file.parent.mkdir(parents=True, exist_ok=True)
    user_file.write_text("[]")
    line = _hooks_line(invoke("status").out)
    assert str(user_file) in line and "an array" in line
