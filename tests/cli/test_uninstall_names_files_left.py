"""``lh hooks uninstall`` before ``pip uninstall lazy-harness``, as the README says, while the project's own
``.claude/settings.local.json`` (``--settings``) still holds our hooks: uninstall said "nothing to remove"
or "without hooks nothing is queued", and every session started in that project went on running them.
It now names each other settings file read here that still holds them, with the command that removes
them there, and says nothing is queued only when none does."""

import os

from lazy_harness import settings
from tests.cli.lhrun import invoke


def local_file(tmp_path, monkeypatch):
    project = tmp_path / "app"
    (project / ".claude").mkdir(parents=True)
    monkeypatch.chdir(project)
    local = project / ".claude" / "settings.local.json"
    settings.install(str(local))
    return local


def test_uninstall_of_the_user_file_names_the_projects_file_still_holding_them(isolated_home, tmp_path,
                                                                              monkeypatch):
    local = local_file(tmp_path, monkeypatch)
    assert invoke("hooks", "install", "--write-settings").code == 0
    r = invoke("hooks", "uninstall")
    assert r.code == 0
    assert (f"note: {local} still holds lazy-harness hooks: sessions started in {os.path.dirname(local.parent)} "
            f"run them (hint: lh hooks uninstall --settings {local})") in r.out, r.out
    assert "without hooks nothing is queued" not in r.out
    assert settings.find_ours(__import__("json").loads(local.read_text()))


def test_nothing_to_remove_in_the_user_file_still_names_where_they_are(isolated_home, tmp_path, monkeypatch):
    local = local_file(tmp_path, monkeypatch)
    r = invoke("hooks", "uninstall")
    assert r.code == 0 and f"nothing to remove: {isolated_home / '.claude' / 'settings.json'} does not exist" in r.out
    assert f"note: {local} still holds lazy-harness hooks" in r.out, r.out


def test_the_last_file_removed_says_nothing_is_queued(isolated_home, tmp_path, monkeypatch):
    local = local_file(tmp_path, monkeypatch)
    r = invoke("hooks", "uninstall", "--settings", str(local))
    assert r.code == 0 and "still holds" not in r.out and "without hooks nothing is queued" in r.out, r.out
