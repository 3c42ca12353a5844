"""``lh memory history`` prints journals that came with synced memory: another machine's (or anyone's)
``run``, ``kind``, ``started``, ``undone`` and change lines reach the terminal shown, each on its one
line: an escape sequence is printed as ``\\u001b...``, a line break inside a field as ``\\u000a``."""

import json
from pathlib import Path

from lazy_harness import paths
from tests.cli.lhrun import invoke

TITLE = "\x1b]0;pwned\x07"  # sets the terminal's window title
CLEAR = "\x1b[2J"  # clears the screen


def foreign_journal(mdir: str, run: str, **fields) -> None:
    folder = Path(mdir) / "journal"
    folder.mkdir(parents=True, exist_ok=True)
    data = {"run": run, "kind": "forget", "project": "shop", "started": "2026-01-02T03:04:05+00:00",
            "changes": [], "undone": None, "files": [], **fields}
    (folder / f"{run}.json").write_text(json.dumps(data), encoding="utf-8")


def history(tmp_path):
    proj = tmp_path / "shop"
    proj.mkdir(exist_ok=True)
    return proj, invoke("memory", "history", "--project", str(proj))


def assert_shown_not_run(out: str) -> None:
    for c in ("\x1b", "\x07", "\x9b", "\r"):
        assert c not in out, repr(out)


def test_change_lines_with_escapes_and_line_breaks_are_shown_on_their_line(tmp_path):
    proj = tmp_path / "shop"
    proj.mkdir()
    foreign_journal(paths.memory_dir(str(proj)), "20260102-030405000001",
                    changes=[f"forgot D-1 {TITLE}", f"forgot D-2{CLEAR}\nhistory: all clear\rnow",
                             "closed H-3\u009b2J"])
    _, r = history(tmp_path)
    assert r.code == 0, r.err
    assert_shown_not_run(r.out)
    lines = r.out.splitlines()
    assert len(lines) == 4, r.out  # the run's line and one per change: no change made a line of its own
    assert lines[1] == "    forgot D-1 \\u001b]0;pwned\\u0007", r.out
    assert lines[2] == "    forgot D-2\\u001b[2J\\u000ahistory: all clear\\u000dnow", r.out
    assert lines[3] == "    closed H-3\\u009b2J", r.out


def test_the_runs_own_fields_are_shown_on_its_line(tmp_path):
    proj = tmp_path / "shop"
    proj.mkdir()
    mdir = paths.memory_dir(str(proj))
    foreign_journal(mdir, "20260102-030405000001", kind=f"forget{CLEAR}", started=f"2026\n{TITLE}",
                    changes=["forgot D-1"])
    foreign_journal(mdir, "20260102-030405000002", undone=f"2026-01-03{TITLE}\nundone: nothing",
                    changes=["forgot D-2"])
    foreign_journal(mdir, f"20260102-030405000003{CLEAR}", changes=["forgot D-3"])
    _, r = history(tmp_path)
    assert r.code == 0, r.err
    assert_shown_not_run(r.out)
    lines = r.out.splitlines()
    assert len(lines) == 6, r.out  # three runs, one change each
    assert lines[0].startswith("20260102-030405000003\\u001b[2J  forget"), r.out
    assert lines[2].startswith("20260102-030405000002"), r.out
    assert "[undone 2026-01-03\\u001b]0;pwned\\u0007\\u000aundone: nothing]" in lines[2], r.out
    assert lines[4].startswith("20260102-030405000001  forget\\u001b[2J"), r.out
    assert "2026\\u000a\\u001b]0;pwned" in lines[4], r.out


def test_a_run_without_kind_or_start_says_so_in_words(tmp_path):
    """A journal whose ``kind`` or ``started`` is null (a hand edit, another version) prints "?" for it,
    as for one without the field, not Python's ``None``."""
    proj = tmp_path / "shop"
    proj.mkdir()
    foreign_journal(paths.memory_dir(str(proj)), "20260102-030405000002", kind=None, started=None)
    _, r = history(tmp_path)
    assert r.code == 0, r.err
    line = next(ln for ln in r.out.splitlines() if ln.startswith("20260102-030405000002"))
    assert "None" not in line and line.split()[1:3] == ["?", "?"], line
