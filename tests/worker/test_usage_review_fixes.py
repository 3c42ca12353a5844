"""worker/usage.py and worker/evidence.py after review r3 (ADR 0036): a failure recurred only when its
marks come after memory showed it; a plain word is no mark; each showing counted in the memory
folder it came from. The transcript is the one recorded from the real CLI (tests/fixtures)."""

import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import entries, files, ids, usage, usage_log
from lazy_harness.memory.files import iso_epoch
from lazy_harness.worker import evidence
from lazy_harness.worker import usage as accounting
from tests.support import memory_samples as ms
from tests.support.sessions import place

SID = "33333333-4444-4555-8666-777777777777"
ECHO = {"summary": "The shell check was skipped before a deploy",
        "prevention": "Run `echo hi` first to see the shell works."}
LOCK = {"summary": "Migrations hung on a table lock", "rationale": "give each migration a lock_timeout"}
REDIS = {"summary": "Sessions were cached in the wrong place", "rationale": "keep them in redis_cluster_main"}
# the recorded session's first assistant act (the Bash tool call `echo hi`) is at this time; the last
# act ("... a 5 s lock_timeout.") about five seconds later
FIRST_ACT = iso_epoch("2026-11-22T02:21:47.839Z")


def _write(mdir: str, kind: str, item: dict) -> str:
    os.makedirs(mdir, exist_ok=True)
    meta = {"project": "p", "session_id": "earlier", "task_id": "t"}
    name = files.FAILURES if kind == "failure" else files.DECISIONS
    with open(os.path.join(mdir, name), "a") as fh:
        fh.write(entries.json_line(entries.record(kind, item, meta, 1.0)) + "\n")
    return ids.entry_id(kind, item["summary"])


def _transcript(project: str) -> str:
    from pathlib import Path

    return place(Path(project), "interactive.jsonl", SID)["transcript_path"]


@pytest.mark.parametrize("shown_at, recurred", [(FIRST_ACT + 0.5, False), (FIRST_ACT - 60, True)])
def test_a_failure_recurred_only_when_its_marks_come_after_memory_showed_it(isolated_home, tmp_path, shown_at,
                                                                           recurred):
    project = ms.make_project(str(tmp_path), "p")
    mdir = paths.memory_dir(project)
    echo = _write(mdir, "failure", ECHO)
    usage.note(None, SID, "prompt", 300, [(echo, 120)], shown_at)
    again = {"failures": [{"summary": ECHO["summary"], "prevention": "again"}]}
    accounting.account(SID, _transcript(project), again, mdir, paths.learnings_dir(), None, 2e9)
    rows = {e["id"]: e for e in usage_log.tally(usage_log.read(mdir)).report()["entries"]}
    assert rows[echo]["recurred"] == (1 if recurred else 0)
    assert usage.untold_recurred(None, os.path.basename(mdir)) == ([echo] if recurred else [])


PNPM = {"summary": "CI installed packages that differ from the lockfile",
        "prevention": "Use `pnpm install --frozen-lockfile` in CI jobs."}


@pytest.mark.parametrize("shown_at, recurred", [(FIRST_ACT + 0.5, False), (FIRST_ACT - 60, True)])
def test_a_failure_shown_before_the_sessions_first_act_recurred_on_its_restatement(isolated_home, tmp_path,
                                                                                  shown_at, recurred):
    """Its marks appear in no act of the session: shown before the session did anything, what the
    session did came after memory said it, and the model's restatement is the evidence (the e2e
    usage test's case); shown after an act, it may have happened before memory said it."""
    project = ms.make_project(str(tmp_path), "p")
    mdir = paths.memory_dir(project)
    pnpm = _write(mdir, "failure", PNPM)
    usage.note(None, SID, "startup", 300, [(pnpm, 120)], shown_at)
    again = {"failures": [{"summary": PNPM["summary"], "prevention": "use the lockfile"}]}
    accounting.account(SID, _transcript(project), again, mdir, paths.learnings_dir(), None, 2e9)
    rows = {e["id"]: e for e in usage_log.tally(usage_log.read(mdir)).report()["entries"]}
    assert rows[pnpm]["recurred"] == (1 if recurred else 0)


# an entry whose only mark would be a plain word, and an act that says the word for its own reasons
PLAIN = [
    ("We host the docs on GitHub Pages instead of Netlify.", "GitHub", "I'll open the GitHub issue to read it."),
    ("Keep the read/write split between the two services.", "read/write",
     "Let me check the read/write permissions on that folder."),
    ("The TypeScript build broke because of a stale cache.", "TypeScript", "This TypeScript error is from the linter."),
    ("Pin versions in pyproject.toml and never use ranges.", "pyproject.toml",
     "Reading pyproject.toml to see the test command."),
    ("Node.js 18 crashed on startup; upgrade to 20.", "Node.js", "Running it on Node.js now."),
    ("Feature flags are toggled on/off from the admin page.", "on/off",
     "I'll turn verbose logging on/off with an env var."),
    ("CI/CD deploys only from tags.", "CI/CD", "The CI/CD run is green."),
    ("Test it on the iPhone simulator first.", "iPhone", "The iPhone build is done."),
    ("Releases are listed on github.com under tags.", "github.com", "Opening github.com in the browser."),
]
# real marks: paths, file names, identifiers, error names, flags, code spans
REAL = [
    ("Read the port in parse_config before the server starts.", "parse_config", "I'll call parse_config here."),
    ("Call parseConfig once at start.", "parseConfig", "const c = parseConfig(argv)"),
    ("The settings live in src/app/settings.py.", "src/app/settings.py", "Editing src/app/settings.py now."),
    ("The retry count is read from retry_settings.toml.", "retry_settings.toml", "cat retry_settings.toml"),
    ("Opening a missing cache raised FileNotFoundError.", "FileNotFoundError", "except FileNotFoundError:"),
    ("Bad input raises ValueError in the parser.", "ValueError", "raise ValueError('bad')"),
    ("Load it with app.settings.load at start.", "app.settings.load", "x = app.settings.load()"),
    ("Pass --frozen-lockfile to pnpm in CI.", "--frozen-lockfile", "pnpm install --frozen-lockfile"),
    ("MAX_RETRIES is read from the environment.", "MAX_RETRIES", "export MAX_RETRIES=3"),
    ("Write parquet with `ParquetWriter` and an explicit schema.", "ParquetWriter", "w = ParquetWriter(path)"),
    ("Keep every handler in `src/handlers` for the router.", "src/handlers", "ls src/handlers"),
    ("Its routes live in web/routes/api for now.", "web/routes/api", "ls web/routes/api"),
]


def _acts(text: str) -> list[tuple[float, str, str]]:
    return [(1.0, text, " " + " ".join(evidence._WORD.findall(text.lower())) + " ")]


@pytest.mark.parametrize("entry, word, act", PLAIN)
def test_a_plain_word_is_no_mark_and_gives_no_use(entry, word, act):
    marks = evidence.marks_of(entry)
    assert word not in marks, marks
    assert evidence.first_use(marks, _acts(act), 0.0) is None, marks


@pytest.mark.parametrize("entry, mark, act", REAL)
def test_a_real_identifier_is_still_a_mark_and_gives_use(entry, mark, act):
    marks = evidence.marks_of(entry)
    assert mark in marks, marks
    assert evidence.first_use(marks, _acts(act), 0.0) is not None, marks


def test_each_showing_is_counted_in_the_memory_folder_it_came_from(isolated_home, tmp_path):
    """SessionStart in project A shows A's decision; a prompt whose cwd is project B shows B's. The
    session used B's (``lock_timeout``): A's record holds no B id, B's holds B's, shown and used."""
    proj_a, proj_b = ms.make_project(str(tmp_path), "a"), ms.make_project(str(tmp_path), "b")
    mdir_a, mdir_b = paths.memory_dir(proj_a), paths.memory_dir(proj_b)
    redis, lock = _write(mdir_a, "decision", REDIS), _write(mdir_b, "decision", LOCK)
    usage.note(None, SID, "startup", 900, [(redis, 100)], FIRST_ACT - 60)  # an old line: no folder named
    usage.note(None, SID, "prompt", 300, [(lock, 120)], FIRST_ACT - 30, memory_dir=mdir_b)
    assert usage.read_seen(None, SID) == [(FIRST_ACT - 60, "startup", 900, [(redis, 100)]),
                                          (FIRST_ACT - 30, "prompt", 300, [(lock, 120)])]
    accounting.account(SID, _transcript(proj_a), {}, mdir_a, paths.learnings_dir(), None, 2e9)
    in_a = {r.get("id") for r in usage_log.read(mdir_a)} - {None}
    assert in_a == {redis}
    rows_b = {e["id"]: e for e in usage_log.tally(usage_log.read(mdir_b)).report()["entries"]}
    assert (rows_b[lock]["shown"], rows_b[lock]["used"]) == (1, 1)
    sessions_b = [r for r in usage_log.read(mdir_b) if r["op"] == "session"]
    assert [r["chars"] for r in sessions_b] == [300]
    assert usage.load_ranks(None, mdir_b, 1).get(lock) == usage.USED
