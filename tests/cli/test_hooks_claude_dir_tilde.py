"""``CLAUDE_CONFIG_DIR='~/cfg'``: Claude Code (2.1.332, run with it) does not expand the ``~``; it reads
``<cwd>/~/cfg/settings.json`` and runs that file's hooks. lh expanded it, so ``lh hooks install`` wrote
``$HOME/cfg/settings.json``, a file Claude Code never reads: no hook ran. Now install writes the file
Claude Code reads."""

import json

from lazy_harness import settings
from tests.cli.lhrun import invoke


def test_install_writes_the_settings_file_claude_code_reads_for_a_tilde_config_dir(isolated_home, tmp_path,
                                                                                   monkeypatch):
    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.chdir(project)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "~/cfg")
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0, r.out + r.err
    read_by_claude = project / "~" / "cfg" / "settings.json"
    data = json.loads(read_by_claude.read_text())
    assert {o.event for o in settings.find_ours(data)} == set(settings.EVENTS)
    assert not (isolated_home / "cfg").exists()
