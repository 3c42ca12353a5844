"""The usage record follows its project when its key changes (docs/how/project-key.md, ADR 0036): the
path-keyed folder's ``usage.jsonl`` is merged line by line into the new folder when the repository gains
an origin, as the decisions are, so ``lh memory usage`` counts every session and the ranks the budget
cuts read count them too. A rerun, and a run after a cut, add nothing twice; Claude Code's own memory
folder is never touched."""

import os
import shutil

from lazy_harness import paths
from lazy_harness.memory import migrate, usage, usage_log
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import NOW, add_origin, project_with_three


def _showings(mdir: str, sessions: list[str], eid: str, at: float) -> list[dict]:
    recs = []
    for n, sid in enumerate(sessions):
        recs += [usage_log.line("session", at + n, session=sid, chars=400),
                 usage_log.line("shown", at + n, session=sid, id=eid, chars=120)]
    usage_log.append(mdir, recs)
    return recs


def _lines(mdir: str) -> list[str]:
    try:
        with open(usage_log.path_of(mdir), encoding="utf-8") as fh:
            return [ln for ln in fh.read().splitlines() if ln.strip()]
    except FileNotFoundError:
        return []


def _shown(mdir: str, eid: str) -> int:
    t = usage_log.tally(usage_log.read(mdir))
    return sum(len(e.shown) for e in t.entries.values() if e.id == eid)


def _gained_origin(tmp_path) -> tuple[str, str, str]:
    """(root, its path-keyed folder holding three sessions' usage, its new folder after the origin)."""
    root = project_with_three(tmp_path)
    old = paths.memory_dir(root)
    _showings(old, ["s-1", "s-2", "s-3"], "d-0000abcd", NOW - 3000)
    add_origin(root)
    return root, old, paths.memory_dir(root)


def test_gaining_an_origin_merges_the_usage_record(tmp_path):
    root, old, new = _gained_origin(tmp_path)
    _showings(new, ["s-4", "s-5"], "d-0000abcd", NOW - 1000)  # sessions after the origin, before the move
    assert usage_log.path_of(old) in migrate.pending(paths.project_key(root), root, None, new)
    migrate.migrate(new, paths.project_key(root), root, None, NOW)
    assert not os.path.exists(usage_log.path_of(old))
    assert _shown(new, "d-0000abcd") == 5 and len(_lines(new)) == 10
    assert usage.load_ranks(None, new, 5).get("d-0000abcd") == usage.UNUSED  # the ranks count all five
    migrate.migrate(new, paths.project_key(root), root, None, NOW)
    assert len(_lines(new)) == 10
    assert not migrate.pending(paths.project_key(root), root, None, new)


def test_a_folder_migrated_before_usage_moved_gives_it_up_at_the_next_run(tmp_path):
    """A version that merged everything but usage.jsonl left it in the earlier folder: the next start,
    task or command finds it waiting and merges it."""
    root, old, new = _gained_origin(tmp_path)
    kept = _lines(old)
    os.rename(usage_log.path_of(old), str(tmp_path / "aside"))
    migrate.migrate(new, paths.project_key(root), root, None, NOW)  # the alias and the entries, as before
    assert not os.path.exists(os.path.join(old, "decisions.jsonl"))
    os.rename(str(tmp_path / "aside"), usage_log.path_of(old))
    waiting = migrate.pending(paths.project_key(root), root, None, new)
    assert waiting == [usage_log.path_of(old)]
    migrate.migrate(new, paths.project_key(root), root, None, NOW)
    assert _lines(new) == kept and not os.path.exists(usage_log.path_of(old))


def test_a_run_cut_in_the_middle_of_the_usage_merge_adds_nothing_twice(tmp_path):
    root, old, new = _gained_origin(tmp_path)
    first = _lines(old)[:3]  # a kill after three lines were appended, before the old file was removed
    os.makedirs(new, exist_ok=True)
    with open(usage_log.path_of(new), "w", encoding="utf-8") as fh:
        fh.write("\n".join(first) + "\n")
    migrate.migrate(new, paths.project_key(root), root, None, NOW)
    assert len(_lines(new)) == 6 and len(set(_lines(new))) == 6 and _lines(new)[:3] == first
    assert _shown(new, "d-0000abcd") == 3


def test_claude_codes_own_memory_folder_keeps_a_usage_file_of_that_name(tmp_path):
    root = project_with_three(tmp_path)
    theirs = paths.claude_memory_dir(paths.project_key(root))
    os.makedirs(theirs)
    with open(os.path.join(theirs, usage_log.USAGE), "w", encoding="utf-8") as fh:
        fh.write('{"not": "ours"}\n')
    new = paths.memory_dir(root)
    assert not migrate.pending(paths.project_key(root), root, None, new)
    migrate.migrate(new, paths.project_key(root), root, None, NOW)
    with open(os.path.join(theirs, usage_log.USAGE), encoding="utf-8") as fh:
        assert fh.read() == '{"not": "ours"}\n'


def test_an_origin_changed_takes_over_the_usage_record_too(tmp_path):
    old, new = str(tmp_path / "data" / "git-github.com-team-api-1234abcd"), str(tmp_path / "data" / "git-x")
    os.makedirs(old)
    recs = _showings(old, ["s-1", "s-2"], "d-0000abcd", NOW - 3000)
    os.makedirs(new)
    migrate.take_over(old, new, NOW)
    assert len(_lines(new)) == len(recs) and _shown(new, "d-0000abcd") == 2
    migrate.take_over(old, new, NOW)  # a remote key's folder is copied, left for others: merged again, nothing twice
    assert len(_lines(new)) == len(recs)


def test_adopting_a_moved_projects_folder_brings_its_usage_and_counts_it(tmp_path):
    root = project_with_three(tmp_path)
    old = paths.memory_dir(root)
    _showings(old, ["s-1", "s-2", "s-3"], "d-0000abcd", NOW - 3000)
    moved = str(tmp_path / "elsewhere" / "api")
    os.makedirs(os.path.dirname(moved))
    shutil.move(root, moved)
    done = invoke("memory", "adopt", "--force", "--project", moved, "--", os.path.basename(old))
    assert done.code == 0, done.out + done.err
    new = paths.memory_dir(moved)
    assert len(_lines(new)) == 6 and not os.path.exists(usage_log.path_of(old))
    assert usage.load_ranks(None, new, 3).get("d-0000abcd") == usage.UNUSED
