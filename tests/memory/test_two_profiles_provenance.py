"""Two profiles served by one process (two env mappings naming their own home and config): what is
written carries the author of the profile it was written for, and what is read is judged against that
profile's record of what ``lh sync`` brought in, not this process's environment's."""

import os
import time

from lazy_harness import config, paths
from lazy_harness.memory import files, ids, standing, store
from lazy_harness.recall.readback import digest
from tests.support import memory_samples as ms

NOW = time.time()
SUMMARY = "Use a file queue between hooks and worker"
REWORDED = "Use a capybara file queue between hooks and worker"


def profile(tmp_path, name: str, user: str) -> tuple[dict[str, str], str]:
    """(the profile's environment, its project folder)."""
    home = tmp_path / name
    home.mkdir()
    env = {"HOME": str(home), "USER": user, "LOGNAME": user, "PATH": os.environ["PATH"],
           "CLAUDE_CONFIG_DIR": str(home / ".claude")}
    return env, ms.make_project(str(home), "proj")


def test_each_profile_writes_its_own_author(tmp_path):
    written = {}
    for name, user in (("a", "ana"), ("b", "bo")):
        env, project = profile(tmp_path, name, user)
        mdir, ldir = paths.memory_dir(project, env), paths.learnings_dir(None, env)
        os.makedirs(mdir)
        meta = {"project": "proj", "session_id": f"s-{name}", "task_id": f"t-{name}", "cwd": project,
                "session_time": NOW}
        distilled = {"decisions": [{"summary": f"Decided for {user}"}],
                     "learnings": [{"title": f"Learned for {user}", "learning": "a text"}]}
        store.persist(distilled, mdir, ldir, meta, NOW, env)
        [rec] = files.read_entries(os.path.join(mdir, files.DECISIONS))
        [learning] = files.recent_learning_files(ldir, 10)
        with open(learning, encoding="utf-8") as fh:
            written[user] = (rec["author"], "\nauthor: " + user + "\n" in fh.read())
    assert written == {"ana": ("ana", True), "bo": ("bo", True)}


def lines_of_one_id(mdir: str) -> tuple[str, list[dict]]:
    """A decision and a later line carrying its id under another text, both naming this machine."""
    did = ids.entry_id("decision", SUMMARY)
    mine = ms.decision(NOW - 2 * ms.DAY, SUMMARY, "hooks must stay fast", id=did, via="session",
                       machine=os.uname().nodename)
    recs = [mine, {**mine, "summary": REWORDED}]
    os.makedirs(mdir, exist_ok=True)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), recs)
    return did, recs


def test_which_line_stands_is_judged_by_the_profiles_own_record_of_sync(tmp_path):
    """In profile b the later line came with ``lh sync`` (its record names the id): the entry it merely
    carries stands. In profile a, no such record: the later line is this machine's rewording, and stands."""
    shown = {}
    for name in ("a", "b"):
        env, project = profile(tmp_path, name, name)
        mdir = paths.memory_dir(project, env)
        did, recs = lines_of_one_id(mdir)
        if name == "b":
            record = paths.synced_in_file(env)
            os.makedirs(os.path.dirname(record), exist_ok=True)
            with open(record, "w", encoding="utf-8") as fh:
                fh.write(did + "\n")
        [kept] = standing.one_each(recs, "decision", env)
        text, _ = digest.build_context(project, config.defaults(), env, NOW, "startup")
        [line] = [ln for ln in text.splitlines() if did in ln]
        shown[name] = (kept["summary"], "capybara" in line, "sync from" in line)
    assert shown == {"a": (REWORDED, True, False), "b": (SUMMARY, False, True)}
