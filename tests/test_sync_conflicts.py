"""Issue 37, part 4: the same line edited by hand on two machines. Sync keeps this machine's version
and the other one too, as a journalled run ``lh memory undo`` puts in place; it says so once, in the
round's result (``lh sync`` prints it) and in ``lh sync --status``. An edit made on one side only
is taken, whichever side made it. Real git, two machine homes, one bare remote."""

import json

from lazy_harness import config, sync
from lazy_harness.memory import journal
from tests.test_sync import Machine, _git


def _edit(m: Machine, eid: str, **fields) -> str:
    """Edit the entry ``eid`` by hand in decisions.jsonl; returns its new line."""
    path = m.mdir / "decisions.jsonl"
    out, new = [], ""
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        if rec.get("id") == eid:
            rec.update(fields)
            line = new = json.dumps(rec)
        out.append(line)
    path.write_text("".join(ln + "\n" for ln in out))
    return new


def _two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    eid = a.add("decision", "Use SQLite for the index")
    a.add("decision", "Ship the CLI as a wheel")
    a.sync()
    b.sync()
    return a, b, eid


def _line(m: Machine, eid: str) -> str:
    return next(ln for ln in (m.mdir / "decisions.jsonl").read_text().splitlines() if json.loads(ln)["id"] == eid)


def test_an_edit_on_one_machine_only_is_taken_by_the_other(tmp_path):
    a, b, eid = _two(tmp_path)
    edited = _edit(b, eid, rationale="measured: 3 ms per query on a laptop")
    b.sync()
    a.add("decision", "a new one on a")  # a has its own change to merge with
    result = a.sync()
    assert _line(a, eid) == edited and result["conflicts"] == []


def test_the_same_line_edited_on_both_keeps_both_and_says_so_once(tmp_path):
    a, b, eid = _two(tmp_path)
    on_a = _edit(a, eid, rationale="edited on a: faster to open")
    on_b = _edit(b, eid, rationale="edited on b: one file to back up")
    b.sync()
    result = a.sync()
    assert _line(a, eid) == on_a  # this machine's version stays in place
    [said] = result["conflicts"]
    assert eid in said and "edited on both machines" in said and "lh memory undo" in said
    [run] = [r for r in journal.runs(str(a.mdir)) if r["kind"] == "sync-conflict"]
    assert run["run"] in said
    assert sync.status(a.cfg, a.env)["conflicts"] == [said]  # lh sync --status shows it
    assert a.sync()["conflicts"] == []  # said once
    journal.undo(str(a.mdir), (str(a.mdir),), run["run"])  # what lh memory undo does
    assert _line(a, eid) == on_b  # the other machine's version, restored
    a.sync()
    b.sync()
    assert _line(b, eid) == on_b and len((b.mdir / "decisions.jsonl").read_text().splitlines()) == 2
    a.no_conflict_markers()
    b.no_conflict_markers()


LEARNING = "knowledge/learnings/2026-01/2026-01-02-retry.md"  # under the data folder, as the default config has it


def learning_edited_on_both(a, b) -> None:
    """A learning both machines have, then edited on each (its text ending ``(edited on a).`` on a);
    b's edit is pushed first."""
    head = "---\ntitle: Retry the model call\nstatus: active\nproject_folder: -work-demo\n---\n"
    p = a.data / LEARNING
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(head + "Retry twice.\n")
    a.sync()
    b.sync()
    (a.data / LEARNING).write_text(head + "Retry twice, 2 s apart (edited on a).\n")
    (b.data / LEARNING).write_text(head + "Retry three times (edited on b).\n")
    b.sync()


def test_a_learning_edited_on_both_keeps_both(tmp_path):
    a, b, _ = _two(tmp_path)
    rel = LEARNING
    learning_edited_on_both(a, b)
    result = a.sync()
    assert (a.data / rel).read_text().endswith("(edited on a).\n")
    [said] = result["conflicts"]
    assert "edited on both machines" in said and "lh memory undo" in said


def test_lh_sync_prints_the_conflict_and_status_lists_it(tmp_path, monkeypatch):
    from tests.cli.lhrun import invoke

    a, b, eid = _two(tmp_path)
    _edit(a, eid, rationale="edited on a")
    _edit(b, eid, rationale="edited on b")
    b.sync()
    for key in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR"):
        monkeypatch.setenv(key, a.env[key])
    cfg = a.home / "config" / "lazy-harness" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(f'[sync]\nremote = "{a.cfg["sync"]["remote"]}"\n')
    done = invoke("sync")
    assert done.code == 0, done.err
    assert done.out.count("conflict: ") == 1 and eid in done.out and "lh memory undo" in done.out
    status = invoke("sync", "--status")
    assert status.out.count("conflict:") == 1 and eid in status.out
    again = invoke("sync")
    assert "conflict" not in again.out


def test_a_torn_or_odd_conflict_note_is_skipped_and_the_note_file_removed(tmp_path):
    from lazy_harness.sync import conflicts

    data = tmp_path / "data"
    (data / ".git").mkdir(parents=True)
    side = conflicts.side_file(str(data))
    # a driver killed mid-write (a torn line) and a line of the wrong shape
    with open(side, "w", encoding="utf-8") as fh:
        fh.write('{"file": "p/decisions.jsonl", "id": "d1", "ours": "{\\"id\\"\n[1, 2]\n')
    env = {"HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_DATA_HOME": str(data)}
    said = conflicts.keep(str(data), config.defaults(), env, 1_700_000_000.0)
    assert len(said) == 2 and all("cannot be read" in line for line in said)
    assert not (data / ".git" / conflicts.SIDE).exists()  # not read again, failing, at every later round


def test_a_pulled_learnings_project_folder_names_only_a_memory_folder_under_the_root(tmp_path):
    """The field is text anyone with the remote could have written: the journal of a conflict, or the
    hold of a merged learning, goes into the folder it names only when that is a plain name of a
    project memory folder there; ``../..`` or ``a/b`` name none (the caller's fallback folder then)."""
    from lazy_harness.sync import conflicts

    root = tmp_path / "projects"
    (root / "-work-demo").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (root / "linked").symlink_to(tmp_path / "elsewhere")
    got = {}
    for key in ("-work-demo", "../elsewhere", "..", "-work-demo/../../elsewhere", "linked", "missing", ""):
        learning = tmp_path / "l.md"
        learning.write_text(f"---\ntitle: x\nproject_folder: '{key}'\n---\nbody\n")
        got[key] = conflicts.memory_folder_of(str(root), str(learning))
    assert got == {"-work-demo": str(root / "-work-demo"), "../elsewhere": None, "..": None,
                   "-work-demo/../../elsewhere": None, "linked": None, "missing": None, "": None}


def test_a_round_interrupted_after_it_kept_the_other_version_still_says_so(tmp_path, monkeypatch):
    """Ctrl-C (or a kill) during the push, after the merge kept the other machine's version: the round's
    conflict line was kept only by the round's end, and the note it came from was gone; the person was
    never told. ``lh sync --status`` says it."""
    from lazy_harness.sync import rounds

    a, b, eid = _two(tmp_path)
    _edit(a, eid, rationale="edited on a")
    _edit(b, eid, rationale="edited on b")
    b.sync()

    def interrupted(*args, **kw):
        raise KeyboardInterrupt
    monkeypatch.setattr(rounds, "_hold_back_names", interrupted)
    try:
        a.sync()
    except KeyboardInterrupt:
        pass
    monkeypatch.undo()
    [said] = sync.status(a.cfg, a.env)["conflicts"]
    assert eid in said and "edited on both machines" in said, said
    assert a.sync()["conflicts"] == [] and sync.status(a.cfg, a.env)["conflicts"] == [said]  # said once
