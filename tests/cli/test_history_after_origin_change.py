"""``lh memory history`` and ``lh memory undo`` after a project's key changed (docs/how/project-key.md,
ADR 0035): the runs journaled under an earlier key (a folder ``aliases.jsonl`` names) are listed with
where they were journaled and are undone in the project's folder, where their content now lives. A
folder that was copied (a remote key: other machines still read it) is left as it is."""

import json
import os
import shutil

from lazy_harness import paths
from lazy_harness.memory import ids, journal
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import start
from tests.memory.test_identity_review_fixes import DECIDED, repo, worked_in
from tests.support.git_repos import git

DID = ids.entry_id("decision", DECIDED)


def forget(root: str) -> str:
    """Forget the decision; the run that did it."""
    r = invoke("memory", "forget", DID, "--project", root)
    assert r.code == 0, r.err
    return r.out.rsplit("lh memory undo ", 1)[1].rstrip(")\n")


def shown(root: str) -> str:
    """How ``lh memory show`` lists the decision."""
    r = invoke("memory", "show", "--project", root, "--section", "decisions")
    assert r.code == 0, r.err
    return next(line for line in r.out.splitlines() if DID in line)


def files_of(folder: str) -> dict[str, bytes]:
    out = {}
    for base, _, names in os.walk(folder):
        for name in names:
            with open(os.path.join(base, name), "rb") as fh:
                out[os.path.relpath(os.path.join(base, name), folder)] = fh.read()
    return out


def renamed(tmp_path) -> tuple[str, str, str, str]:
    """(root, the old folder, the new folder, the forget's run): a project on origin team/api forgot its
    decision, then its repository was renamed, and the next session start took the old folder over."""
    root = repo(str(tmp_path / "work" / "api"), origin="git@github.com:team/api.git")
    old = worked_in(root)
    run = forget(root)
    assert "[forgotten]" in shown(root)
    git("remote", "set-url", "origin", "git@github.com:team/api-server.git", cwd=root)
    assert DECIDED not in start(root)  # the takeover: the mark came along
    new = paths.memory_dir(root)
    assert new != old and os.path.basename(old) in open(os.path.join(new, "aliases.jsonl")).read()
    return root, old, new, run


def test_a_forget_before_the_rename_is_listed_and_undone_after_it(tmp_path):
    root, old, new, run = renamed(tmp_path)
    hist = invoke("memory", "history", "--project", root)
    assert hist.code == 0, hist.err
    line = next(x for x in hist.out.splitlines() if x.startswith(run))
    assert f"lh memory undo {run}" in line and f"journaled in {journal.folder(old)}" in line
    kept = files_of(old)
    r = invoke("memory", "undo", run, "--project", root)
    assert r.code == 0, r.err
    assert f"undid {run}" in r.out
    assert DECIDED in start(root, sid="after-undo")
    assert "[forgotten]" not in shown(root)
    assert files_of(old) == kept  # a remote key's folder is every machine's: left as it is
    again = invoke("memory", "history", "--project", root)
    line = next(x for x in again.out.splitlines() if x.startswith(run))
    assert "undone" in line and again.out.count(run) == 1


def test_a_plain_undo_after_the_rename_takes_the_run_made_before_it(tmp_path):
    root, _, _, run = renamed(tmp_path)
    r = invoke("memory", "undo", "--project", root)
    assert r.code == 0, r.err
    assert f"undid {run}" in r.out and DECIDED in start(root, sid="after-undo")
    again = invoke("memory", "undo", "--project", root)
    assert again.code == 1 and "nothing to undo" in again.err


def gained(tmp_path) -> tuple[str, str, str, str]:
    """(root, its path-keyed folder, its remote's folder, the forget's run): a project without an origin
    forgot its decision, then gained an origin, and a reading command moved its memory."""
    root = str(tmp_path / "shop")
    os.makedirs(root)
    git("init", "-q", cwd=root)
    by_path = worked_in(root)
    assert os.path.basename(by_path) == paths.project_key(root)
    run = forget(root)
    git("remote", "add", "origin", "git@example.com:team/shop.git", cwd=root)
    assert "[forgotten]" in shown(root)  # the move, as a reading command does it
    return root, by_path, paths.memory_dir(root), run


def test_a_run_journaled_in_both_folders_is_listed_once(tmp_path):
    root, old, new, run = gained(tmp_path)
    os.makedirs(journal.folder(new), exist_ok=True)
    shutil.copy(os.path.join(journal.folder(old), f"{run}.json"), journal.folder(new))  # as sync or a copy would
    hist = invoke("memory", "history", "--project", root)
    assert hist.code == 0 and hist.out.count(f"{run}  ") == 1, hist.out
    assert "journaled in" not in hist.out  # this folder's copy is the one listed
    assert invoke("memory", "undo", run, "--project", root).code == 0
    assert "[forgotten]" not in shown(root)


def test_an_origin_gained_run_is_undone_in_the_new_folder(tmp_path):
    root, old, _, run = gained(tmp_path)
    assert not os.path.exists(os.path.join(old, "marks.jsonl"))  # moved, not copied
    r = invoke("memory", "undo", run, "--project", root)
    assert r.code == 0, r.err
    assert "[forgotten]" not in shown(root) and DECIDED in start(root)
    hist = invoke("memory", "history", "--project", root)
    assert hist.out.count(f"{run}  ") == 1 and "undone" in hist.out
    assert not os.path.exists(os.path.join(old, "marks.jsonl"))


def test_an_alias_that_names_no_folder_beside_it_is_not_read(tmp_path):
    root, _, new, run = renamed(tmp_path)
    stranger = "20200101-000000000000-beef"
    outside = os.path.join(os.path.dirname(new), "..", "..", "outside", "journal")
    os.makedirs(outside)
    with open(os.path.join(new, "aliases.jsonl"), "a", encoding="utf-8") as fh:  # by hand, or synced from anywhere
        fh.write('{"op": "alias", "folder": "../../outside", "why": "by hand", "ts": "2026-01-01T00:00:00+00:00"}\n')
    with open(os.path.join(outside, f"{stranger}.json"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"run": stranger, "kind": "forget", "project": "api", "started": None,
                             "changes": ["forget x"], "undone": None, "files": []}))
    hist = invoke("memory", "history", "--project", root)
    assert hist.code == 0, hist.err
    assert hist.out.count(f"{run}  ") == 1 and stranger not in hist.out
    r = invoke("memory", "undo", stranger, "--project", root)
    assert r.code == 1 and "no journal" in r.err


def test_a_journal_no_reader_can_read_is_named_by_history_and_undo(tmp_path):
    """A journal cut short (or broken by an edit) is in no history and no undo: both say so on stderr,
    naming the file, rather than leave its run out without a word."""
    root = repo(str(tmp_path / "work" / "api"), origin="git@github.com:team/api.git")
    worked_in(root)
    run = forget(root)
    path = os.path.join(journal.folder(paths.memory_dir(root)), f"{run}.json")
    with open(path, "r+b") as fh:
        fh.truncate(os.path.getsize(path) // 2)
    hist = invoke("memory", "history", "--project", root)
    assert f"lh: {path}: not JSON" in hist.err and "cannot be undone" in hist.err, hist.err
    assert run not in hist.out
    undone = invoke("memory", "undo", run, "--project", root)
    assert undone.code != 0 and f"lh: {path}: not JSON" in undone.err, undone.err
