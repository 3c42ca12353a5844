"""worker/usage.py and worker/evidence.py (docs/how/usage.md): an entry's marks are read
in each of its fields alone, never in a phrase that runs from one field into the next; and a mark
followed by ``-`` and a word character is inside a longer name (``--no-cache`` in ``--no-cache-dir``),
so it is no use. The transcript is the one recorded from the real CLI (tests/fixtures)."""

from pathlib import Path

from lazy_harness import paths
from lazy_harness.memory import ids, learnings, usage, usage_log
from lazy_harness.worker import evidence
from lazy_harness.worker import usage as accounting
from tests.worker.test_usefx_usage import FIRST_ACT, _write  # the same entries, written the same way
from tests.support import memory_samples as ms
from tests.support.sessions import place

SID = "dddddddd-1111-4111-8111-000000000009"
# the summary alone and the rationale alone have no marks; read as one text, "production Surprises at
# release" is a rare phrase neither says
STAGING = {"summary": "Keep the staging database on the same minor version as production",
           "rationale": "Surprises at release"}
# each tag a plain word; read as one run of words, four of them make a "rare phrase"
TAGGED = {"summary": "Keep the reporting replica on the same minor version as production",
          "tags": ["postgres", "replica", "upgrades", "staging"]}
NO_CACHE = {"summary": "Docker images are built with `docker build --no-cache` so base images are fresh"}


def _words(act: str) -> str:
    return " " + " ".join(evidence._WORD.findall(act.lower())) + " "


def test_no_mark_runs_from_one_field_of_a_decision_into_the_next(isolated_home, tmp_path):
    mdir = str(tmp_path / "mem")
    staging, tagged = _write(mdir, "decision", STAGING), _write(mdir, "decision", TAGGED)
    texts = accounting.texts_of(mdir, paths.learnings_dir(), {staging, tagged})
    assert STAGING["summary"] in texts[staging] and "Surprises at release" in texts[staging]
    assert evidence.marks_of(texts[staging]) == []
    assert evidence.marks_of(texts[tagged]) == []  # nor from one tag into the next


def test_a_rare_phrase_inside_one_field_is_still_a_mark(isolated_home, tmp_path):
    mdir = str(tmp_path / "mem")
    eid = _write(mdir, "decision", {"summary": "Migrations run one at a time",
                                    "rationale": "Postgres advisory locks serialise concurrent migrations."})
    marks = evidence.marks_of(accounting.texts_of(mdir, paths.learnings_dir(), {eid})[eid])
    assert "postgres advisory locks serialise" in marks, marks


def test_no_mark_runs_from_a_learnings_title_into_its_body(isolated_home, tmp_path):
    ldir = paths.learnings_dir()
    path = ms.write_learning(ldir, STAGING["summary"], "p", 1_700_000_000, learning="Surprises at release.",
                             context="Where it applies.")
    lid = learnings.id_of(path)
    text = accounting.texts_of(str(tmp_path / "mem"), ldir, {lid})[lid]
    assert STAGING["summary"] in text and "Surprises at release" in text
    assert not [m for m in evidence.marks_of(text) if "production" in m], evidence.marks_of(text)


def test_an_entry_marked_only_across_its_fields_is_recorded_not_measurable(isolated_home, tmp_path):
    project = ms.make_project(str(tmp_path), "gamma")
    mdir = paths.memory_dir(project)
    staging = _write(mdir, "decision", STAGING)
    usage.note(None, SID, "startup", 500, [(staging, 160)], FIRST_ACT - 60, mdir)
    path = place(Path(project), "interactive.jsonl", SID)["transcript_path"]
    accounting.account(SID, path, {}, mdir, paths.learnings_dir(), None, FIRST_ACT + 600)
    shown = [r for r in usage_log.read(mdir) if r["op"] == "shown" and r["id"] == staging]
    assert shown and shown[0].get("measurable") is False, shown
    assert usage.load_ranks(None, mdir, 1).get(staging) == usage.PEER


def test_a_failure_distilled_again_does_not_recur_by_a_phrase_across_its_answers_fields():
    eid = ids.entry_id("failure", "The deploy ran against the wrong database")
    answer = {"failures": [{"summary": "The deploy ran against the wrong database",
                            "root_cause": "staging was on another minor version than production",
                            "resolution": "Surprises at release were traced to it"}]}
    acts = [(1.0, "looking around", _words("looking around")),
            (20.0, "noted: production surprises at release", _words("noted: production surprises at release"))]
    assert accounting.recurred(answer, {eid: (10.0, 100)}, {eid: []}, acts) == []


def test_a_mark_followed_by_a_dash_and_a_word_character_is_inside_a_longer_name():
    for mark, act in (("--no-cache", "pip install --no-cache-dir -r requirements.txt"),
                      ("--force", "git push --force-with-lease origin main"),
                      ("app/boot", "ls app/boot-legacy"),
                      ("docker build --no-cache", "docker build --no-cache-filter x .")):
        assert not evidence.found_in(mark, act, _words(act)), (mark, act)


def test_a_mark_is_still_found_before_every_other_boundary():
    for mark, act in (("--no-cache", "docker build --no-cache ."), ("--no-cache", "docker build --no-cache"),
                      ("--force", "git push --force -- main"), ("app/boot", "ls app/boot/"),
                      ("load_config", "load_config()"), ("--no-cache", "say --no-cache- then"),
                      ("app/boot", "cd app/boot-"), ("--force", "x=--force,y")):
        assert evidence.found_in(mark, act, _words(act)), (mark, act)


def test_a_flag_inside_a_longer_flag_gives_no_use(isolated_home, tmp_path):
    mdir = str(tmp_path / "mem")
    eid = _write(mdir, "decision", NO_CACHE)
    marks = evidence.marks_of(accounting.texts_of(mdir, paths.learnings_dir(), {eid})[eid])
    assert "--no-cache" in marks, marks
    act = "pip install --no-cache-dir -r requirements.txt"
    assert evidence.first_use(marks, [(5.0, act, _words(act))], 0.0) is None


def test_a_mark_preceded_by_a_word_character_and_a_dash_is_inside_a_longer_name():
    # why: the same rule before the mark as after it (r9, second pass: marks_dash_before.py)
    for mark, act in (("boot.py", "Read src/legacy-boot.py"),
                      ("cache-dir", "pip install --no-cache-dir requests"),
                      ("with-lease", "git push --force-with-lease"),
                      ("settings.json", "cat .claude/team-settings.json"),
                      ("load_config", "call pre-load_config now")):
        assert not evidence.found_in(mark, act, _words(act)), (mark, act)


def test_a_mark_after_a_dash_that_follows_no_word_character_is_still_found():
    for mark, act in (("boot.py", "python -boot.py"), ("boot.py", "-boot.py"), ("cache-dir", "x --cache-dir y"),
                      ("settings.json", "cat team-/settings.json"), ("boot.py", "src/legacy-boot.py src/boot.py"),
                      ("--force", "git push --force"), ("--force", "x=--force,y"), ("boot.py", "a - boot.py")):
        assert evidence.found_in(mark, act, _words(act)), (mark, act)


def test_a_name_inside_a_longer_dashed_name_gives_no_use():
    marks = evidence.marks_of("Never edit `boot.py` by hand")
    assert "boot.py" in marks, marks
    act = "Read src/legacy-boot.py"
    assert evidence.first_use(marks, [(5.0, act, _words(act))], 0.0) is None
