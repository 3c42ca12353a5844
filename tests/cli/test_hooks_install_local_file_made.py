"""``lh hooks install --settings .claude/settings.local.json`` in a project where the file does not exist yet:
Claude Code, when it makes that file, configures git to ignore it; lh made it without, so the next
``git add .claude`` committed this machine's interpreter path for every teammate. Install now says so
when it creates the file (it writes nothing outside the file: no .gitignore of the person's is edited)."""

from tests.cli.lhrun import invoke


def test_creating_a_projects_local_file_says_to_keep_it_out_of_git(isolated_home, tmp_path, monkeypatch):
    project = tmp_path / "app"
    (project / ".claude").mkdir(parents=True)
    monkeypatch.chdir(project)
    local = project / ".claude" / "settings.local.json"
    out = invoke("hooks", "install", "--write-settings", "--settings", str(local)).out
    assert (f"note: {local} is yours only and names this machine's interpreter: keep it out of git (Claude Code "
            "ignores it in git when it makes the file itself; lh does not edit your .gitignore) (hint: echo "
            ".claude/settings.local.json >> .gitignore)") in out, out
    assert not (project / ".gitignore").exists()
    again = invoke("hooks", "install", "--write-settings", "--settings", str(local)).out
    assert "keep it out of git" not in again


def test_the_user_file_gets_no_such_note(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "keep it out of git" not in invoke("hooks", "install", "--write-settings").out
