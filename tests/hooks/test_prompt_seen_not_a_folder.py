"""A file where the index writer's ``recall/seen`` folder should be (a restore, a hand-made file): the
writer cannot record what it read (every update fails, and every session start asks for another). The
prompt hook still answers and exits 0; ``lh doctor`` names the file and how to fix it."""

import os

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import SID, run_hook
from tests.hooks.test_user_prompt import PROMPT, project  # noqa: F401 - the fixture
from tests.support import memory_samples as ms


def test_a_file_in_the_seen_folders_place_stops_no_prompt_and_doctor_names_it(project):  # noqa: F811
    ms.index_now()
    seen = paths.recall_seen_dir(paths.recall_index_file())
    for name in os.listdir(seen):
        os.unlink(os.path.join(seen, name))
    os.rmdir(seen)
    with open(seen, "w") as fh:
        fh.write("not a folder\n")
    r = run_hook("UserPromptSubmit", {"session_id": SID, "cwd": project, "hook_event_name": "UserPromptSubmit",
                                      "prompt": PROMPT})
    assert r.returncode == 0 and r.stderr == b"" and b"advisory locks" in r.stdout, r.stderr
    out = invoke("doctor").out
    named = [ln for ln in out.splitlines() if seen in ln]
    assert len(named) == 1 and "a file, not a folder" in named[0], out
    assert f"mv {seen} {seen}.aside" in named[0], named
