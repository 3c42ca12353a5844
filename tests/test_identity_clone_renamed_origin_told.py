"""Two clones of one repository on this machine; the repository is renamed and one clone's origin is
changed to the new name. Its memory stays with the other clone, still on the old origin
(docs/how/project-key.md, "Two clones, one memory"), so the changed clone starts empty: the person is
told so at that start, with the command that takes the memory over, rather than only in hooks.log
(``lh memory path --old`` offers nothing, the folder being the other clone's)."""

import json
import os

from lazy_harness import paths
from tests.hooks.hookrun import run_hook
from tests.memory.test_identity_review_fixes import repo, worked_in
from tests.support.git_repos import git


def _start(root: str) -> dict:
    r = run_hook("SessionStart", {"session_id": "5f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f47", "cwd": root,
                                  "hook_event_name": "SessionStart", "source": "startup"})
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout) if r.stdout else {}


def test_the_clone_whose_origin_was_renamed_is_told_where_its_memory_is(tmp_path):
    a = repo(str(tmp_path / "work" / "api"), origin="git@github.com:team/api.git")
    b = str(tmp_path / "scratch" / "api")
    os.makedirs(os.path.dirname(b))
    git("clone", "-q", a, b, cwd=str(tmp_path))
    git("remote", "set-url", "origin", "git@github.com:team/api.git", cwd=b)
    shared = worked_in(a)
    assert worked_in(b, session="sess-b", full=False) == shared  # one memory, as documented
    git("remote", "set-url", "origin", "git@github.com:team/api-server.git", cwd=b)  # the repository renamed

    told = str(_start(b).get("systemMessage") or "")
    assert f"lh memory adopt --force -- {os.path.basename(shared)}" in told, told
    assert a in told, told  # names the clone that still uses it
    assert paths.memory_dir(b) != shared
    told_a = str(_start(a).get("systemMessage") or "")
    assert "lh memory adopt" not in told_a, told_a  # the clone still on the old origin is told nothing
