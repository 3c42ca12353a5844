"""Hidden files ending in ``.md`` beside a learning are no learnings: an Emacs lock saved as a regular
file (``.#<name>.md``) and a macOS AppleDouble file (``._<name>.md``). No file the product writes
starts with a dot, so no lister of learnings takes one: not SessionStart, not search, not
``lh memory show``, not the index (its writer), not ``lh memory forget``."""

import json
import os
import sqlite3
import time

from lazy_harness import paths
from lazy_harness.memory import files, hand_runs, ids
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import run_hook, spawned_workers_gone, worker_lock_held
from tests.support import memory_samples as ms

SID = "7a1e4c2d-9b3f-4e8a-a5d6-0c1b2d3e4f5a"
TITLE = "Zanzibar quokka alignment before launch"
HIDDEN = (".#", "._")


def _leftovers(path: str) -> list[str]:
    folder, name = os.path.split(path)
    lock, apple = os.path.join(folder, ".#" + name), os.path.join(folder, "._" + name)
    with open(lock, "w", encoding="utf-8") as fh:  # what Emacs writes, as a file (a copy that lost the link)
        fh.write("user@host.4242:1700000000 zanzibar quokka")
    with open(apple, "wb") as fh:  # macOS keeps a file's resource fork there on a foreign file system
        fh.write(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        \x00\x02" + b"\x00" * 40 + b"zanzibar quokka")
    return [lock, apple]


def _hidden_named(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if any(f"{os.sep}{h}" in ln or f"/{h}" in ln for h in HIDDEN)]


def _session_start(root: str) -> str:
    payload = {"session_id": SID, "transcript_path": f"/nowhere/{SID}.jsonl", "cwd": root,
               "hook_event_name": "SessionStart", "source": "startup", "model": "claude-sonnet-4-5"}
    with worker_lock_held(paths.claude_dir()):
        result = run_hook("SessionStart", payload)
    spawned_workers_gone()
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]


def test_hidden_md_files_beside_a_learning_are_read_by_no_lister(tmp_path):
    root = ms.make_project(str(tmp_path), "proj")
    mdir, ldir = paths.memory_dir(root), paths.learnings_dir()
    os.makedirs(mdir)
    path = ms.write_learning(ldir, TITLE, "proj", time.time() - 3600, learning="Run the zanzibar quokka script first.",
                             scope="project", project_folder=paths.project_key(root))
    hidden = _leftovers(path)

    context = _session_start(root)
    assert TITLE in context and not _hidden_named(context), context
    assert "by hand" not in context, context

    ms.index_now()
    conn = sqlite3.connect(paths.recall_index_file())
    try:
        indexed = [row[0] for row in conn.execute("SELECT file FROM entry WHERE kind='learning'")]
    finally:
        conn.close()
    assert indexed and all(os.path.basename(f)[:2] not in HIDDEN for f in indexed), indexed

    found = invoke("memory", "search", "--all-projects", "zanzibar", "quokka")
    assert found.code == 0 and TITLE in found.out and not _hidden_named(found.out), found.out
    shown = invoke("memory", "show", "--project", root)
    assert shown.code == 0 and TITLE in shown.out and not _hidden_named(shown.out), shown.out

    assert files.recent_learning_files(ldir, 100) == [path]
    for leftover in hidden:  # no learning has the id one would carry, so none can be forgotten
        lid = ids.of_learning({}, path=leftover)
        assert hand_runs.learning_paths(ldir, lid) == []
