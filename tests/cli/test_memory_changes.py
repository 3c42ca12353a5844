"""lh memory consolidate / history / undo / forget: every change journalled and undoable."""

import os

import pytest
from pathlib import Path

from lazy_harness import paths
from lazy_harness.memory import ids, marks
from tests.cli.lhrun import invoke
from tests.support import fake_claude
from tests.worker.test_consolidate import _learning, _write_entries


def _project(tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".git").mkdir()
    return proj, paths.memory_dir(str(proj))


def test_forget_a_decision_then_undo_it(tmp_path):
    proj, mdir = _project(tmp_path)
    did = _write_entries(Path(mdir), "decision", ["Use vLLM", "Use SQLite"])[0]
    r = invoke("memory", "forget", did, "--project", str(proj))
    assert r.code == 0, r.err
    assert did in marks.hidden(mdir)
    hist = invoke("memory", "history", "--project", str(proj))
    assert "forget" in hist.out and did in hist.out
    r = invoke("memory", "undo", "--project", str(proj))
    assert r.code == 0, r.err
    assert did not in marks.hidden(mdir)
    assert "undone" in invoke("memory", "history", "--project", str(proj)).out
    again = invoke("memory", "undo", "--project", str(proj))
    assert again.code == 1 and "nothing to undo" in again.err


def test_forget_a_learning_sets_its_status(tmp_path):
    proj, mdir = _project(tmp_path)
    ldir = paths.learnings_dir()
    path, lid = _learning(Path(ldir), "Forget me", origin="proj")
    r = invoke("memory", "forget", lid, "--project", str(proj))
    assert r.code == 0, r.err
    assert "status: forgotten" in path.read_text()
    invoke("memory", "undo", "--project", str(proj))
    assert "status: active" in path.read_text()


def test_forget_refuses_unknown_and_malformed_ids(tmp_path):
    proj, _ = _project(tmp_path)
    r = invoke("memory", "forget", "d-12345678", "--project", str(proj))
    assert r.code == 1 and "no decision d-12345678" in r.err
    r = invoke("memory", "forget", "../../etc", "--project", str(proj))
    assert r.code == 1 and "is not an id" in r.err


def test_consolidate_dry_run_and_a_run_from_the_cli(tmp_path, monkeypatch):
    proj, mdir = _project(tmp_path)
    old, new = _write_entries(Path(mdir), "decision", ["Use vLLM", "Use llama.cpp"])
    fake_claude.use(tmp_path, monkeypatch, answer={"supersede": [{"old": old, "new": new, "reason": "switched"}]})
    r = invoke("memory", "consolidate", "--project", str(proj), "--dry-run")
    assert r.code == 0 and f"would supersede {old} by {new}" in r.out
    assert marks.hidden(mdir) == {}
    r = invoke("memory", "consolidate", "--project", str(proj))
    assert r.code == 0 and "changed: 1 change(s)" in r.out
    assert old in marks.hidden(mdir)
    run = [line for line in r.out.splitlines() if "lh memory undo" in line][0].rsplit(" ", 1)[1].rstrip(")")
    assert invoke("memory", "undo", run, "--project", str(proj)).code == 0
    assert marks.hidden(mdir) == {}
    assert os.path.isdir(os.path.join(mdir, "journal"))
    assert ids.is_id(old)


def test_undo_of_a_forgotten_learning_edited_since_puts_its_status_back_and_keeps_the_edit(tmp_path):
    proj, _ = _project(tmp_path)
    path, lid = _learning(Path(paths.learnings_dir()), "Keep my note", origin="proj")
    assert invoke("memory", "forget", lid, "--project", str(proj)).code == 0
    path.write_text(path.read_text() + "\nMy extra note.\n")
    r = invoke("memory", "undo", "--project", str(proj))
    assert r.code == 0, r.err
    text = path.read_text()
    assert "status: active" in text and "deprecated_on: null" in text and text.endswith("My extra note.\n")
    assert "undone" in invoke("memory", "history", "--project", str(proj)).out


def test_a_run_that_could_not_be_undone_is_not_marked_undone_and_can_be_undone_later(tmp_path):
    proj, mdir = _project(tmp_path)
    path, lid = _learning(Path(paths.learnings_dir()), "Changed twice", origin="proj")
    did = _write_entries(Path(mdir), "decision", ["Use SQLite"])[0]
    assert invoke("memory", "forget", did, "--project", str(proj)).code == 0
    assert invoke("memory", "forget", lid, "--project", str(proj)).code == 0
    forgotten = path.read_text()
    path.write_text(forgotten.replace("forgotten by hand", "my own reason"))  # the run's fields, changed
    r = invoke("memory", "undo", "--project", str(proj))
    assert r.code == 1 and "not undone" in r.out and str(path) in r.err
    hist = invoke("memory", "history", "--project", str(proj)).out
    assert hist.count("[undone") == 0 and "lh memory undo" in hist
    path.write_text(forgotten)  # put right by hand: the undo can finish
    r = invoke("memory", "undo", "--project", str(proj))
    assert r.code == 0, r.err
    assert "status: active" in path.read_text()
    assert did in marks.hidden(mdir)  # the older run (forget of the decision) untouched
    assert invoke("memory", "undo", "--project", str(proj)).code == 0  # the decision's run, next
    assert did not in marks.hidden(mdir)


def test_forget_and_undo_keep_a_crlf_learning_byte_for_byte_outside_its_status(tmp_path):
    proj, _ = _project(tmp_path)
    path, lid = _learning(Path(paths.learnings_dir()), "Windows line ends", origin="proj")
    original = path.read_bytes().replace(b"\n", b"\r\n")
    path.write_bytes(original)
    r = invoke("memory", "forget", lid, "--project", str(proj))
    assert r.code == 0, r.err
    forgotten = path.read_bytes()
    assert b"status: forgotten\r\n" in forgotten and b"\n" not in forgotten.replace(b"\r\n", b"")
    assert forgotten.endswith(b"## Learning\r\n\r\nWindows line ends body.\r\n")
    assert invoke("memory", "undo", "--project", str(proj)).code == 0
    assert path.read_bytes() == original


def test_close_takes_an_id_copied_with_its_brackets(tmp_path):
    from lazy_harness.memory import handoff
    from tests.support import memory_samples as ms

    proj, mdir = _project(tmp_path)
    ms.write_handoff(mdir, ["Write the refunds runbook", "Add retries"], "s1", 1_700_000_000)
    hid = ids.handoff_id("Write the refunds runbook")
    r = invoke("memory", "close", f"[{hid}]", "--project", str(proj))
    assert r.code == 0, r.err
    assert [i["text"] for i in handoff.open_items(handoff.load(mdir)[0])] == ["Add retries"]


def test_forget_refuses_a_learning_whose_frontmatter_uses_yaml_aliases(tmp_path):
    """Aliases are shared references when loaded, but copies once written out (the journal): nine
    levels of nine would be 9**9 strings. The learning is left as it is, in one line."""
    proj, _ = _project(tmp_path)
    path, lid = _learning(Path(paths.learnings_dir()), "Bomb", origin="proj")
    bomb = "z0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"z{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 9))
    text = path.read_text().replace("status: active\n", "status: active\n" + bomb + "deprecated_reason: *a8\n")
    path.write_text(text)
    r = invoke("memory", "forget", lid, "--project", str(proj))
    assert r.code == 1 and "anchors or aliases" in r.err and len(r.err.strip().splitlines()) == 1
    assert path.read_text() == text


def test_history_says_an_item_was_closed_by_hand_in_plain_words(tmp_path):
    """Issue 26 item 11: ``closed ... by session by hand: closed by hand``."""
    from tests.support import memory_samples as ms

    proj, mdir = _project(tmp_path)
    ms.write_handoff(mdir, ["Write the refunds runbook", "Add retries"], "s1", 1_700_000_000)
    assert invoke("memory", "close", "Write the refunds runbook", "--project", str(proj)).code == 0
    assert invoke("memory", "close", "Add retries", "--reason", "done in PR 12", "--project", str(proj)).code == 0
    out = invoke("memory", "show", "--history", "--project", str(proj)).out
    runbook = next(ln for ln in out.split("\n") if "refunds runbook" in ln)
    assert "by hand (lh memory close); opened" in runbook and "by session s1)" in runbook
    assert "by session by hand" not in out and "closed by hand" not in out
    retries = next(ln for ln in out.split("\n") if "Add retries" in ln)
    assert "by hand (lh memory close): done in PR 12; opened" in retries


def test_a_journal_whose_run_names_another_file_is_never_undone_nor_written(tmp_path):
    """A journal comes with synced memory: one whose ``run`` points out of the journal folder
    (``../../../settings``) is not a run, so undo neither picks it nor writes it back anywhere;
    the person's own run is undone as before."""
    import json

    proj, mdir = _project(tmp_path)
    did = _write_entries(Path(mdir), "decision", ["Use vLLM", "Use SQLite"])[0]
    assert invoke("memory", "forget", did, "--project", str(proj)).code == 0
    target = tmp_path / "settings.json"
    target.write_text('{"model": "opus"}\n')
    rel = os.path.relpath(str(target), os.path.join(mdir, "journal"))[:-len(".json")]
    planted = os.path.join(mdir, "journal", "99999999-999999999999-ffff.json")
    with open(planted, "w", encoding="utf-8") as fh:
        json.dump({"run": rel, "kind": "forget", "project": "proj", "started": "", "changes": ["x"],
                   "undone": None, "files": [], "hooks": {"SessionStart": []}}, fh)
    hist = invoke("memory", "history", "--project", str(proj))
    assert rel not in hist.out
    r = invoke("memory", "undo", "--project", str(proj))
    assert r.code == 0, r.err
    assert did not in marks.hidden(mdir)  # the person's own run was the one undone
    assert target.read_text() == '{"model": "opus"}\n'
    named = invoke("memory", "undo", rel, "--project", str(proj))
    assert named.code == 1 and "no journal" in named.err
    assert target.read_text() == '{"model": "opus"}\n'


def test_undo_of_a_close_gives_back_exactly_the_open_items_before_it(tmp_path):
    """The run of ``lh memory close`` records only the close: an item the person added to handoff.md
    by hand, and a handoff.md written before its log, are recorded before the run, so its undo
    leaves them open (it took them out with the close)."""
    from lazy_harness.memory import handoff
    from tests.support import memory_samples as ms

    def open_texts() -> list[str]:
        return sorted(i["text"] for i in handoff.open_items(handoff.load(mdir)[0]))

    proj, mdir = _project(tmp_path)
    ms.write_handoff(mdir, ["finish the docs", "run benchmark"], "s1", 1_700_000_000)  # no handoff.jsonl yet
    assert not os.path.exists(os.path.join(mdir, handoff.STATE))
    r = invoke("memory", "close", ids.handoff_id("finish the docs"), "--project", str(proj))
    assert r.code == 0, r.err
    assert open_texts() == ["run benchmark"]
    assert invoke("memory", "undo", "--project", str(proj)).code == 0
    assert open_texts() == ["finish the docs", "run benchmark"]
    with open(os.path.join(mdir, "handoff.md"), "a", encoding="utf-8") as fh:  # the person adds one
        fh.write("- add a retry to the sync\n")
    before = open_texts()
    assert "add a retry to the sync" in before
    r = invoke("memory", "close", ids.handoff_id("run benchmark"), "--project", str(proj))
    assert r.code == 0, r.err
    assert open_texts() == ["add a retry to the sync", "finish the docs"]
    assert invoke("memory", "undo", "--project", str(proj)).code == 0
    assert open_texts() == before


def test_undo_of_a_run_keeps_a_forget_made_between_two_of_its_marks(tmp_path):
    """Consolidation appends its marks one by one without the folder lock; the person's forget lands
    between two of them. Undoing the consolidation takes out its own marks and keeps the forget."""
    import time

    from lazy_harness.memory import changes, journal

    proj, mdir = _project(tmp_path)
    a, b, c, d = _write_entries(Path(mdir), "decision", ["Use Redis", "Use Postgres", "Log to stdout", "Use Kafka"])
    now = time.time()
    run = journal.Journal(mdir, "consolidate", "proj", now)
    changes.add_mark(mdir, run, "supersede", a, b, "newer", now)
    assert invoke("memory", "forget", c, "--project", str(proj)).code == 0
    changes.add_mark(mdir, run, "supersede", d, b, "newer", now + 1)
    run.save()
    r = invoke("memory", "undo", run.run, "--project", str(proj))
    assert r.code == 0 and "1 file(s) restored" in r.out, (r.out, r.err)
    assert [(m["op"], m["id"]) for m in marks.read(mdir)] == [("forget", c)]
    assert set(marks.hidden(mdir)) == {c}
    # and when the forget came after the run's last mark, before the run noted it
    other = journal.Journal(mdir, "consolidate", "proj", now + 2)
    real_record = other.record

    def late(path, appended=None, fields=None):
        assert invoke("memory", "forget", a, "--project", str(proj)).code == 0
        real_record(path, appended=appended, fields=fields)

    other.record = late
    changes.add_mark(mdir, other, "supersede", d, b, "newer", now + 3)
    other.save()
    assert invoke("memory", "undo", other.run, "--project", str(proj)).code == 0
    assert set(marks.hidden(mdir)) == {a, c}


@pytest.mark.parametrize("damage", [{"changes": 5}, {"changes": [{"x": 1}]}, {"files": [{"before": None}]},
                                    {"files": [{"path": 7}]}, {"files": ["x"]}, {"kind": ["forget"]}])
def test_a_malformed_synced_journal_is_passed_over_by_history_the_page_and_undo(tmp_path, damage):
    """A journal of another machine with ``"changes": 5`` or a file without its path broke ``lh memory
    history`` (a traceback) and the page; it is not a run: history, the page and undo pass over it."""
    import json

    from lazy_harness.memory import journal

    proj, mdir = _project(tmp_path)
    did = _write_entries(Path(mdir), "decision", ["Use vLLM", "Use SQLite"])[0]
    assert invoke("memory", "forget", did, "--project", str(proj)).code == 0
    bad = {"run": "99999999-999999999999-ffff", "kind": "forget", "project": "proj", "started": "",
           "changes": ["x"], "undone": None, "files": [{"path": os.path.join(mdir, "marks.jsonl")}], **damage}
    with open(os.path.join(mdir, "journal", bad["run"] + ".json"), "w", encoding="utf-8") as fh:
        json.dump(bad, fh)
    assert [r["run"] for r in journal.runs(mdir)] != [] and bad["run"] not in [r["run"] for r in journal.runs(mdir)]
    hist = invoke("memory", "history", "--project", str(proj))
    assert hist.code == 0 and "forget" in hist.out and bad["run"] not in hist.out, hist.err
    r = invoke("memory", "undo", "--project", str(proj))
    assert r.code == 0 and did not in marks.hidden(mdir), r.err
