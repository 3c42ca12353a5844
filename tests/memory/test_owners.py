"""Learnings written before project keys were recorded (only ``origin: <name>``) and memory folders
whose project moved: adopted into the one project they can belong to, listed for the person
otherwise, never dropped (docs/how/project-key.md, ADR 0035)."""

import json
import os
import shutil
import time

from lazy_harness import config, paths
from lazy_harness.memory import aliases
from lazy_harness.worker import housekeeping
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import TITLES, project_with_three, shown, start, write_as_session
from tests.support import memory_samples as ms

NOW = time.time()
OLD = "Staging host is stage-7.internal"


def legacy_learning() -> str:
    """A project learning as versions before keys wrote it; its session's transcript is long gone."""
    return ms.write_learning(paths.learnings_dir(), OLD, "api", NOW - 86400 * 60, scope="project",
                             learning="The api staging deploy goes to stage-7.internal", tags=["staging", "deploy"])


def project(parent, name: str = "api", session: str = "sess-a") -> str:
    root = ms.make_project(parent, name)
    write_as_session(root, {"decisions": [{"summary": f"Deploy {parent.name} with the blue green script"}]},
                     session=session)
    return root


def test_an_old_learning_goes_to_the_one_project_of_its_name_at_the_workers_run(tmp_path):
    root = project(tmp_path / "work")
    legacy_learning()
    assert OLD not in start(root)  # no key, no transcript: shown nowhere before
    housekeeping.adopt_orphans(config.load(os.environ), os.environ)
    assert OLD in start(root, sid="after")
    assert "stage-7" in invoke("memory", "search", "staging", "deploy", "--project", root).out
    with open(os.path.join(paths.memory_dir(root), aliases.FILE)) as fh:
        assert [json.loads(ln)["op"] for ln in fh] == ["adopt"]
    # again: nothing new
    housekeeping.adopt_orphans(config.load(os.environ), os.environ, now=NOW + 2 * housekeeping.ADOPT_EVERY)
    with open(os.path.join(paths.memory_dir(root), aliases.FILE)) as fh:
        assert len(fh.read().splitlines()) == 1


def test_two_projects_of_that_name_get_it_listed_with_the_command_and_the_person_assigns_it(tmp_path):
    work, client = project(tmp_path / "work"), project(tmp_path / "clients", session="sess-c")
    path = legacy_learning()
    listed = invoke("memory", "unassigned")
    assert listed.code == 0 and OLD in listed.out and "lh memory assign l-" in listed.out, listed.out
    assert os.path.basename(paths.memory_dir(work)) in listed.out
    assert os.path.basename(paths.memory_dir(client)) in listed.out
    assert OLD not in start(work) and OLD not in start(client)  # not given to either by itself
    lid = listed.out.split("lh memory assign ", 1)[1].split()[0]
    done = invoke("memory", "assign", lid, "--project", work)
    assert done.code == 0, done.out + done.err
    assert OLD in start(work, sid="w2") and OLD not in start(client, sid="c2")
    assert OLD not in invoke("memory", "unassigned").out and os.path.exists(path)


def test_a_moved_project_finds_its_old_memory_by_path_old_and_adopts_it(tmp_path):
    root = project_with_three(tmp_path)
    old_dir = paths.memory_dir(root)
    sessions = os.path.join(paths.projects_dir(), paths.project_key(root))  # Claude Code's folder of the old path
    os.makedirs(sessions)
    with open(os.path.join(sessions, "sess-a.jsonl"), "w") as fh:
        fh.write(json.dumps({"type": "user", "cwd": root, "sessionId": "sess-a"}) + "\n")
    moved = str(tmp_path / "elsewhere" / "api")
    os.makedirs(os.path.dirname(moved))
    shutil.move(root, moved)
    assert paths.memory_dir(moved) != old_dir and shown(start(moved)) == 0
    listed = invoke("memory", "path", "--old", "--project", moved)
    assert listed.code == 0 and os.path.basename(old_dir) in listed.out and f"was {root}" in listed.out, listed.out
    assert "1 decisions" in listed.out and "3 learnings" in listed.out
    done = invoke("memory", "adopt", "--project", moved, "--", os.path.basename(old_dir))
    assert done.code == 0, done.out + done.err
    text = start(moved, sid="after")
    assert shown(text) == 3 and "blue green" in text
    assert "already this project's" in invoke("memory", "path", "--old", "--project", moved).out
    again = invoke("memory", "adopt", "--project", moved, "--", os.path.basename(old_dir))
    assert again.code == 0
    with open(os.path.join(paths.memory_dir(moved), "decisions.jsonl")) as fh:
        assert len(fh.read().splitlines()) == 1  # adopted twice: nothing added twice


def test_adopting_the_memory_of_a_project_that_still_exists_is_refused(tmp_path):
    a, b = project(tmp_path / "one"), project(tmp_path / "two", name="web", session="sess-b")
    sessions = os.path.join(paths.projects_dir(), paths.project_key(b))
    os.makedirs(sessions)
    with open(os.path.join(sessions, "sess-b.jsonl"), "w") as fh:
        fh.write(json.dumps({"type": "user", "cwd": b, "sessionId": "sess-b"}) + "\n")
    refused = invoke("memory", "adopt", "--project", a, "--", os.path.basename(paths.memory_dir(b)))
    assert refused.code == 1 and "still exists" in refused.err + refused.out
    assert not os.path.exists(os.path.join(paths.memory_dir(a), aliases.FILE))
    assert all(t not in start(a) for t in TITLES)


def test_a_renamed_project_folder_keeps_its_learnings_everywhere_once_adopted(tmp_path):
    root = project_with_three(tmp_path)
    old_key = os.path.basename(paths.memory_dir(root))
    renamed = str(tmp_path / "work" / "api-v2")
    os.rename(root, renamed)
    done = invoke("memory", "adopt", "--project", renamed, "--", old_key)
    assert done.code == 0, done.out + done.err
    assert shown(start(renamed)) == 3
    found = invoke("memory", "search", "staging", "deploy", "--project", renamed)
    assert "stage-7" in found.out and "[project-only" not in found.out, found.out
    listed = invoke("memory", "show", "--project", renamed).out
    assert all(listed.count(t) >= 2 for t in TITLES), listed  # given to the session, and in the list


def test_the_page_lists_the_learnings_of_an_earlier_key_as_the_projects_own(tmp_path):
    from lazy_harness.ui import memory_lists, reading

    root = project_with_three(tmp_path)
    old_key = os.path.basename(paths.memory_dir(root))
    renamed = str(tmp_path / "work" / "api-v2")
    os.rename(root, renamed)
    here = reading.projects(renamed, config.load_fast(os.environ), os.environ)[0]
    assert not any(m["title"] in TITLES for m in memory_lists.learnings(here)[0])
    assert invoke("memory", "adopt", "--project", renamed, "--", old_key).code == 0
    assert sorted(m["title"] for m in memory_lists.learnings(here)[0]) == sorted(TITLES)


def test_of_two_projects_of_that_name_its_sessions_transcript_decides_and_the_alias_says_so(tmp_path):
    work, client = project(tmp_path / "work"), project(tmp_path / "clients", session="sess-c")
    folder = os.path.join(paths.projects_dir(), "-clients-api")
    os.makedirs(folder)
    with open(os.path.join(folder, "sess-old.jsonl"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "user", "cwd": client, "sessionId": "sess-old"}) + "\n")
    ms.write_learning(paths.learnings_dir(), OLD, "api", NOW - 86400 * 60, scope="project",
                      origin_session="sess-old", learning="The api staging deploy goes to stage-7.internal")
    housekeeping.adopt_orphans(config.load(os.environ), os.environ)
    assert OLD in start(client, sid="c2") and OLD not in start(work, sid="w2")
    with open(os.path.join(paths.memory_dir(client), aliases.FILE)) as fh:
        adopted = [json.loads(ln) for ln in fh]
    assert [a["op"] for a in adopted] == ["adopt"]
    assert "transcript" in json.dumps(adopted[0]), adopted[0]


def test_a_learning_whose_origin_is_not_text_stops_no_adoption(tmp_path):
    """A hand edit made one legacy learning's origin a list (``origin: [api]``): it names no project and is
    left alone, and the others are adopted as before; ``lh memory unassigned`` lists what it did."""
    root = project(tmp_path / "work")
    legacy_learning()
    odd = ms.write_learning(paths.learnings_dir(), "Odd origin learning", "api", NOW - 86400 * 50, scope="project",
                            slug="odd")
    with open(odd, encoding="utf-8") as fh:
        text = fh.read()
    assert "origin: api" in text
    with open(odd, "w", encoding="utf-8") as fh:
        fh.write(text.replace("origin: api", "origin: [api]", 1))
    listed = invoke("memory", "unassigned")
    assert listed.code == 0 and "Traceback" not in listed.err, listed.err[-500:]
    housekeeping.adopt_orphans(config.load(os.environ), os.environ)
    assert OLD in start(root, sid="after")  # the other one was adopted all the same
    with open(odd, encoding="utf-8") as fh:
        assert "origin: [api]" in fh.read()  # left as the person wrote it
