"""Readers of Claude Code's and Codex's files that still opened one by its name with a plain ``open``: a
FIFO in its place held ``lh hooks install``, ``lh doctor`` or the worker there until a writer came. The
backup of settings.json install keeps, Claude Code's plugin files, Codex's config.toml (read for the MCP
servers to turn off and for a TOML error). Each now stops on one line naming the file; nothing written."""

import os

import pytest

from lazy_harness import paths, plugin, settings_write
from lazy_harness.errors import SettingsError
from lazy_harness.worker import codex_distill, llm
from tests.support.fifo_wait import call_beside


def test_install_names_a_fifo_in_place_of_the_settings_backup_and_writes_nothing(tmp_path):
    target = tmp_path / "settings.json"
    target.write_text('{"theme": "dark"}\n')
    backup = str(tmp_path / "settings.json.lh-backup")
    os.mkfifo(backup)
    with pytest.raises(SettingsError) as caught:
        call_beside([backup], settings_write.write_kept, str(target), b'{"hooks": {}}\n', target.read_bytes(),
                    {"theme": "dark"}, backup, 0.0, lambda data: "")
    assert caught.value.message == f"{backup}: cannot read: not a regular file; nothing written"
    assert target.read_text() == '{"theme": "dark"}\n'


def test_a_fifo_in_place_of_claude_codes_plugin_file_is_named(isolated_home):
    fifo = paths.claude_plugins_file()
    os.makedirs(os.path.dirname(fifo), exist_ok=True)
    os.mkfifo(fifo)
    with pytest.raises(SettingsError) as caught:
        call_beside([fifo], plugin._read_json, fifo)
    assert caught.value.message == f"{fifo}: cannot read: not a regular file"


def test_a_fifo_in_place_of_codexs_config_stops_the_call_before_codex_waits_on_it(isolated_home):
    fifo = codex_distill.config_file()
    os.makedirs(os.path.dirname(fifo), exist_ok=True)
    os.mkfifo(fifo)
    with pytest.raises(llm.CallError) as caught:
        call_beside([fifo], codex_distill.mcp_servers, None)
    assert caught.value.cause == "config" and caught.value.message.startswith(f"{fifo}: not a regular file")
    assert call_beside([fifo], codex_distill.toml_error) == f"{fifo}: not a regular file (codex would wait on it)"
