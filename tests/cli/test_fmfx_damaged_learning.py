"""A learning whose quote left open swallowed its keys is named by file and line where a damaged
decision line is: ``lh memory show``'s learnings section, ``lh memory check``, and SessionStart's
hooks.log line; the person is not told it waits for approval."""

import json
import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import store
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import SID, hook_log, run_hook
from tests.support import memory_samples as ms

NOW = 1_760_000_000.0
ITEM = {"title": "Backoff on retries", "learning": "Every retry loop needs backoff with jitter.", "scope": "general"}


@pytest.fixture
def damaged(tmp_path) -> tuple[str, str]:
    root = ms.make_project(tmp_path, "proj")
    mdir, ldir = paths.memory_dir(root), paths.learnings_dir()
    store.persist({"decisions": [{"summary": "Keep the queue on disk", "rationale": "fewer parts"}],
                   "learnings": [ITEM]}, mdir, ldir, {"project": "proj", "session_id": "s-1", "cwd": root}, NOW)
    [path] = [os.path.join(dp, n) for dp, _, names in os.walk(ldir) for n in names if n.endswith(".md")]
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text.replace("title: ", 'title: "unclosed ', 1))
    return root, path


def test_show_names_the_damaged_learning_by_file_and_line(damaged):
    root, path = damaged
    shown = invoke("memory", "show", "--section", "learnings", "--project", root)
    assert shown.code == 0
    named = [ln for ln in shown.err.splitlines() if path in ln]
    assert len(named) == 1 and f"{path}:3: title: " in named[0] and "not listed" in named[0], shown.err
    assert "unclosed" not in shown.out  # its swallowed frontmatter is not listed as a title


def test_check_names_the_line_the_quote_opens_on(damaged):
    root, path = damaged
    check = invoke("memory", "check", "--project", root)
    assert f"{path}: line 3: title: " in check.out, check.out


def test_session_start_log_names_it_and_nobody_is_told_it_waits(damaged, isolated_home):
    root, path = damaged
    done = run_hook("SessionStart", {"session_id": SID, "transcript_path": "", "cwd": root,
                                     "hook_event_name": "SessionStart", "source": "startup"})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout or b"{}")
    assert "waits for your approval" not in str(out.get("systemMessage"))
    [line] = [ln for ln in hook_log(paths.claude_dir()) if "SessionStart" in ln and "context" in ln]
    assert f"{path}:3: title: " in line and "learnings 0 of 0" in line, line
