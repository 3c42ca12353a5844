"""What the readers leave out, ``lh memory check`` names: a decision or failure line that is JSON but has
no summary text (show, search and SessionStart drop it), a memory file that cannot be read (a folder
where the file should be), and how SessionStart shows a learning whose title and date come from its
file name."""

import os
import time
from pathlib import Path

import pytest

from lazy_harness import logfile, paths
from lazy_harness.memory import damage, files, lines
from tests.cli.lhrun import invoke
from tests.hooks.test_trust import cross_projects
from tests.support import memory_samples as ms

NOW = time.time()

# a line that is JSON but no entry of any reader, and what check calls it
SUMMARYLESS = [
    ({"ts": "2026-11-29T10:00:00+00:00", "type": "decision", "decision": "Pin pyyaml", "rationale": "w"},
     "no summary"),
    ({"ts": "2026-11-29T11:00:00+00:00", "type": "decision", "summary": ["Vendor", "it"], "rationale": "x"},
     "summary is not text"),
    ({"ts": "2026-11-29T12:00:00+00:00", "type": "decision", "summary": 2025, "rationale": "Freeze"},
     "summary is not text"),
    ({"ts": "2026-11-29T13:00:00+00:00", "type": "decision", "summary": None}, "no summary"),
    ({"ts": "2026-11-29T14:00:00+00:00", "type": "decision", "summary": "   "}, "summary is empty"),
]


@pytest.fixture
def summaryless(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    path = os.path.join(mdir, files.DECISIONS)
    ms.write_jsonl(path, [ms.decision(NOW - 60, "a decision every reader shows", "because")])
    ms.write_jsonl(path, [rec for rec, _ in SUMMARYLESS])  # lines 2 to 6
    ms.write_jsonl(path, [{"op": "supersede", "id": "d-00000000", "ts": "2026-11-29T15:00:00+00:00"}])  # a marker
    fpath = os.path.join(mdir, files.FAILURES)
    ms.write_jsonl(fpath, [{"ts": "2026-11-29T10:00:00+00:00", "type": "failure", "sumary": "typo", "prevention": "p"}])
    return root, path, fpath


def test_check_names_each_line_without_summary_text_as_skipped_and_exits_1(summaryless):
    root, path, fpath = summaryless
    before = Path(path).read_bytes()
    r = invoke("memory", "check", "--project", root)
    assert r.code == 1, r.out
    for n, (_, why) in enumerate(SUMMARYLESS, 2):
        assert f"{path}:{n}: skipped: {why}" in r.out, r.out
    assert f"{fpath}:1: skipped: no summary" in r.out
    assert f"{path}:1:" not in r.out and f"{path}:7:" not in r.out  # an entry and a marker are no damage
    assert f"{len(SUMMARYLESS) + 1} line(s) skipped" in r.out
    assert Path(path).read_bytes() == before


def test_the_readers_still_leave_them_out(summaryless):
    root, _, _ = summaryless
    shown = invoke("memory", "show", "--project", root).out
    assert "a decision every reader shows" in shown
    assert "Pin pyyaml" not in shown and "Vendor" not in shown and "Decisions (1," in shown


def test_doctor_names_a_line_without_summary(summaryless):
    _, path, _ = summaryless
    found = [ln for ln in invoke("doctor").out.splitlines() if "memory lines:" in ln]
    assert len(found) == 1 and found[0].startswith("warn"), found
    assert f"{path}:2 (no summary)" in found[0]


def test_the_log_line_of_a_damaged_file_names_its_lines_without_summary_too(summaryless):
    _, path, _ = summaryless
    with open(path, "ab") as fh:
        fh.write(b"\x00\x00\x00\x00\n")  # line 8: a damaged line, which a reader notes
    lines.note(path)
    written = damage.report(logfile.HOOKS, None, NOW)
    assert len(written) == 1, written
    # the five summaryless lines and the NUL one (the log names the first few, lh memory check them all)
    assert f"{len(SUMMARYLESS) + 1} line(s) skipped (2: no summary, 3: summary is not text" in written[0], written


# --- memory files that cannot be read ------------------------------------------------------------

@pytest.mark.parametrize("name", [files.DECISIONS, files.FAILURES, files.HANDOFF_STATE, "marks.jsonl",
                                  files.HANDOFF])
def test_check_names_a_memory_file_that_is_a_folder_and_exits_1(tmp_path, name):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS if name != files.DECISIONS else files.FAILURES),
                   [ms.decision(NOW, "a fine entry", "r")])
    os.makedirs(os.path.join(mdir, name))
    r = invoke("memory", "check", "--project", root)
    assert r.code == 1, r.out
    named = [ln for ln in r.out.splitlines() if os.path.join(mdir, name) in ln]
    assert len(named) == 1 and "a folder" in named[0] and "cannot be read" in named[0], r.out
    assert "1 file(s) cannot be read" in r.out.splitlines()[-1]


def test_check_names_a_memory_file_that_links_to_nothing(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    os.makedirs(mdir, exist_ok=True)
    os.symlink(os.path.join(str(tmp_path), "gone.jsonl"), os.path.join(mdir, files.DECISIONS))
    r = invoke("memory", "check", "--project", root)
    assert r.code == 1
    named = [ln for ln in r.out.splitlines() if os.path.join(mdir, files.DECISIONS) in ln]
    assert len(named) == 1 and "cannot be read" in named[0], r.out


def test_show_with_handoff_log_a_folder_says_so_in_one_line_and_lists_the_rest(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 60, "keep the decision listed", "r")])
    ms.write_jsonl(os.path.join(mdir, files.FAILURES), [ms.failure(NOW - 60, "keep the failure listed", "p")])
    ms.write_learning(paths.learnings_dir(), "Keep the learning listed", "proj", NOW - 60,
                      project_folder=os.path.basename(mdir))
    state = os.path.join(mdir, files.HANDOFF_STATE)
    os.makedirs(state)
    r = invoke("memory", "show", "--project", root)
    assert r.code == 0, r.err
    err = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(err) == 1 and state in err[0], r.err
    everything = r.out.partition("==== everything")[2]
    for text in ("keep the decision listed", "keep the failure listed", "Keep the learning listed"):
        assert text in everything, r.out


# --- a learning titled and dated by its file name --------------------------------------------------

def _digest_line(root: str, word: str) -> str:
    top = invoke("memory", "show", "--project", root).out.partition("==== everything")[0]
    found = [ln for ln in top.splitlines() if ln.startswith("- learning ") and word in ln]
    assert len(found) == 1, top
    return found[0]


@pytest.mark.parametrize("text", ["# Walrus logs rotate daily\n\nWalrus rotates its logs at midnight.\n",
                                  "---\n- a\n- b\n---\n\n## Learning\n\nWalrus rotates its logs at midnight.\n"])
def test_check_says_the_title_and_date_sessionstart_takes_from_the_file_name(tmp_path, text):
    # why: a file that names no writer waits in every project (ADR 0032's amendment); shown with auto
    cross_projects("auto")
    # why the branch: a learning of no project takes a place at the start only when it is about this one
    root = ms.make_project(tmp_path, "proj", branch="walrus-logs")
    ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS), [ms.decision(NOW, "a decision", "r")])
    path = ms.write_learning(paths.learnings_dir(), "walrus plain", "proj", NOW - 86400)
    Path(path).write_text(text, encoding="utf-8")
    day = os.path.basename(path)[:10]
    shown = _digest_line(root, "midnight")
    assert f", {day}, " in shown and ": walrus plain (" in shown  # what SessionStart shows
    r = invoke("memory", "check", "--project", root)
    named = [ln for ln in r.out.splitlines() if ln.startswith(f"{path}: ")]
    assert len(named) == 1, r.out
    assert "untitled" not in named[0] and "undated" not in named[0], named
    assert '"walrus plain"' in named[0] and day in named[0] and "file name" in named[0], named
    assert r.code == 1
