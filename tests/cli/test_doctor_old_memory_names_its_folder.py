"""``lh doctor``'s "old memory" line names the folder the old files are in for what it is: a project
that gained an origin remote has its files still in its memory folder of before (the path-keyed one
beside the new one), which the line called "Claude Code's folder"; Claude Code's own memory folder of
the project is still called so."""

import os

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import add_origin, project_with_three


def _old_memory(monkeypatch, root: str) -> str:
    monkeypatch.chdir(root)
    r = invoke("doctor")
    [line] = [ln for ln in r.out.splitlines() if " old memory: " in ln]
    return line


def test_files_left_in_the_folder_of_before_the_origin_are_not_called_claude_codes(tmp_path, monkeypatch):
    root = project_with_three(tmp_path)
    before = paths.memory_dir(root)
    add_origin(root)
    assert paths.memory_dir(root) != before
    line = _old_memory(monkeypatch, root)
    assert "Claude Code" not in line, line
    assert f"still in its memory folder from before it had an origin remote, {before}" in line, line


def test_files_in_claude_codes_own_folder_are_still_named_so(tmp_path, monkeypatch):
    root = project_with_three(tmp_path)
    legacy = paths.claude_memory_dir(paths.project_key(root))
    os.makedirs(legacy, exist_ok=True)
    with open(os.path.join(legacy, "decisions.jsonl"), "w", encoding="utf-8") as fh:
        fh.write('{"summary": "an old decision"}\n')
    line = _old_memory(monkeypatch, root)
    assert f"still in Claude Code's folder {legacy}" in line, line
