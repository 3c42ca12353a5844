"""A session start (compact, clear) while the project's folder is away (moved and back, a disk not
mounted, removed and cloned again at its path) tells nothing of the repository that was there. It said
"<key> was the memory of another repository at <folder>, left there" to the person, and recorded the
folder's path key as the project's: once the folder was back and its origin later changed, the memory
did not follow (the record no longer named the key it was written under). Now such a start leaves the
record alone and says nothing of it; the memory follows the origin's change as without the episode."""

import json
import os
import shutil

from lazy_harness import paths
from lazy_harness.memory import last_key
from tests.hooks.hookrun import run_hook
from tests.memory.test_follows_project import TITLES, add_origin, learning, set_origin, shown, start, write_as_session
from tests.support import memory_samples as ms


def test_a_start_while_the_folder_is_away_changes_nothing_the_memory_follows(tmp_path):
    root = ms.make_project(tmp_path / "work", "api")
    add_origin(root, "git@github.com:team/api.git")
    write_as_session(root, {"learnings": [learning(t) for t in TITLES],
                            "decisions": [{"summary": "Deploy the api with the blue green script"}]})
    first = paths.memory_dir(root)
    last_key.remember_key(root, first)  # what the worker keeps after each task
    record = paths.last_key_file(root)
    with open(record, encoding="utf-8") as fh:
        kept = fh.read()
    away = root + ".away"
    shutil.move(root, away)
    r = run_hook("SessionStart", {"session_id": "s-away", "cwd": root, "hook_event_name": "SessionStart",
                                  "source": "compact"})
    assert r.returncode == 0, r.stderr
    said = json.loads(r.stdout).get("systemMessage", "") if r.stdout else ""
    assert "another repository" not in said, said
    with open(record, encoding="utf-8") as fh:
        assert fh.read() == kept
    shutil.move(away, root)
    assert shown(start(root, "s-back")) == 3
    set_origin(root, "git@github.com:team/api-renamed.git")  # the repository renamed: the memory follows
    assert paths.memory_dir(root) != first
    text = start(root, "s-renamed")
    assert shown(text) == 3 and "blue green" in text
    assert os.path.exists(os.path.join(paths.memory_dir(root), "decisions.jsonl"))
